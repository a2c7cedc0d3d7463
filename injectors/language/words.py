"""Word segmentation: one jieba set-up for the whole project, loaded once per process.

A private tokenizer (not jieba's global one), so that a word any library adds to jieba's global dictionary
never changes how a standard is segmented, and so what is injected. It knows the project's vocabulary
(`vocabulary.txt`: 方可, 可能, 可靠, 应用, 响应, 记录 …, the words that hold a modal character without being
a modal verb), so that "审批后方可实施" reads 审批/后/方可/实施, not 审批/后方/可/实施. Exact mode;
`hmm=True` lets jieba guess words missing from its dictionary.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import logging
import os
import pickle
import re
import sys
import threading
import time
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from injectors.cache_folder import cache_dir
from injectors.language.cache_sizes import LINE_CACHE
from injectors.language.tag_table import TagTable

if TYPE_CHECKING:
    import jieba.posseg

VOCABULARY = Path(__file__).with_name("vocabulary.txt")


def _import_jieba() -> ModuleType:
    """jieba, which opens its data files itself when `pkg_resources` cannot be imported: that deprecated
    module takes longer to import than jieba (a third of `gbtbench inject`'s start-up), for no gain."""
    if "pkg_resources" in sys.modules:
        return importlib.import_module("jieba")
    sys.modules["pkg_resources"] = None  # type: ignore[assignment]  # makes `import pkg_resources` fail
    try:
        return importlib.import_module("jieba")
    finally:
        del sys.modules["pkg_resources"]


jieba = _import_jieba()

jieba.setLogLevel(logging.WARNING)

_TOKENIZER: jieba.Tokenizer | None = None
_POS: jieba.posseg.POSTokenizer | None = None
_TAGS: TagTable | None = None  # the main dictionary's word-tag table, read with the tokenizer's
# the first use may come from several threads at once (a build's thread runner): one of them sets up, the
# others wait; before, a thread could segment with a tokenizer still without the vocabulary (and the word
# caches kept that for the process)
_SETUP = threading.Lock()


def tokenizer() -> jieba.Tokenizer:
    global _TOKENIZER, _TAGS
    if _TOKENIZER is None:
        with _SETUP:
            if _TOKENIZER is None:
                ready = jieba.Tokenizer()
                tags = _initialize(ready)
                ready.load_userdict(str(VOCABULARY))
                _TAGS, _TOKENIZER = tags, ready
    return _TOKENIZER


KEPT = "lexicon"  # the kept tables' file name; earlier versions of this code kept `dictionary-*`, `prefix-*`
# and `tags-*` pickles


def _kept_path(name: str) -> Path:
    """Where a table read from jieba's main dictionary is kept; the name changes with that file."""
    dictionary = Path(jieba.__file__).with_name(jieba.DEFAULT_DICT_NAME)  # the one jieba reads
    stat = dictionary.stat()
    key = f"{jieba.__version__}-{stat.st_size}-{stat.st_mtime_ns}"
    return cache_dir() / "jieba" / f"{name}-{key}.pickle"


def _load_kept(name: str) -> Any:
    """A kept table, or None when there is none (or it is damaged: it is then made again)."""
    try:
        with open(_kept_path(name), "rb") as handle:
            return pickle.load(handle)  # written by `_keep`
    except (OSError, EOFError, ValueError, pickle.UnpicklingError):
        return None


def _keep(name: str, table: object) -> None:
    cached = _kept_path(name)
    with contextlib.suppress(OSError):  # a read-only cache folder: read jieba's files every time
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_name(f"{cached.name}.{os.getpid()}.partial")
        with open(partial, "wb") as handle:
            pickle.dump(table, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, cached)
        forget_stale(cached, time.time())


STALE_AFTER_S = 86_400.0  # another jieba (another environment sharing the cache folder) rewrote it today


def forget_stale(kept: Path, now: float) -> list[Path]:
    """Delete what earlier jiebas and earlier versions of this code kept beside `kept` (each reinstall of
    jieba leaves another large pickle): other `lexicon-*` pickles, the `dictionary-*`, `prefix-*` and `tags-*`
    pickles no longer read, and partial files of stopped processes, unless written within `STALE_AFTER_S` (an
    environment with another jieba that uses the same folder would otherwise delete and rewrite this one's
    every time). Returns what was deleted."""
    gone = []
    for path in kept.parent.iterdir():
        stale = path.name.startswith((f"{KEPT}-", "dictionary-", "prefix-", "tags-")) and path.name.endswith(
            (".pickle", ".partial")
        )
        with contextlib.suppress(OSError):  # deleted by another process meanwhile, or not ours to delete
            if stale and path != kept and now - path.stat().st_mtime > STALE_AFTER_S:
                path.unlink()
                gone.append(path)
    return gone


def _initialize(tokenizer: jieba.Tokenizer) -> TagTable:
    """`tokenizer.initialize()`, from a pickle kept in the cache folder where there is one, and the main
    dictionary's word-tag table (the POS tagger's). jieba's own cache (a marshal file) takes three times as
    long to load as the pickle, its tag table (read by `import jieba.posseg`) is a 349,000-line text file,
    and every process loads both (each build worker, each command). The tag table is kept as a `TagTable`,
    which loads at once where a dict of it took a third of the load."""
    kept = _load_kept(KEPT)
    if kept is not None:
        tokenizer.FREQ, tokenizer.total, tags = kept
        tokenizer.initialized = True
        return tags
    tokenizer.initialize()
    tags = TagTable.from_dict(_read_tags(tokenizer))
    _keep(KEPT, (tokenizer.FREQ, tokenizer.total, tags))
    return tags


def _read_tags(tokenizer: jieba.Tokenizer) -> dict[str, str]:
    """The word-tag table of the tokenizer's dictionary ("word frequency tag" lines), as
    `jieba.posseg.POSTokenizer.load_word_tag` reads it."""
    tags: dict[str, str] = {}
    with tokenizer.get_dict_file() as handle:
        for line in handle:
            entry = line.strip().decode("utf-8")
            if entry:
                word, _, tag = entry.split(" ")
                tags[word] = tag
    return tags


def _import_posseg(tags: TagTable) -> ModuleType:
    """`jieba.posseg`, whose import builds a global tagger that reads jieba's word-tag table from its text
    file (a third of `gbtbench inject`): that tagger gets a copy of `tags` (the main dictionary's, kept with
    the prefix dictionary) instead, the same table."""
    # imported by other code (waited for, if it still is), or other code set jieba's global dictionary (its
    # tagger reads that dictionary's own table): import as it is
    if "jieba.posseg" in sys.modules or jieba.dt.dictionary != jieba.DEFAULT_DICT:
        return importlib.import_module("jieba.posseg")
    jieba.dt.get_dict_file = lambda: io.BytesIO()  # what the tagger made at import reads: nothing
    try:
        posseg = importlib.import_module("jieba.posseg")
    finally:
        del jieba.dt.get_dict_file
    posseg.dt.word_tag_tab = tags.copy()
    return posseg


def _pos() -> jieba.posseg.POSTokenizer:
    """The POS tagger over our tokenizer, imported at first use, with the main dictionary's word-tag table
    read with the tokenizer's (`_initialize`): `POSTokenizer(tokenizer)` would read the text file again."""
    global _POS
    if _POS is None:
        mine = tokenizer()
        with _SETUP:  # one thread imports: the global tagger's dictionary file is swapped meanwhile
            if _POS is None:
                assert _TAGS is not None  # set with the tokenizer
                posseg = _import_posseg(_TAGS)
                pos = posseg.POSTokenizer.__new__(posseg.POSTokenizer)
                pos.tokenizer = mine
                pos.word_tag_tab = _TAGS  # the tagger adds our vocabulary's tags at its first use
                _POS = pos
    return _POS


@lru_cache(maxsize=LINE_CACHE)
def words(text: str, hmm: bool = False) -> tuple[str, ...]:
    """jieba words of a text; cached because checkers and injectors segment the same lines often."""
    return tuple(tokenizer().cut(text, HMM=hmm))


@lru_cache(maxsize=LINE_CACHE)
def tagged(text: str, hmm: bool = False) -> tuple[tuple[str, str], ...]:
    """(word, part-of-speech flag) pairs, for the few places where the kind of word matters."""
    return tuple((p.word, p.flag) for p in _pos().cut(text, HMM=hmm))


@lru_cache(maxsize=LINE_CACHE)
def first_tagged(text: str, hmm: bool = False) -> tuple[str, str]:
    """`tagged(text)[0]` without tagging the rest: jieba yields words in order, and tagging a whole clause
    (its HMM especially) to read its first word was most of a document's lint."""
    for pair in _pos().cut(text, HMM=hmm):
        return pair.word, pair.flag
    raise IndexError(f"no word in {text!r}")


def tokens(text: str) -> Iterator[tuple[str, int]]:
    """Words with their offsets."""
    for word, start, _ in tokenizer().tokenize(text, HMM=False):
        yield word, start


_EDGE = re.compile(b"\x01")  # a word edge in `_edge_marks`


@lru_cache(maxsize=LINE_CACHE)
def _edge_marks(text: str) -> bytes:
    """One byte per offset of `text` and its end, 1 where a word starts or ends: cached for every line a
    build checks, where a set of offsets took some sixty bytes an offset."""
    marks = bytearray(len(text) + 1)
    marks[0] = 1
    at = 0
    for w in words(text):
        at += len(w)
        marks[at] = 1
    return bytes(marks)


def boundaries(text: str) -> frozenset[int]:
    """Offsets where a word starts or ends: a span is word-aligned when both ends are in here."""
    return frozenset(m.start() for m in _EDGE.finditer(_edge_marks(text)))


@lru_cache(maxsize=LINE_CACHE)
def quote_edges(text: str) -> frozenset[int]:
    """Offsets where a quote may begin or end: word edges of both jieba's exact cut and its guess of words
    missing from the dictionary (HMM), so that such a word ("公钥", cut 公/钥 exactly) is never split."""
    guessed = {0}
    at = 0
    for w in words(text, hmm=True):
        at += len(w)
        guessed.add(at)
    return boundaries(text) & frozenset(guessed)


def word_aligned(text: str, start: int, end: int) -> bool:
    """True when text[start:end] does not cut a word in two (so replacing it never splits a word)."""
    marks = _edge_marks(text)
    inside = 0 <= start < len(marks) and 0 <= end < len(marks)
    return inside and bool(marks[start] and marks[end])
