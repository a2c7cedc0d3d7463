"""Real standards as Markdown and LLM-extracted text (../shared/corpus-real; skipped when absent)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from parsers import parse_file
from parsers.entries import normative_references, term_entries


@pytest.mark.parametrize("name", ["GBT_22240-2020.md", "JRT_0060-2021.md"])
def test_markdown_standards(real_corpus: Path, name: str) -> None:
    doc = parse_file(real_corpus / name)
    kinds = {s.kind for s in doc.sections}
    assert {"foreword", "scope", "normative_references", "terms", "clause", "bibliography"} <= kinds
    numbers = [s.number for s in doc.sections]
    assert not [n for n, c in Counter(numbers).items() if c > 1]
    chapters = [int(s.number) for s in doc.sections if s.level == 1 and s.number.isdigit()]
    assert chapters == list(range(1, len(chapters) + 1))
    assert len(term_entries(doc)) >= 5 and all(t.english for t in term_entries(doc))
    assert len(normative_references(doc)) >= 2
    assert doc.standard_id in ("GB/T 22240—2020", "JR/T 0060—2021")
    expected_rules = {"GBT_22240-2020.md": "GB/T 1.1—2009", "JRT_0060-2021.md": "GB/T 1.1—2020"}
    assert doc.drafting_rules == expected_rules[name]


def test_llm_extracted_texts(real_corpus: Path) -> None:
    files = sorted((real_corpus / "llm-extracted").glob("*.txt"))
    assert files
    for path in files:
        doc = parse_file(path)
        kinds = {s.kind for s in doc.sections}
        assert {"foreword", "scope", "normative_references"} <= kinds, path.name
        assert doc.standard_id.startswith(("GB/T", "GB/Z")), path.name
        assert not any(s.text.startswith("[续]") for s in doc.sections)
