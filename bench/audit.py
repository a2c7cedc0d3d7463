"""How long the shortcut audit takes on a release, stage by stage, and its peak memory.

    python -m bench.audit RELEASE_DIR [RELEASE_DIR ...]

The build runs the audit on every release, so it must stay a small part of a build (goal: under a minute
on the real standards on one core). Prints seconds per stage (load, n-grams, surface baseline, position,
cross-references, joint validity) and the process's peak resident memory.
"""

from __future__ import annotations

import argparse
import resource
import time
from collections.abc import Callable
from pathlib import Path

from injectors.registry import definitions
from validation.audit.baseline import audit_baseline
from validation.audit.integrity import audit_integrity
from validation.audit.joint import audit_joint
from validation.audit.ngrams import audit_ngrams
from validation.audit.position import audit_positions
from validation.audit.release import Release, load_release


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("releases", nargs="+", type=Path)
    args = parser.parse_args()
    types = [d.error_type.id for d in definitions()]
    print(
        f"{'release':<32} {'docs':>5} {'inst':>5} {'load':>6} {'ngram':>6} {'auc':>6} {'pos':>6} "
        f"{'xref':>6} {'joint':>6} {'total':>6}"
    )
    for path in args.releases:
        seconds: dict[str, float] = {}
        start = time.perf_counter()
        release = load_release(path)
        seconds["load"] = time.perf_counter() - start
        stages: dict[str, Callable[[Release], object]] = {
            "ngram": lambda r: audit_ngrams(r, types),
            "auc": lambda r: audit_baseline(r, types),
            "pos": lambda r: audit_positions(r, types),
            "xref": audit_integrity,
            "joint": audit_joint,
        }
        for name, stage in stages.items():
            step = time.perf_counter()
            stage(release)
            seconds[name] = time.perf_counter() - step
        total = time.perf_counter() - start
        cells = " ".join(f"{seconds[k]:6.1f}" for k in ("load", *stages))
        print(
            f"{str(path)[-32:]:<32} {len(release.documents):>5} {len(release.instances):>5} "
            f"{cells} {total:6.1f}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
