"""jieba's prefix dictionary is kept as a pickle in the user's cache folder, and segments exactly as jieba's
own loading does; a damaged or unwritable cache only means loading it the slow way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SENTENCES = ["审批后方可实施", "安装时宜采用不锈钢紧固件", "数据接口应支持断点续传，可选用加密传输"]
PROBE = f"""
from injectors.language.words import tokenizer, words, tagged
print(tokenizer().total, len(tokenizer().FREQ))
for s in {SENTENCES!r}:
    print("/".join(words(s)), " ".join(f for _, f in tagged(s, hmm=True)))
"""


def _run(cache: Path) -> str:
    env = {**os.environ, "GBTBENCH_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def test_the_kept_dictionary_segments_as_jieba_does(tmp_path: Path) -> None:
    first = _run(tmp_path)  # builds the dictionary and keeps it
    kept = list((tmp_path / "jieba").glob("prefix-*.pickle"))
    assert len(kept) == 1 and kept[0].stat().st_size > 1_000_000
    assert _run(tmp_path) == first  # read from the kept pickle
    assert "审批/后/方可/实施" in first


def test_a_damaged_or_unwritable_cache_loads_the_slow_way(tmp_path: Path) -> None:
    reference = _run(tmp_path / "fresh")
    (kept,) = (tmp_path / "fresh" / "jieba").glob("prefix-*.pickle")
    kept.write_bytes(b"\x80\x05 not a pickle")
    assert _run(tmp_path / "fresh") == reference
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    assert _run(blocked) == reference  # the cache folder cannot be made: nothing is kept, nothing fails
