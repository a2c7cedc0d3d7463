"""Descriptions of every type: they cite the clause of the drafting-rules edition the
document declares, and every snippet they quote from the document starts and ends on a word boundary.

Run on the project's corpus, which declares both editions (GB/T 1.1—2009 and GB/T 1.1—2020): a reviewer
reads "应符合ITU-T G.711的规定" as a quote and "应符合ITU-" or "可以对安全要求进" as a slip.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import regex

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.edition import edition
from injectors.instance import ErrorInstance
from injectors.language.words import boundaries
from injectors.registry import TypeDefinition, definitions
from parsers.model import Document
from tests.support.balance import across_workers
from tests.support.session_store import shared

EDITIONS = ("GB/T 1.1—2009", "GB/T 1.1—2020")
QUOTED = regex.compile(r"“([^“”]{2,})”")
_EDGE = regex.compile(r"[\p{P}\p{Z}\s]")
_RUN = regex.compile(r"[A-Za-z0-9./\-—:]")  # "GB/T 31168—2014" is one run


@pytest.fixture(scope="module")
@across_workers
def made(corpus_documents: list[Document]) -> list[tuple[Document, ErrorInstance]]:
    """One instance of every type on every corpus document that offers it (two seeds), once per session."""
    return shared("descriptions-made", lambda: _make(corpus_documents))


def _make(corpus_documents: list[Document]) -> list[tuple[Document, ErrorInstance]]:
    context = InjectionContext.from_documents(corpus_documents)
    out = []
    for document in corpus_documents:
        baseline = Baseline(document)
        for definition in definitions():
            for seed in range(2):
                rng = random.Random(f"descriptions:{seed}:{document.doc_id}")
                attempt = definition.injector().inject(baseline, rng, context, seed=seed)
                if attempt.instance is not None:
                    out.append((document, attempt.instance))
    return out


def test_the_corpus_declares_both_editions(corpus_documents: list[Document]) -> None:
    assert {d.drafting_rules for d in corpus_documents} >= set(EDITIONS)


@pytest.mark.parametrize("definition", definitions(), ids=lambda d: d.error_type.id)
def test_the_cited_clause_is_of_the_declared_edition(
    definition: TypeDefinition, made: list[tuple[Document, ErrorInstance]]
) -> None:
    kind = definition.error_type
    mine = [(d, i) for d, i in made if i.error_type == kind.id]
    assert mine, kind.id
    for document, instance in mine:
        rule = instance.description.rsplit("依据：", 1)[1]
        held = edition(document)  # the declared edition, or the one an undeclared document is written in
        assert rule in kind.rules_for(held), (document.source, instance.description)
        assert rule.startswith(held + " "), (document.source, rule)


def _texts(document: Document, instance: ErrorInstance) -> Iterator[str]:
    """Lines a quote may come from: the corrupted document's and the original's."""
    corrupted = apply_edits(document, [instance.edit]).document
    for doc in (corrupted, document):
        for section in doc.sections:
            yield section.heading
            yield from section.text.split("\n")


def _aligned(line: str, start: int, end: int) -> bool:
    """Both ends of line[start:end] on a word boundary: never inside a Latin or number run ("ITU-T",
    "10 000"), otherwise at a jieba word edge or next to punctuation or a space."""
    edges = boundaries(line)

    def ok(at: int) -> bool:
        inner, outer = (
            (line[at - 1 : at], line[at : at + 1]) if at == end else (line[at : at + 1], line[at - 1 : at])
        )
        if not outer:
            return True
        if _RUN.match(inner) and _RUN.match(outer):
            return False
        return at in edges or bool(_EDGE.match(outer) or _EDGE.match(inner))

    return ok(start) and ok(end)


def clipped_quotes(document: Document, instance: ErrorInstance) -> list[str]:
    """Quotes of the error part that occur in the document but only as a cut through a word."""
    error = instance.description.split("；修改建议：", 1)[0]
    lines = list(_texts(document, instance))
    out = []
    changed = {text.strip() for r in instance.edit.replacements for text in (r.old, r.new)}
    for quote in QUOTED.findall(error):
        quote = quote.removesuffix("……")
        if quote in changed:
            continue  # the words the edit put in or took out are whole by construction (a new term …)
        places = [(line, m.start()) for line in lines for m in regex.finditer(regex.escape(quote), line)]
        if places and not any(_aligned(line, at, at + len(quote)) for line, at in places):
            out.append(quote)
    return out


# Types known to clip a quote (none now); an entry here is an xfail, strict, so that the fix un-marks it.
KNOWN_CLIPPED: dict[str, str] = {}


def _quoting(definition: TypeDefinition) -> object:
    reason = KNOWN_CLIPPED.get(definition.error_type.id)
    return (
        definition
        if reason is None
        else pytest.param(definition, marks=pytest.mark.xfail(strict=True, reason=reason))
    )


@pytest.mark.parametrize("definition", [_quoting(d) for d in definitions()], ids=lambda d: d.error_type.id)
def test_quotes_are_whole_words(
    definition: TypeDefinition, made: list[tuple[Document, ErrorInstance]]
) -> None:
    kind = definition.error_type
    bad = {
        instance.description: clipped
        for document, instance in made
        if instance.error_type == kind.id and (clipped := clipped_quotes(document, instance))
    }
    assert bad == {}, kind.id


def test_a_clipped_quote_is_caught() -> None:
    """The check itself: "应符合ITU-" and "可以对安全要求进" cut through words, the whole phrases do not."""
    line = "系统可以对安全要求进行评估，语音编码应符合ITU-T G.711的规定。"
    assert _aligned(line, line.index("可以"), line.index("进行") + 2)
    assert not _aligned(line, line.index("可以"), line.index("进行") + 1)
    assert not _aligned(line, line.index("应符合"), line.index("ITU") + 4)
    assert _aligned(line, line.index("应符合"), line.index("G.711") + 5)
    cited = "应符合GB/T 30001—2014的规定。"
    assert not _aligned(cited, 0, cited.index("—") + 1)  # "GB/T 30001—" cut before its year
    assert _aligned(cited, 0, cited.index("的"))
