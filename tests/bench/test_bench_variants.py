"""The varied corpus of `bench/build.py`: genuinely different documents that the build keeps."""

from __future__ import annotations

from pathlib import Path

from bench.variants import parse_sources, source_files, write_corpus
from parsers import parse_file
from parsers.duplicates import split_duplicates


def test_variants_are_distinct_standards_with_their_sources_structure(tmp_path: Path) -> None:
    sources = parse_sources(source_files(include_real=False)[:3])
    assert len(sources) == 3
    paths = write_corpus(tmp_path / "corpus", 9, sources, seed=1)
    documents = [parse_file(p) for p in paths]
    kept, duplicates = split_duplicates([(p.name, d) for p, d in zip(paths, documents, strict=True)])
    assert not duplicates and len(kept) == 9
    assert len({d.standard_id for d in documents}) == 9
    for n, document in enumerate(documents):
        source = sources[n % 3]
        assert [s.number for s in document.sections] == [s.number for s in source.sections]
    first, later = documents[0], documents[3]  # the same source, variants 0 and 1
    changed = [a.number for a, b in zip(first.sections, later.sections, strict=True) if a.text != b.text]
    assert changed  # values and list order differ, not only the cover
    assert first.title != later.title
    again = write_corpus(tmp_path / "again", 9, sources, seed=1)
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in paths]  # seeded: the same corpus
