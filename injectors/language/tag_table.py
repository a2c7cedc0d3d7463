"""jieba's word-tag table (word → part-of-speech flag), read a word at a time from one sorted text.

As a dict, the table is 349,000 entries that every process builds when it loads jieba's dictionary: a
third of that load, and a fifth of `gbtbench inject`, for a tagger that looks up the words of a few
hundred lines. Here it is four flat objects that load at once, and a word is found by binary search (a few
microseconds; each word looked up is remembered). Words added later (a user dictionary's) sit in a small
dict in front. The POS tagger reads it through `get` and `update`, as it reads its dict.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Mapping


class TagTable:
    def __init__(self, words: str, starts: array[int], codes: bytes, flags: tuple[str, ...]) -> None:
        self._words = words  # the sorted words, each followed by "\n"
        self._starts = starts  # where each word starts in `_words`, and one past the end
        self._codes = codes  # each word's flag, as an index into `_flags`
        self._flags = flags
        self._added: dict[str, str] = {}  # words added later, in front of the sorted ones
        self._seen: dict[str, str | None] = {}  # sorted words looked up (None: absent)

    @classmethod
    def from_dict(cls, tags: Mapping[str, str]) -> TagTable:
        ordered = sorted(tags)
        flags = tuple(sorted(set(tags.values())))
        index = {flag: i for i, flag in enumerate(flags)}
        starts, at = array("I", [0]), 0
        for word in ordered:
            at += len(word) + 1
            starts.append(at)
        words = "".join(f"{w}\n" for w in ordered)
        return cls(words, starts, bytes(index[tags[w]] for w in ordered), flags)

    def __reduce__(self) -> tuple[type[TagTable], tuple[str, array[int], bytes, tuple[str, ...]]]:
        if self._added:  # a table with words added is kept whole
            return TagTable.from_dict(dict(self.items())).__reduce__()
        return TagTable, (self._words, self._starts, self._codes, self._flags)

    def copy(self) -> TagTable:
        """Another table over the same words: what is added to one is not in the other."""
        twin = TagTable(self._words, self._starts, self._codes, self._flags)
        twin._added.update(self._added)
        return twin

    def _find(self, word: str) -> str | None:
        words, starts = self._words, self._starts
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if words[starts[mid] : starts[mid + 1] - 1] < word:
                lo = mid + 1
            else:
                hi = mid
        if lo < len(starts) - 1 and words[starts[lo] : starts[lo + 1] - 1] == word:
            return self._flags[self._codes[lo]]
        return None

    def get(self, word: str, default: str | None = None) -> str | None:
        flag = self._added.get(word)
        if flag is None:
            try:
                flag = self._seen[word]
            except KeyError:
                flag = self._seen[word] = self._find(word)
        return default if flag is None else flag

    def __getitem__(self, word: str) -> str:
        flag = self.get(word)
        if flag is None:
            raise KeyError(word)
        return flag

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def update(self, other: Mapping[str, str] | Iterable[tuple[str, str]]) -> None:
        self._added.update(other.items() if isinstance(other, Mapping) else other)

    def items(self) -> Iterator[tuple[str, str]]:
        """Every word and flag, the added ones last (a word added again shows its new flag)."""
        words, starts = self._words, self._starts
        for i in range(len(starts) - 1):
            word = words[starts[i] : starts[i + 1] - 1]
            if word not in self._added:
                yield word, self._flags[self._codes[i]]
        yield from self._added.items()

    def __len__(self) -> int:
        return len(self._starts) - 1 + sum(1 for w in self._added if self._find(w) is None)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TagTable | Mapping):
            return dict(self.items()) == dict(other.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a dict: a table that can change is not hashable
