"""One build at a time per output folder, and temporary folders that belong to the build that made them.

Two builds writing into one `outputs/` would delete each other's live temporary folder. A build holds
`<out>/.build.lock` (filelock's `flock`: the kernel drops it when the process dies, so a killed build never
leaves a stuck lock) and writes its pid into it for the message another build gives; temporary folders
carry their owner's pid in their name, and a leftover folder is removed only when that pid is no longer
running.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

LOCK_NAME = ".build.lock"
POLL_S = 0.2


class OutputBusyError(RuntimeError):
    """Another build holds the output folder's lock (for longer than we were willing to wait)."""


def _holder(handle_path: Path) -> str:
    try:
        pid = handle_path.read_text(encoding="ascii").strip()
    except OSError:
        pid = ""
    return f"pid {pid}" if pid.isdigit() else "another process"


@contextmanager
def output_lock(out_root: Path, *, wait_s: float = 0.0) -> Iterator[None]:
    """Hold `<out_root>/.build.lock` for the block; wait up to `wait_s` for another build to finish."""
    out_root = Path(out_root)
    out_root.mkdir(parents=True, exist_ok=True)
    path = out_root / LOCK_NAME
    lock = FileLock(path, mode=0o644)
    try:
        lock.acquire(timeout=wait_s, poll_interval=POLL_S, blocking=wait_s > 0)
    except Timeout:
        waited = f" (waited {wait_s:g} s)" if wait_s else ""
        raise OutputBusyError(
            f"{out_root}: another build ({_holder(path)}) is writing to this output folder{waited}; "
            "wait for it to finish, or pass --wait SECONDS"
        ) from None
    try:
        path.write_text(f"{os.getpid()}\n", encoding="ascii")
        yield
    finally:
        path.write_text("", encoding="ascii")
        lock.release()


def temp_prefix(version: str) -> str:
    """`.<version>.tmp-<pid>-`: the name tells whose temporary folder it is."""
    return f".{version}.tmp-{os.getpid()}-"


def pid_alive(pid: int) -> bool:
    """Whether a process with this pid exists (on this machine); our own pid is alive."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    return True


def remove_stale_temps(out_root: Path, version: str) -> list[Path]:
    """Remove `.<version>.tmp-<pid>-*` folders whose owner is dead; live or ownerless ones are kept."""
    removed: list[Path] = []
    prefix = f".{version}.tmp-"
    for candidate in Path(out_root).glob(f"{prefix}*"):
        owner = candidate.name[len(prefix) :].split("-", 1)[0]
        if not owner.isdigit() or pid_alive(int(owner)):
            continue
        shutil.rmtree(candidate, ignore_errors=True)
        removed.append(candidate)
    return removed


__all__ = ["LOCK_NAME", "OutputBusyError", "output_lock", "pid_alive", "remove_stale_temps", "temp_prefix"]
