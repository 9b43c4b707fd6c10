"""The bundler: one self-contained file a contest site accepts."""
