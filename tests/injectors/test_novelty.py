"""A document's wording asked one n-gram at a time gives exactly the n-grams the whole document has."""

from __future__ import annotations

import random

from injectors.language.novelty import DocumentWording, line_ngrams, stock_ngrams, text_ngrams
from injectors.language.words import words
from parsers.model import Document, Section
from tests.injectors.types.scp.scp_documents import CABINET_BODY, CABINET_SCOPE, standard


def every_ngram(document: Document) -> frozenset[tuple[str, ...]]:
    """The reference: every line of the document's titles and texts segmented, all their n-grams."""
    return frozenset(g for s in document.sections for t in (s.title or "", s.text) for g in text_ngrams(t))


def edited_texts(document: Document, others: list[Document], rng: random.Random) -> list[str]:
    """What an injector writes: a line of the document with a phrase of another put in, a line with spaces
    taken out or put in, whole sections of other documents, a line as it stands."""
    lines = [line for s in document.sections for line in s.text.splitlines() if line.strip()]
    foreign = [line for d in others for s in d.sections for line in s.text.splitlines() if line.strip()]
    texts = []
    for _ in range(40):
        line, phrase = rng.choice(lines), rng.choice(foreign)
        at = rng.randrange(len(line) + 1)
        texts.append(line[:at] + phrase[: rng.randrange(2, 12)] + line[at:])
        texts.append(line.replace(" ", "") + " " + rng.choice(lines))
        texts.append(rng.choice(lines).replace("，", " ， "))
    texts += [s.text for d in others for s in d.sections[:6]]
    texts.append("\n".join(lines[:3]))
    return texts


def test_new_ngrams_are_the_text_less_the_whole_documents(corpus_documents: list[Document]) -> None:
    rng = random.Random(7)
    checked = 0
    for k, document in enumerate(corpus_documents):
        others = corpus_documents[k + 1 : k + 3] or corpus_documents[:2]
        everything = every_ngram(document)
        wording = DocumentWording(document)
        for text in edited_texts(document, others, rng):
            expected = text_ngrams(text) - everything
            assert wording.new(text) == expected, text
            checked += bool(expected)
        for line in [x for x in document.sections[-1].text.splitlines() if x.strip()][:20]:
            assert wording.new(line + " ") == set()  # not the line as written: each n-gram is looked up
    assert checked > 100  # most edits bring something new


def test_a_gram_split_across_two_lines_is_not_the_documents() -> None:
    text = "本文件规定了防雷要求。\n检验规则见附录。"
    scope = Section(number="1", title="范围", text=text, level=1, kind="scope")
    document = Document("d", "d.md", "markdown", "T/X 1-2024", "测试文件", "", (scope,))
    wording = DocumentWording(document)
    first, second = text.split("\n")
    across = (words(first)[-1], words(second)[0])  # the last word of one line and the first of the next
    assert "".join(across) in "".join(text.split())  # joined, they are in the text without its line break
    assert across in line_ngrams(first + second) and across not in every_ngram(document)
    assert wording.new(first + second) == {g for g in line_ngrams(first + second) if across[0] in g[:-1]}
    assert wording.new(first + " ") == set() and wording.new(text) == set()
    assert ("，", "以及") in stock_ngrams("本文件规定了防雷要求，以及检验规则。", document, ["防雷"])


def test_stock_ngrams_flags_a_joining_phrase_the_document_never_used() -> None:
    document = standard(CABINET_SCOPE, CABINET_BODY)
    line = "本文件规定了社区共享工具柜的柜体结构、门锁和电气安全要求，以及防雷要求。"
    stock = stock_ngrams(line, document, words("防雷"))
    assert ("，", "以及") in stock
    assert all("防雷" not in g for g in stock)
