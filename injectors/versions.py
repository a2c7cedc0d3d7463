"""Type versions that mean something: each type records the digest of its candidates on the project's corpus.

A type's `version` (its injector's, carried by every instance's provenance) changes whenever what it injects
into the reference corpus (`corpus/sources`) changes. The injector records beside it the digest of those
candidates (`Injector.digest`), so a change in its output that leaves the version alone is caught
(tests/injectors/types/test_versions.py). After changing a type, or anything its candidates depend on:

    python -m injectors.versions            # which types' candidates changed (exit status 1 if any)
    python -m injectors.versions --write    # record their digests and bump their versions

The digest covers every candidate instance (location, edit, sections, description, form, generator) of the
offline path at seed 0, not the version it carries, so recording a new version leaves it unchanged.
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import regex

from corpus.stdsource import SOURCES, gold_documents
from injectors.context import InjectionContext
from injectors.instance import ErrorInstance
from injectors.planner import PlanConfig, candidate_instances
from injectors.registry import definitions
from parsers.model import Document

SEED = 0
_FIELD = regex.compile(r"^    (version|digest) = .*\n$")
_TYPE_LINE = regex.compile(r"^    error_type = .*\n$")


@dataclass(frozen=True)
class TypeVersion:
    error_type: str
    version: str
    recorded: str  # the digest the injector records ("" for a type that records none yet)
    current: str  # the digest of its candidates on the corpus now

    @property
    def changed(self) -> bool:
        return self.recorded != self.current

    @property
    def next_version(self) -> str:
        """The version to record: bumped when a recorded digest changed, kept when a type records a first."""
        if not self.changed or not self.recorded:
            return self.version
        return str(int(self.version) + 1) if self.version.isdigit() else f"{self.version}.1"


def _canonical(instance: ErrorInstance) -> str:
    row = asdict(instance)
    row["provenance"].pop("injector_version")
    return json.dumps(row, ensure_ascii=False, sort_keys=True, default=str)


def digests(documents: Sequence[Document], types: Iterable[str] | None = None) -> dict[str, str]:
    """Type → a digest of its candidate instances on these documents (each type found independently of the
    others, as the planner finds them)."""
    wanted = list(types) if types is not None else [d.error_type.id for d in definitions()]
    context = InjectionContext.from_documents(list(documents))
    rows: dict[str, list[str]] = {t: [] for t in wanted}
    for document in sorted(documents, key=lambda d: d.doc_id):
        for instance in candidate_instances(
            document, SEED, context, PlanConfig(types=tuple(wanted))
        ).instances:
            if instance.error_type in rows:
                rows[instance.error_type].append(_canonical(instance))
    return {t: hashlib.sha256("\n".join(r).encode("utf-8")).hexdigest()[:16] for t, r in rows.items()}


def compare(documents: Sequence[Document]) -> list[TypeVersion]:
    """Every registered type's recorded version and digest beside the digest of its candidates now."""
    now = digests(documents)
    return [
        TypeVersion(d.error_type.id, d.injector.version, d.injector.digest, now[d.error_type.id])
        for d in definitions()
    ]


def record(injector: type, version: str, digest: str) -> Path:
    """Write `version` and `digest` into the injector's class body in its module (after `error_type`)."""
    source = inspect.getsourcefile(injector)
    if source is None:
        raise ValueError(f"{injector.__name__}: its source file cannot be found")
    path = Path(source)
    _, start = inspect.getsourcelines(injector)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    body_end = start + len(inspect.getsourcelines(injector)[0]) - 1
    kept: list[str] = []
    anchor = None
    for number, line in enumerate(lines, start=1):
        inside = start <= number <= body_end
        if inside and _FIELD.match(line):
            continue
        kept.append(line)
        if inside and anchor is None and _TYPE_LINE.match(line):
            anchor = len(kept)
    if anchor is None:
        raise ValueError(
            f"{path}: {injector.__name__} has no `error_type = ...` line to record its version after"
        )
    kept[anchor:anchor] = [f'    version = "{version}"\n', f'    digest = "{digest}"\n']
    path.write_text("".join(kept), encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m injectors.versions", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--corpus", type=Path, default=SOURCES, help="folder of .std sources (corpus/sources)"
    )
    parser.add_argument(
        "--write", action="store_true", help="record the changed digests and bump those types' versions"
    )
    args = parser.parse_args(argv)
    documents = gold_documents(args.corpus)
    if not documents:
        print(f"{args.corpus}: no .std source here", file=sys.stderr)
        return 2
    rows = compare(documents)
    changed = [r for r in rows if r.changed]
    for row in rows:
        state = "changed" if row.changed else "same"
        print(f"{row.error_type:8} v{row.version:3} {row.recorded or '-':16} {row.current}  {state}")
    by_id: Mapping[str, type] = {d.error_type.id: d.injector for d in definitions()}
    if args.write:
        for row in changed:
            path = record(by_id[row.error_type], row.next_version, row.current)
            print(f"{row.error_type}: version {row.version} → {row.next_version}, digest recorded in {path}")
        return 0
    if changed:
        names = ", ".join(r.error_type for r in changed)
        print(f"candidates changed: {names}; run `python -m injectors.versions --write`", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
