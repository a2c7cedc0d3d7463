"""The SCP dimension's error types."""
