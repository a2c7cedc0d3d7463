"""The NMS dimension's error types."""
