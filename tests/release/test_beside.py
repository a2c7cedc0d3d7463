"""A release step beside the caller: in a second process, or here where a process may not have children."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from release.beside import beside


def _fails(path: str) -> None:
    raise FileNotFoundError(path)


def test_the_step_runs_in_a_second_process_and_returns_its_result() -> None:
    with beside(os.getpid) as pending:
        here = os.getpid()
        assert pending.result() != here


def test_an_error_in_the_step_is_raised_by_result(tmp_path: Path) -> None:
    with (
        beside(_fails, str(tmp_path / "missing")) as pending,
        pytest.raises(FileNotFoundError, match="missing"),
    ):
        pending.result()


def _in_a_daemon(queue: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    with beside(os.getpid) as pending:
        queue.put((pending.result(), os.getpid()))


def test_a_daemonic_process_runs_the_step_itself() -> None:
    """A Dask worker is daemonic and may not start children: the step runs in it, with the same result."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    worker = context.Process(target=_in_a_daemon, args=(queue,), daemon=True)
    worker.start()
    ran_in, daemon = queue.get(timeout=60)
    worker.join(60)
    assert ran_in == daemon == worker.pid


def _dies_unless_in(pid: int) -> str:
    if os.getpid() != pid:
        os._exit(3)  # the child is killed (as by the kernel's OOM killer)
    return "ran here"


def test_a_child_that_dies_leaves_the_step_to_the_caller() -> None:
    with beside(_dies_unless_in, os.getpid()) as pending:
        assert pending.result() == "ran here"


def test_a_step_not_worth_a_process_runs_here() -> None:
    with beside(os.getpid, worth_it=False) as pending:
        assert pending.result() == os.getpid()
