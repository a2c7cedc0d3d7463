"""The STR dimension's error types."""
