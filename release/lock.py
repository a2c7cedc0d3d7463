"""One build at a time per output folder, and temporary folders that belong to the build that made them.

Two builds writing into one `outputs/` used to delete each other's live temporary folder. Now a build holds
an exclusive `flock` on `<out>/.build.lock` (the kernel drops it when the process dies, so a killed build
never leaves a stuck lock), temporary folders carry their owner's pid in their name, and a leftover folder
is removed only when that pid is no longer running.
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

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
def output_lock(
    out_root: Path,
    *,
    wait_s: float = 0.0,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> Iterator[None]:
    """Hold `<out_root>/.build.lock` for the block; wait up to `wait_s` for another build to finish.

    The clock and sleep are passed in (time.monotonic / time.sleep in production) so tests stay exact.
    """
    out_root = Path(out_root)
    out_root.mkdir(parents=True, exist_ok=True)
    path = out_root / LOCK_NAME
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = clock() + wait_s
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if clock() >= deadline:
                    waited = f" (waited {wait_s:g} s)" if wait_s else ""
                    raise OutputBusyError(
                        f"{out_root}: another build ({_holder(path)}) is writing to this output "
                        f"folder{waited}; "
                        "wait for it to finish, or pass --wait SECONDS"
                    ) from None
                sleep(POLL_S)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        try:
            yield
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


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
