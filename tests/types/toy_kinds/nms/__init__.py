"""Toy NMS types."""
