"""How the suite's tests are split between pytest-xdist workers (`--dist loadgroup`), so that they finish
together and no expensive fixture is computed twice.

Grouping: the tests of a module that share one of its module- or session-scoped fixtures (a build, a
browser, a Hub) form one group and run on one worker, so that the fixture is set up once. A fixture whose
value every worker reads from the session store (`session_store`, marked with `across_workers`) costs a
second worker only a file read: its users are not grouped and spread over the workers.

Order: xdist hands out groups (and single tests) in collection order, so a long group collected last keeps
one worker busy while the others idle. The main process records every test's duration in pytest's cache;
the next session starts the longest groups (and modules, for tests in no group) first: longest processing
time first, which leaves the short ones to fill the gaps at the end. A fresh clone (CI) or a run with
`-p no:cacheprovider` has no such record: there the committed `tests/support/durations.json` (each block's
seconds in a full run) decides, and a block it does not know counts one second per test, or twenty if the test
runs a build (uses the Prefect server). Refresh the file after a change that moves the suite's time:
`GBTBENCH_WRITE_DURATIONS=1 make test` (a whole run under xdist, so that the groups are known).

xdist's own `--loadscope-reorder` (on by default) would sort the groups by their number of tests, undoing
this order: `GroupScheduling` turns it off.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from xdist.scheduler import LoadScopeScheduling

F = TypeVar("F", bound=Callable[..., Any])

CACHE_KEY = "gbtbench/durations"
GROUPS = "xdist-groups.json"  # in the session folder: test id → group, written by the workers
EXPECTED = Path(__file__).with_name("durations.json")  # block → seconds in a full run, committed
WRITE_EXPECTED = "GBTBENCH_WRITE_DURATIONS"  # set (to 1): the session rewrites EXPECTED from its durations
UNKNOWN_S = 1.0  # a test with no recorded duration
UNKNOWN_BUILD_S = 20.0  # … that runs a build (it uses the Prefect server)

# fixtures every xdist worker sets up for itself anyway (the per-worker Prefect client settings, the parsed
# corpus, the session folder); pytest's own fixtures have no base id
PER_WORKER = {"prefect_api", "corpus_documents", "session_folder"}


def across_workers(fixture_function: F) -> F:
    """Mark a fixture (under `@pytest.fixture`) whose value comes from the session store: its users need
    not share a worker."""
    fixture_function.across_workers = True  # type: ignore[attr-defined]
    return fixture_function


def group_of(item: pytest.Item) -> str | None:
    """The xdist group of a test: the module of the first expensive fixture it shares, if any."""
    marker = item.get_closest_marker("xdist_group")
    if marker is not None:
        return str(marker.args[0]) if marker.args else str(marker.kwargs.get("name", "default"))
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return None
    for name in info.names_closure:
        definitions = info.name2fixturedefs.get(name)
        if not definitions or name in PER_WORKER:
            continue
        definition = definitions[-1]
        if getattr(definition.func, "across_workers", False):
            continue
        if definition.scope in ("module", "package", "session") and definition.baseid:
            return str(definition.baseid)
    return None


def plain_id(nodeid: str) -> str:
    """A test id without the `@group` suffix xdist adds under --dist loadgroup."""
    head, at, tail = nodeid.rpartition("@")
    return head if at and "]" not in tail and "::" not in tail else nodeid


class GroupScheduling(LoadScopeScheduling):
    """`--dist loadgroup` with the groups the workers recorded at collection.

    xdist 3.8 tells the main process a test's group by appending `@group` to its test id, which pytest 9.2's
    read-only ids silently ignore (every test became a group of its own); here the workers write the groups
    to the session folder and the scheduler reads them once the collection is in.
    """

    def __init__(self, config: pytest.Config, log: Any, groups: Path) -> None:
        config.option.loadscopereorder = False  # keep the longest-first order `arrange` gave the tests
        super().__init__(config, log)
        self._groups_file = groups
        self._groups: dict[str, str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if self._groups is None:
            exists = self._groups_file.exists()
            self._groups = json.loads(self._groups_file.read_text(encoding="utf-8")) if exists else {}
        return self._groups.get(plain_id(nodeid)) or nodeid


def write_groups(items: list[pytest.Item], folder: Path) -> None:
    """Record each grouped test's group for the scheduler (every worker writes the same content)."""
    groups = {item.nodeid: group for item in items if (group := group_of(item)) is not None}
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{GROUPS}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(groups, handle)
    os.replace(tmp, folder / GROUPS)


def block_of(nodeid: str, group: str | None) -> str:
    """The unit `arrange` orders: a group, or the ungrouped tests of one module."""
    return f"group {group}" if group is not None else f"module {plain_id(nodeid).split('::')[0]}"


def arrange(items: list[pytest.Item], durations: dict[str, float]) -> None:
    """Mark each test's group and put the longest blocks first: a block is a group, or the ungrouped tests of
    one module (in place; stable, and a block's tests keep their collected order)."""
    blocks: dict[str, list[pytest.Item]] = defaultdict(list)
    for item in items:
        group = group_of(item)
        if group is not None and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(group))
        blocks[block_of(item.nodeid, group)].append(item)
    expected = expected_durations()
    cost = {block: _cost(block, members, durations, expected) for block, members in blocks.items()}
    order = sorted(blocks, key=lambda block: -cost[block])  # sorted() is stable: ties keep collection order
    items[:] = [item for block in order for item in blocks[block]]


def _cost(
    block: str, members: list[pytest.Item], durations: dict[str, float], expected: dict[str, float]
) -> float:
    """This session's record if it has one for the block's tests, else the committed figure, else a guess."""
    if block in expected and not any(item.nodeid in durations for item in members):
        return expected[block]
    return sum(_duration(item, durations) for item in members)


def _duration(item: pytest.Item, durations: dict[str, float]) -> float:
    if item.nodeid in durations:
        return durations[item.nodeid]
    info = getattr(item, "_fixtureinfo", None)
    return UNKNOWN_BUILD_S if info is not None and "prefect_api" in info.names_closure else UNKNOWN_S


def recorded(config: pytest.Config) -> dict[str, float]:
    cache = getattr(config, "cache", None)
    if cache is None:
        return {}
    value = cache.get(CACHE_KEY, {})
    return value if isinstance(value, dict) else {}


def expected_durations() -> dict[str, float]:
    """The committed seconds per block (empty if the file is absent)."""
    if not EXPECTED.exists():
        return {}
    value = json.loads(EXPECTED.read_text(encoding="utf-8"))
    return value if isinstance(value, dict) else {}


def write_expected(durations: dict[str, float], groups: Path) -> None:
    """Rewrite the committed file from a session's test durations and the groups its workers wrote."""
    group = json.loads(groups.read_text(encoding="utf-8")) if groups.exists() else {}
    blocks: dict[str, float] = defaultdict(float)
    for nodeid, seconds in durations.items():
        blocks[block_of(nodeid, group.get(nodeid))] += seconds
    merged = {**expected_durations(), **blocks}  # a partial run keeps the other blocks' figures
    ordered = {block: round(seconds, 1) for block, seconds in sorted(merged.items())}
    EXPECTED.write_text(json.dumps(ordered, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def record(config: pytest.Config, durations: dict[str, float]) -> None:
    """Keep the durations of this session's tests (and the older record of tests it did not run)."""
    cache = getattr(config, "cache", None)
    if cache is not None and durations:
        cache.set(CACHE_KEY, {**recorded(config), **{k: round(v, 2) for k, v in durations.items()}})
