"""Word edges, kept as one byte per offset, are exactly the offsets where jieba's words start and end."""

from __future__ import annotations

import itertools
import random

from injectors.language.words import boundaries, word_aligned, words
from parsers.model import Document


def test_word_edges_are_where_words_start_and_end(corpus_documents: list[Document]) -> None:
    rng = random.Random(3)
    lines = [line for d in corpus_documents for s in d.sections for line in s.text.splitlines() if line]
    assert len(lines) > 200
    for line in rng.sample(lines, 200):
        edges = {0, *itertools.accumulate(len(w) for w in words(line))}
        assert boundaries(line) == edges
        for _ in range(20):
            start, end = sorted(rng.randint(-2, len(line) + 2) for _ in range(2))
            assert word_aligned(line, start, end) == (start in edges and end in edges), (line, start, end)
    assert not word_aligned("防雷装置", -4, 4)  # an offset before the text is no edge (no wrap-around)
