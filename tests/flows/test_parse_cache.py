"""`gbtbench inject` keeps its template corpus parsed between calls; a changed file is parsed again."""

import os
import pickle
from dataclasses import replace
from pathlib import Path

from flows.cli.parse_cache import parsed_documents
from tests.support.sample_standard import SAMPLE


def test_documents_come_back_from_the_cache_until_the_file_changes(tmp_path: Path) -> None:
    source = tmp_path / "a.md"
    source.write_text(SAMPLE, encoding="utf-8")
    cache = tmp_path / "cache"
    first = parsed_documents([source], cache)
    stored = list((cache / "parsed").glob("*.pickle"))
    assert len(first) == 1 and len(stored) == 1
    # what the cache holds is what is returned: mark it, and the next call reads the mark back
    marked = replace(first[0], title="from the cache")
    stored[0].write_bytes(pickle.dumps(marked))
    assert parsed_documents([source], cache)[0].title == "from the cache"
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 10**9))
    assert parsed_documents([source], cache)[0].title == first[0].title


def test_an_unreadable_file_is_left_out_and_a_read_only_cache_still_parses(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.md", tmp_path / "bad.pdf"
    good.write_text(SAMPLE, encoding="utf-8")
    bad.write_bytes(b"not a pdf")
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")  # the cache folder cannot be created under a file
    assert [d.title for d in parsed_documents([good, bad], blocked)] == [
        d.title for d in parsed_documents([good], tmp_path / "c")
    ]
