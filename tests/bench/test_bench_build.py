"""`bench/build.py` prints where a build's time went, read from the release's manifest."""

from __future__ import annotations

import json
from pathlib import Path

from bench.build import stage_line


def test_the_stage_line_reads_the_manifest_timings(tmp_path: Path) -> None:
    timings = {"parse": 1.3, "inject": 10.0, "release": {"instructions": 2.5, "audit": 0.75, "total": 4.0}}
    (tmp_path / "manifest.json").write_text(json.dumps({"timings": timings}), encoding="utf-8")
    assert stage_line(tmp_path) == (
        "stages (s): parse 1.3, inject 10.0; release steps (s): instructions 2.5, audit 0.8"
    )
