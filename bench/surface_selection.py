"""How much of a type's surface AUC its edits earn, and how much the documents it landed in.

    python -m bench.surface_selection RELEASE [--types SCP-05,SCP-01] [--seed 0]

The audit's surface baseline fits a classifier on a type's corrupted sections against clean sections of the
same kinds, the instances' own originals among them. On a small release its figure mixes two things: the
wording of the edits, and which documents the type landed in (a document without an instance is only
ever a negative, so its words lean negative; one with an instance is in both classes, where the balanced
fit weighs each positive more than each negative, so its words lean positive; documents like either
score alike). This prints, per type, the audit's AUC beside the AUC of the same fit with every instance's
corrupted section replaced by its own original: with no edit at all, whatever the classifier still tells
apart is the choice of documents, not the error. A type whose figure is near its no-edit figure cannot
lower it by changing its wording.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from validation.audit.baseline import audit_baseline
from validation.audit.release import Release, load_release


@dataclass(frozen=True)
class Selection:
    error_type: str
    positives: int
    auc: float | None  # the audit's figure (None: the audit skips the type)
    without_edits: float | None  # the same fit with every edit undone


def without_edits(release: Release) -> Release:
    """The release with each instance's corrupted section replaced by its own original. An inserted
    section has no original to stand for it and is left out; a deleted one stays without a corrupted
    section, so the fit skips it as the audit does."""
    kept = tuple(
        i if i.corrupted_section is None else replace(i, corrupted_section=i.original_section)
        for i in release.instances
        if i.original_section is not None
    )
    return replace(release, instances=kept)


def selection(release: Release, types: Iterable[str], seed: int = 0) -> dict[str, Selection]:
    """Per type: the audit's surface AUC and the AUC with the edits undone, on the same seed."""
    types = list(types)
    edited = audit_baseline(release, types, seed=seed)
    unedited = audit_baseline(without_edits(release), types, seed=seed)
    return {
        t: Selection(t, edited[t].positives, edited[t].auc, unedited[t].auc if t in unedited else None)
        for t in types
        if t in edited
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("release", type=Path, help="a release folder (…/latest)")
    parser.add_argument("--types", default="", help="comma-separated type ids (default: every type)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    release = load_release(args.release)
    types = [t for t in args.types.split(",") if t] or sorted({i.error_type for i in release.instances})
    print(f"{'type':8} {'n':>3} {'AUC':>6} {'no edit':>8} {'edits add':>10}")
    for s in selection(release, types, args.seed).values():
        if s.auc is None:
            print(f"{s.error_type:8} {s.positives:>3} {'-':>6} {'-':>8} {'-':>10}")
            continue
        base = "-" if s.without_edits is None else f"{s.without_edits:.2f}"
        gain = "-" if s.without_edits is None else f"{s.auc - s.without_edits:+.2f}"
        print(f"{s.error_type:8} {s.positives:>3} {s.auc:>6.2f} {base:>8} {gain:>10}")


if __name__ == "__main__":
    main()
