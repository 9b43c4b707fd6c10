"""Referees that are other processes: a CodinGame SDK referee, a brutaltester ### referee."""
