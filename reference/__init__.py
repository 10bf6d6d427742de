"""Reference implementation of the gymspec protocols (Gymnasium 1.x compatible)."""
