"""Bots in CodinGame's compiled languages (C, C++, Java, Rust): compilers and their options, the
files each bot is made of, the compile cache."""
