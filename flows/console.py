"""The console every command writes its messages to: stderr, never hard-wrapped (it is often a log)."""

from __future__ import annotations

from rich.console import Console

err = Console(stderr=True, soft_wrap=True)
