"""When to stop calling the model: a circuit breaker for a dead endpoint and a deadline for the stage.

Retries make one call robust; they also make a dead endpoint cost every retry's timeout on every call,
one call after another, for hours. After `threshold` consecutive transport failures (timeouts, refused
connections, 5xx) the breaker opens: the endpoint is declared down and every later call fails at once, so
the remaining sites fall back to their rule templates with the reason recorded. The deadline bounds the
whole stage the same way, and caps each request's timeout and each backoff at the time that is left.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

DEFAULT_THRESHOLD = 5


class CircuitBreaker:
    """Counts consecutive transport failures across all threads; opens for good at `threshold`."""

    def __init__(self, threshold: int = DEFAULT_THRESHOLD) -> None:
        if threshold < 1:
            raise ValueError("the circuit breaker threshold must be at least 1")
        self.threshold = threshold
        self._lock = threading.Lock()
        self._consecutive = 0
        self._reason: str | None = None

    @property
    def open(self) -> bool:
        with self._lock:
            return self._reason is not None

    @property
    def reason(self) -> str | None:
        """Why the endpoint was declared down (None while it is up)."""
        with self._lock:
            return self._reason

    def reset(self) -> None:
        """Close the breaker again: a new run gives the endpoint a new chance."""
        with self._lock:
            self._consecutive = 0
            self._reason = None

    def success(self) -> None:
        with self._lock:
            self._consecutive = 0

    def failure(self, kind: str) -> bool:
        """Count one transport failure; True when this one opened the breaker."""
        with self._lock:
            if self._reason is not None:
                return False
            self._consecutive += 1
            if self._consecutive >= self.threshold:
                self._reason = (
                    f"endpoint down: {self._consecutive} consecutive transport failures (last: {kind})"
                )
                return True
            return False


class Deadline:
    """Seconds left for the stage, counted from the first time anyone asks (the stage's first call)."""

    def __init__(self, seconds: float | None, clock: Callable[[], float]) -> None:
        if seconds is not None and seconds <= 0:
            raise ValueError("the LLM deadline must be positive")
        self.seconds = seconds
        self._clock = clock
        self._lock = threading.Lock()
        self._started: float | None = None

    def restart(self) -> None:
        """Count again from the next question (a new run in a long-lived process, e.g. `serve`)."""
        with self._lock:
            self._started = None

    def remaining(self) -> float | None:
        """None without a deadline; else the seconds left (never negative)."""
        if self.seconds is None:
            return None
        with self._lock:
            now = self._clock()
            if self._started is None:
                self._started = now
            return max(0.0, self.seconds - (now - self._started))

    @property
    def expired(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0


__all__ = ["DEFAULT_THRESHOLD", "CircuitBreaker", "Deadline"]
