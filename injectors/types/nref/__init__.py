"""The NREF dimension's error types."""
