"""The TER dimension's error types."""
