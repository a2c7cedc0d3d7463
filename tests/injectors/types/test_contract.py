"""The contract every registered error type keeps, checked on the project's corpus.

One parametrised test over the registry: a site is found, the edit replays, the type's checker fires on the
corrupted document and not on the original, no other type's checker newly fires, the description is
well-formed, and the same seed gives the same instance. A type's own behaviour is tested beside this file.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
import regex

from injectors.checking import Baseline, lint, lint_diff
from injectors.context import InjectionContext
from injectors.edit import apply_edits, replay
from injectors.registry import TypeDefinition, definitions
from parsers.model import Document

DESCRIPTION = regex.compile(r"错误：.+；修改建议：.+；依据：GB/T 1\.1—20(?:20|09) \S.*", regex.S)


@pytest.fixture(scope="module")
def corpus(corpus_documents: list[Document]) -> tuple[list[Baseline], InjectionContext]:
    return [Baseline(d) for d in corpus_documents], InjectionContext.from_documents(corpus_documents)


@pytest.mark.parametrize("definition", definitions(), ids=lambda d: d.error_type.id)
def test_type_contract(definition: TypeDefinition, corpus: tuple[list[Baseline], InjectionContext]) -> None:
    baselines, context = corpus
    kind = definition.error_type
    injector = definition.injector()
    made = 0
    for baseline in baselines:
        document = baseline.document
        rng = random.Random(f"contract:{document.doc_id}")
        attempt = injector.inject(baseline, rng, context, seed=0)
        instance = attempt.instance
        if instance is None:
            continue
        made += 1
        where = (document.source, instance.location)
        assert (instance.error_type, instance.dimension) == (kind.id, kind.dimension)
        # the edit replays: the stored corrupted section is what the edit makes of the original
        applied = apply_edits(document, [instance.edit])
        assert applied.locations[0] == instance.location, where
        if instance.original_section is not None:
            assert (
                replay(instance.edit, instance.original_section, applied.renames)
                == instance.corrupted_section
            )
        corrupted = applied.document
        # the type's checker fires at the location on the corrupted document, and did not on the original
        before = {(applied.numbers.get(v.location, v.location), v.error_type) for v in baseline.violations}
        if kind.deterministic:
            assert (instance.location, kind.id) in {
                (v.location, v.error_type) for v in lint(corrupted, [kind.id])
            }
            assert (instance.location, kind.id) not in before, where
        elif kind.diff_detectable:
            assert instance.location in {v.location for v in lint_diff(document, corrupted, [kind.id])}, where
            assert lint_diff(document, document, [kind.id]) == []
        # no other type's checker newly fires anywhere
        counts_before = Counter(v.error_type for v in baseline.violations)
        counts_after = Counter(v.error_type for v in lint(corrupted) if v.error_type != kind.id)
        assert all(n <= counts_before[t] for t, n in counts_after.items()), (where, counts_after)
        assert DESCRIPTION.fullmatch(instance.description), instance.description
        # the clause cited is the one of the drafting-rules edition the document declares
        cited = instance.description.rsplit("；依据：", 1)[1]
        assert cited in kind.rules_for(document.drafting_rules), instance.description
        # determinism: the same document, seed and generator give the same instance
        again = injector.inject(
            Baseline(document), random.Random(f"contract:{document.doc_id}"), context, seed=0
        )
        assert again.instance == instance
    assert made >= 1, f"{kind.id}: no corpus document offered a site"
