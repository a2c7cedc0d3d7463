"""jieba's prefix dictionary and word-tag table (a `TagTable`) are kept as one pickle in the user's cache
folder, equal to the tables jieba reads itself, and segment and tag exactly as jieba's own loading does
(ours and jieba's global tagger); a damaged or unwritable cache only means loading them the slow way."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
SENTENCES = ["审批后方可实施", "安装时宜采用不锈钢紧固件", "数据接口应支持断点续传，可选用加密传输"]
PROBE = f"""
from injectors.language.words import tokenizer, words, tagged
ours = ["/".join(words(s)) + " " + " ".join(f for _, f in tagged(s, hmm=True)) for s in {SENTENCES!r}]
import jieba.posseg  # imported by `tagged`, which gave its global tagger the word-tag table
print(tokenizer().total, len(tokenizer().FREQ), len(jieba.posseg.dt.word_tag_tab))
for s, line in zip({SENTENCES!r}, ours):
    print(line)
    print(" ".join(f"{{w}}/{{f}}" for w, f in jieba.posseg.cut(s)))
"""


def _run(cache: Path, probe: str = PROBE) -> str:
    env = {**os.environ, "GBTBENCH_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


# what earlier versions of this code kept: the first run here, which keeps the dictionary, deletes them
STALE = ("prefix-0.42.1-9-9.pickle", "dictionary-0.42.1-9-9.pickle")


@pytest.fixture(scope="module")
def kept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A cache folder where a first run built the dictionary the slow way and kept it, and that run's
    output (segmenting and tagging as jieba's own loading does): the reference of every test here. Tests
    that read the folder get a copy of it. The folder held earlier versions' tables before that run."""
    folder = tmp_path_factory.mktemp("kept")
    (folder / "jieba").mkdir()
    for name in STALE:
        stale = folder / "jieba" / name
        stale.write_bytes(b"an earlier version's table")
        os.utime(stale, (1_000_000_000, 1_000_000_000))
    return folder, _run(folder)


def _copy(kept: tuple[Path, str], to: Path) -> Path:
    shutil.copytree(kept[0], to)
    return to


def test_the_kept_dictionary_segments_as_jieba_does(kept: tuple[Path, str], tmp_path: Path) -> None:
    folder, first = kept  # built the dictionary and kept it
    (pickle,) = (folder / "jieba").glob("*.pickle")
    assert pickle.name.startswith("lexicon-") and pickle.stat().st_size > 1_000_000
    assert _run(_copy(kept, tmp_path / "cache")) == first  # read from the kept pickle
    assert "审批/后/方可/实施" in first
    assert "安装/v 时宜/n 采用/v" in first  # jieba's global tagger has its table too


def test_the_kept_tables_are_the_ones_jieba_reads(kept: tuple[Path, str], tmp_path: Path) -> None:
    probe = f"""
import pickle, jieba, jieba.posseg
(kept,) = __import__("pathlib").Path({str(kept[0] / "jieba")!r}).glob("*.pickle")
freq, total, tags = pickle.loads(kept.read_bytes())
own = jieba.Tokenizer()
own.initialize()
assert (freq, total) == (own.FREQ, own.total)
assert tags == jieba.posseg.POSTokenizer(own).word_tag_tab
print(len(freq), len(tags))
"""
    sizes = _run(tmp_path / "unused", probe).split()
    assert int(sizes[1]) > 300_000 and int(sizes[0]) > int(sizes[1])  # the prefixes are in the first one


def test_a_damaged_or_unwritable_cache_loads_the_slow_way(kept: tuple[Path, str], tmp_path: Path) -> None:
    damaged, reference = _copy(kept, tmp_path / "damaged"), kept[1]
    for pickle in (damaged / "jieba").glob("*.pickle"):
        pickle.write_bytes(b"\x80\x05 not a pickle")
    assert _run(damaged) == reference
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("")
    assert _run(blocked) == reference  # the cache folder cannot be made: nothing is kept, nothing fails


def test_a_global_dictionary_set_by_other_code_keeps_its_own_tags(
    kept: tuple[Path, str], tmp_path: Path
) -> None:
    """The kept table is jieba's main dictionary's: when other code in the process set another global
    dictionary first, jieba's global tagger reads that one, and ours still tags with the main one."""
    cache, reference = _copy(kept, tmp_path / "cache"), kept[1]
    custom = tmp_path / "custom.txt"
    custom.write_text("审批 10 v\n实施 10 v\n不锈钢 10 n\n", encoding="utf-8")
    probe = f"""
import jieba
jieba.set_dictionary({str(custom)!r})
from injectors.language.words import tagged
ours = " ".join(f for _, f in tagged("安装时宜采用不锈钢紧固件", hmm=True))
import jieba.posseg
print(len(jieba.posseg.dt.word_tag_tab), ours)
"""
    size, ours = _run(cache, probe).split(maxsplit=1)
    assert int(size) == 3  # the custom file's three entries, not the kept main table
    assert ours.strip() == reference.splitlines()[3].split(" ", 1)[1]  # ours: the main dictionary's tags


def test_what_earlier_jiebas_kept_is_deleted_once_a_day_old(tmp_path: Path) -> None:
    """Each reinstall of jieba keys a new 10 MB pickle, and earlier versions kept two others: writing a
    pickle deletes those, unless another environment sharing the folder wrote them within a day."""
    from injectors.language.words import STALE_AFTER_S, forget_stale

    now = 2_000_000_000.0
    folder = tmp_path / "jieba"
    folder.mkdir()
    ages = {
        "lexicon-0.42.1-1-1.pickle": 5 * STALE_AFTER_S,  # the one just written (its age does not matter)
        "lexicon-0.42.1-2-2.pickle": 2 * STALE_AFTER_S,  # an earlier jieba's
        "lexicon-0.42.1-3-3.pickle": STALE_AFTER_S / 2,  # another environment's, written today
        "dictionary-0.42.1-1-1.pickle": 2 * STALE_AFTER_S,  # earlier versions of this code
        "prefix-0.42.1-2-2.pickle": 3 * STALE_AFTER_S,
        "tags-0.42.1-2-2.pickle": 3 * STALE_AFTER_S,
        "lexicon-0.42.1-4-4.pickle.77.partial": 2 * STALE_AFTER_S,  # a process stopped while writing
        "notes.txt": 9 * STALE_AFTER_S,  # not ours
    }
    for name, age in ages.items():
        (folder / name).write_bytes(b"x")
        os.utime(folder / name, (now - age, now - age))
    gone = forget_stale(folder / "lexicon-0.42.1-1-1.pickle", now)
    left = sorted(p.name for p in folder.iterdir())
    assert left == ["lexicon-0.42.1-1-1.pickle", "lexicon-0.42.1-3-3.pickle", "notes.txt"]
    assert len(gone) == 5


def test_keeping_the_dictionary_deletes_the_stale_pickles(kept: tuple[Path, str]) -> None:
    """The run that kept the dictionary (`kept`, in a folder holding earlier versions' tables: `STALE`)."""
    (left,) = (kept[0] / "jieba").iterdir()
    assert left.name.startswith("lexicon-")
