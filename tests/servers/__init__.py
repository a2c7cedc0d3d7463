"""Local stand-ins for remote services, so tests exercise real HTTP without leaving 127.0.0.1."""
