"""Toy STR types."""
