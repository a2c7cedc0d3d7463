"""Options whose values are a fixed list kept by the module that implements them (`--llm`, `--shots`, …).

`--help` shows the list and a wrong value is a usage error that names it, while the module that defines the
list (numpy and pyarrow behind the evaluation, Prefect behind the runners) is imported only when the list
is read, not on every call of the command line.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from importlib import import_module

# Typer's choice type: Typer parses with its own copy of click, so a click.Choice's errors would escape it as
# a traceback (the version is pinned)
from typer._types import TyperChoice


class Choices(TyperChoice[str]):
    """A choice over `module:NAME` (a tuple of values, or a mapping whose keys are the values)."""

    def __init__(self, source: str, case_sensitive: bool = True) -> None:
        self._source = source
        super().__init__((), case_sensitive=case_sensitive)

    @property  # type: ignore[override]
    def choices(self) -> Sequence[str]:
        module, _, name = self._source.partition(":")
        return tuple(getattr(import_module(module), name))

    @choices.setter
    def choices(self, _: Iterable[str]) -> None:
        """The parent's constructor sets the list; ours is read from its module."""
