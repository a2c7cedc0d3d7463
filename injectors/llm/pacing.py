"""Pacing requests to a rate-limited endpoint: token estimates, a token bucket, Retry-After."""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import Mapping

from injectors.language.patterns import HAN


def estimate_tokens(text: str) -> int:
    """A tokenizer-free estimate (one per Han character, one per four other characters) for the TPM bucket."""
    han = len(HAN.findall(text))
    return han + (len(text) - han + 3) // 4


class TokenBucket:
    """`per_minute` units a minute, in bursts of at most one second's worth (so a limit is felt at once,
    not after a minute of full speed); `take` may drive it negative, a debt later requests wait for."""

    def __init__(self, per_minute: float) -> None:
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, self.rate)
        self.level = self.capacity
        self.stamp = time.monotonic()
        self._lock = asyncio.Lock()

    def _refill(self) -> None:
        now = time.monotonic()
        self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
        self.stamp = now

    async def acquire(self, amount: float) -> None:
        """Wait until `amount` units are available (a request larger than the bucket waits for a full one)."""
        amount = min(amount, self.capacity)
        async with self._lock:
            for _ in range(100_000):  # bounded: each round sleeps for the missing amount
                self._refill()
                if self.level >= amount:
                    self.level -= amount
                    return
                await asyncio.sleep((amount - self.level) / self.rate)

    def take(self, amount: float) -> None:
        """Charge what was used beyond the estimate (tokens of the completion)."""
        self._refill()
        self.level -= amount


def retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds a server asks us to wait: retry-after-ms, or Retry-After as seconds or an HTTP date."""
    if not headers:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
