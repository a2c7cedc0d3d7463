"""Duplicate documents are bad inputs naming the first copy; the build goes on."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from flows.runtime import settings
from tests.reliability.helpers import write_corpus

settings.configure(Path(tempfile.mkdtemp(prefix="gbtbench-test-cache-")))

from flows.executors.prefect_flow import run_build  # noqa: E402
from parsers import parse_file  # noqa: E402
from parsers.duplicates import split_duplicates  # noqa: E402
from release.config import BuildConfig  # noqa: E402

pytestmark = pytest.mark.usefixtures("prefect_api")  # the session's Prefect server, not one per build


def test_copies_by_content_and_by_standard_id_are_reported_not_built(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    first, second = write_corpus(corpus, count=2)
    shutil.copy(first, corpus / "zz-copy.txt")  # the same bytes
    text = second.read_text(encoding="utf-8")
    (corpus / "zz-edition.md").write_text(
        text.replace("\n", "\n\n"), encoding="utf-8"
    )  # same id, other bytes
    summary = run_build(corpus, tmp_path / "out", BuildConfig(seed=3, version="v0.1.0"))
    assert not summary.critical_failures  # doc_id_unique and instance_id_unique used to fail here
    assert summary.documents == 2 and summary.output is not None
    reasons = {b["source"]: b["reason"] for b in summary.bad_inputs}
    assert reasons == {
        "zz-copy.txt": f"duplicate of {first.name} (same content); the first copy is used",
        "zz-edition.md": f"duplicate of {second.name} (same standard id and version); the first copy is used",
    }


def test_split_duplicates_keeps_the_first_in_order(tmp_path: Path) -> None:
    a, b = write_corpus(tmp_path, count=2)
    doc_a, doc_b = parse_file(a), parse_file(b)
    kept, dupes = split_duplicates([("a", doc_a), ("b", doc_b), ("c", doc_a)])
    assert [name for name, _ in kept] == ["a", "b"]
    assert [(d.source, d.first, d.same) for d in dupes] == [("c", "a", "content")]
