"""The planner over whole documents: counts, verification, replay, balance, pre-existing, determinism."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from flows.stages import AssembleInput, ChooseInput, assemble, choose
from flows.work_cache import WorkCache
from injectors.balance import BALANCE, _balanced, _choose_all, choose_balanced, deviation
from injectors.base import clashes
from injectors.checking import lint
from injectors.context import InjectionContext
from injectors.edit import followed_renames, footprint, replay
from injectors.joint import kept_together
from injectors.planner import (
    MAX_PER_SECTION,
    MAX_PER_TYPE,
    Candidates,
    InjectionResult,
    PlanConfig,
    _conflicts,
    added_wording,
    candidate_instances,
    form_key,
    inject_document,
)
from injectors.planner import choose as choose_errors
from injectors.registry import injectors
from injectors.taxonomy import by_id, type_ids
from parsers import parse_file
from parsers.model import Document
from parsers.structure_quality import check_structure
from tests.support.session_store import shared

ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(3)


DEFAULT = PlanConfig()


def check_result(result: InjectionResult, config: PlanConfig = DEFAULT) -> None:
    """Everything a shipped document must satisfy, asserted for one injection result."""
    instances = result.instances
    assert config.min_errors <= len(instances) <= config.max_errors, result.original.source
    assert len({i.instance_id for i in instances}) == len(instances)
    found = {(v.location, v.error_type) for v in lint(result.corrupted)}
    numbers = {s.number for s in result.corrupted.sections}
    for instance in instances:
        spec = by_id()[instance.error_type]
        assert instance.dimension == spec.dimension
        others = [r for i in instances if i is not instance for r in i.edit.renames]
        followed = followed_renames(i.edit for i in instances if i is not instance)
        expected = replay(instance.edit, instance.original_section, others, followed)
        assert expected == instance.corrupted_section
        if instance.corrupted_section is not None:
            assert instance.location in numbers
        if spec.deterministic:  # zero verification failures shipped
            assert (instance.location, instance.error_type) in found, instance.description
        assert instance.description.startswith("错误：") and "；修改建议：" in instance.description
        # the declared edition's clause (STR-05 reads an undeclared one from its annex markers)
        injector = injectors()[instance.error_type]
        forms = ("", *(form for form, *_ in injector.spec.forms))
        assert instance.description.rsplit("；依据：", 1)[1] in {
            injector.rule(result.original, f) for f in forms
        }
        assert instance.provenance.generator in ("rule", "rule-template", "llm")
    # every violation of the original is listed as pre-existing (in the corrupted numbering) unless the
    # section it sits in was removed; none is counted as injected
    before = Counter((v.error_type, v.message) for v in lint(result.original))
    listed = Counter((v.error_type, v.message) for v in result.pre_existing)
    assert not listed - before
    if not any(i.edit.renames or i.edit.op == "remove" for i in instances):
        assert listed == before


@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)


@pytest.fixture(scope="module")
def corpus_candidates(
    corpus_documents: list[Document], context: InjectionContext
) -> dict[int, tuple[Candidates, ...]]:
    """Every corpus document's candidates per seed (the cached part of a build), once per session."""

    def compute() -> dict[int, tuple[Candidates, ...]]:
        return {
            s: tuple(candidate_instances(d, s, context, DEFAULT) for d in corpus_documents) for s in SEEDS
        }

    return shared(f"planner-candidates-{SEEDS.start}-{SEEDS.stop}", compute)


def shipped(candidates: tuple[Candidates, ...], seed: int) -> list[InjectionResult]:
    """What a build ships: the build's own choose and assemble stages, documents too thin left out."""
    with tempfile.TemporaryDirectory(prefix="gbtbench-work-") as folder:
        work = WorkCache(Path(folder))
        keys = tuple(work.put_candidates(c) for c in candidates)
        choice = choose(ChooseInput(folder, keys, seed, DEFAULT))
        return list(assemble(AssembleInput(folder, keys, choice)))


@pytest.fixture(scope="module")
def corpus_shipped(corpus_candidates: dict[int, tuple[Candidates, ...]]) -> dict[int, list[InjectionResult]]:
    """What a build of the whole corpus ships per seed (read by several tests: chosen once)."""
    return {seed: shipped(candidates, seed) for seed, candidates in corpus_candidates.items()}


def test_corpus_documents_every_seed(
    corpus_candidates: dict[int, tuple[Candidates, ...]], corpus_shipped: dict[int, list[InjectionResult]]
) -> None:
    for seed, candidates in corpus_candidates.items():
        results = corpus_shipped[seed]
        assert len(results) == len(candidates)  # no corpus document is too thin
        for result in results:
            check_result(result)


def test_no_section_is_crowded(corpus_shipped: dict[int, list[InjectionResult]]) -> None:
    """At most three errors per section, never two of one type there (a scope rewritten six ways, or the
    same body requirement moved into it twice, reads as a planted list)."""
    for seed, results in corpus_shipped.items():
        for result in results:
            here = Counter(
                i.original_section.number if i.original_section else i.location for i in result.instances
            )
            assert max(here.values()) <= MAX_PER_SECTION, (seed, result.original.doc_id, here.most_common(2))
            kinds = Counter((i.location, i.error_type) for i in result.instances)
            assert max(kinds.values()) == 1, (seed, result.original.doc_id, kinds.most_common(1))


def test_types_are_balanced_across_the_corpus(corpus_shipped: dict[int, list[InjectionResult]]) -> None:
    """Where every type applies, each type's count in the shipped release stays within ±20% of the mean,
    strictly: a type few documents offer is taken wherever it is offered."""
    for seed, results in corpus_shipped.items():
        counts = Counter(i.error_type for r in results for i in r.instances)
        per_doc = [len(r.instances) for r in results]
        mean = sum(counts[t] for t in type_ids()) / len(type_ids())
        assert all(abs(counts[t] - mean) <= 0.2 * mean for t in type_ids()), (seed, sorted(counts.items()))
        assert deviation(counts, type_ids()) <= BALANCE
        assert max(counts.values()) - min(counts[t] for t in type_ids()) <= 3, (seed, sorted(counts.items()))
        # median about 14: where a type is scarce every document takes a little fewer (never below 10)
        assert 13 <= sorted(per_doc)[len(per_doc) // 2] <= 16, (seed, sorted(per_doc))


def test_a_scarce_type_lowers_the_others_share_toward_it(
    corpus_candidates: dict[int, tuple[Candidates, ...]],
) -> None:
    """TER-01 left to fewer documents than would keep it within 20% of the mean at full counts, so every
    document takes fewer errors (never fewer than 10) until the types are within ±20% again."""
    ordered = sorted(corpus_candidates[0], key=lambda c: c.document.doc_id)
    full = sum(len(v) for v in choose_balanced(list(corpus_candidates[0]), 0, DEFAULT).chosen.values())
    scarce = math.ceil((1 - BALANCE) * full / len(type_ids())) - 1  # just below the band around the full mean
    keep = [c.document.doc_id for c in ordered if any(i.error_type == "TER-01" for i in c.instances)][:scarce]
    assert len(keep) == scarce > 0
    thin = [
        c
        if c.document.doc_id in keep
        else replace(c, instances=tuple(i for i in c.instances if i.error_type != "TER-01"))
        for c in ordered
    ]
    balanced = _balanced(thin, 0, DEFAULT)
    # the balance takes it in every document that offers it
    assert all(any(i.error_type == "TER-01" for i in balanced.chosen[d]) for d in keep)
    choice = choose_balanced(thin, 0, DEFAULT)
    assert not choice.dropped
    counts = Counter(i.error_type for picked in choice.chosen.values() for i in picked)
    # spreading its forms may move a pick to another document that offers it (`form_spread`), never lose one
    assert counts["TER-01"] >= len(keep)
    assert all(d in keep for d, picked in choice.chosen.items() for i in picked if i.error_type == "TER-01")
    assert deviation(counts, type_ids()) <= BALANCE, sorted(counts.items())
    assert all(DEFAULT.min_errors <= len(v) <= DEFAULT.max_errors for v in choice.chosen.values())
    assert sum(counts.values()) < full


def test_one_document_alone_is_the_same_choice_as_inject(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    """`gbtbench inject` (one document, fresh counts) and a one-document build choose the same errors."""
    document = corpus_documents[0]
    alone = shipped((candidate_instances(document, 4, context, DEFAULT),), 4)
    assert [i.instance_id for i in alone[0].instances] == [
        i.instance_id for i in inject_document(document, 4, context).instances
    ]


def test_real_documents(real_corpus: Path, context: InjectionContext) -> None:
    paths = [p for p in sorted(real_corpus.rglob("*")) if p.suffix in (".md", ".txt", ".pdf")]
    parsed = [parse_file(p) for p in paths if p.name != "README.md" and not {"bad", "ocr"} & set(p.parts)]
    documents = [d for d in parsed if check_structure(d).passed]  # what a build injects into
    for doc in documents:
        result = inject_document(doc, 7, context)
        check_result(result)
        pre = {(v.location, v.error_type) for v in result.pre_existing}
        assert not any((i.location, i.error_type) in pre for i in result.instances)


def test_same_seed_same_bytes_across_processes(tmp_path: Path) -> None:
    source = ROOT / "corpus" / "docx" / "green-tea-processing.docx"
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        result = subprocess.run(
            [sys.executable, "-m", "flows.cli", "inject", str(source), "--seed", "5", "--json"],
            capture_output=True,
            cwd=ROOT,
            env=env,
            check=True,
        )
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    row = json.loads(outputs[0])
    assert 10 <= len(row["instances"]) <= 18 and "pre_existing" in row
    other_seed = subprocess.run(
        [sys.executable, "-m", "flows.cli", "inject", str(source), "--seed", "6", "--json"],
        capture_output=True,
        cwd=ROOT,
        check=True,
    ).stdout
    assert other_seed != outputs[0]


def test_a_type_repeats_no_wording_another_document_added(
    corpus_candidates: dict[int, tuple[Candidates, ...]],
) -> None:
    """Of a type's two candidates, the one whose new words ("不应超过") an earlier document's instance of
    that type already added goes second: shared added n-grams are what the audit counts as stock wording."""
    checked = 0
    for c in corpus_candidates[0]:
        by_type: dict[str, list] = {}
        for i in c.instances:
            by_type.setdefault(i.error_type, []).append(i)
        for error_type, pair in by_type.items():
            if len(pair) != 2 or not added_wording(pair[0], c.document) - added_wording(pair[1], c.document):
                continue
            config = PlanConfig(types=(error_type,), min_errors=1, max_errors=1)
            alone = Candidates(c.document, c.baseline, tuple(pair), {}, {})
            assert choose_one(alone, config, Counter()) == [pair[0]]  # by rank when nothing was said
            said = Counter((error_type, g) for g in added_wording(pair[0], c.document))
            assert choose_one(alone, config, said) == [pair[1]], (c.document.doc_id, error_type)
            checked += 1
    assert checked >= 5


def choose_one(candidates: Candidates, config: PlanConfig, said: Counter) -> list:
    return choose_errors(candidates, 0, config, said=said)


def test_a_type_too_few_documents_offer_still_leaves_the_rest_balanced(
    corpus_candidates: dict[int, tuple[Candidates, ...]],
) -> None:
    """SCP-03 left to one document: no choice can bring it within ±20% of any mean, and the full counts
    leave several types outside; the closest choice caps every type above the mean and moves the types
    behind forward, so that fewer types end outside the band, every document still ships, and the scarce
    type is taken where it is offered."""
    ordered = sorted(corpus_candidates[0], key=lambda c: c.document.doc_id)
    keep = next(c.document.doc_id for c in ordered if any(i.error_type == "SCP-03" for i in c.instances))
    thin = [
        c
        if c.document.doc_id == keep
        else replace(c, instances=tuple(i for i in c.instances if i.error_type != "SCP-03"))
        for c in ordered
    ]

    def outside(counts: Counter[str]) -> list[str]:
        mean = sum(counts[t] for t in type_ids()) / len(type_ids())
        return [t for t in type_ids() if abs(counts[t] - mean) > BALANCE * mean]

    _, plain = _choose_all(thin, 0, DEFAULT, None, 1.0, Counter())  # the full counts, one pass
    choice = choose_balanced(thin, 0, DEFAULT)
    counts = Counter(i.error_type for picked in choice.chosen.values() for i in picked)
    assert not choice.dropped and len(choice.chosen) == len(thin)
    assert all(DEFAULT.min_errors <= len(v) <= DEFAULT.max_errors for v in choice.chosen.values())
    assert counts["SCP-03"] >= 1
    assert len(outside(counts)) < len(outside(plain)), (outside(counts), outside(plain))
    assert list(choice.chosen) == sorted(choice.chosen)  # in doc_id order, whatever order chose them


def test_a_type_few_documents_offer_is_balanced_by_fewer_errors_per_document(
    corpus_candidates: dict[int, tuple[Candidates, ...]],
) -> None:
    """NMS-02 left to three documents: no mean at `min_errors` per document is low enough for it, so the
    closest choice runs; at the full counts it stays below the band, and only documents taking fewer errors
    bring the mean down to it. The choice then ships every document, each within its range, with every type
    within ±20%. The three kept are those offering the most NMS-02 candidates (the band at `min_errors` per
    document lies just above three instances: three documents with one candidate each could never reach
    it), not whichever three come first in doc_id order, which is a hash of the content."""
    ordered = sorted(corpus_candidates[0], key=lambda c: c.document.doc_id)
    offers = {c.document.doc_id: sum(i.error_type == "NMS-02" for i in c.instances) for c in ordered}
    keep = sorted((d for d in offers if offers[d]), key=lambda d: (-offers[d], d))[:3]
    thin = [
        c
        if c.document.doc_id in keep
        else replace(c, instances=tuple(i for i in c.instances if i.error_type != "NMS-02"))
        for c in ordered
    ]
    offered = sorted({i.error_type for c in thin for i in c.instances})
    _, plain = _choose_all(thin, 0, DEFAULT, None, 1.0, Counter())
    assert deviation(plain, offered) > BALANCE
    choice = choose_balanced(thin, 0, DEFAULT)
    counts = Counter(i.error_type for picked in choice.chosen.values() for i in picked)
    assert not choice.dropped and len(choice.chosen) == len(thin)
    assert all(DEFAULT.min_errors <= len(v) <= DEFAULT.max_errors for v in choice.chosen.values())
    assert deviation(counts, offered) <= BALANCE, sorted(counts.items(), key=lambda kv: kv[1])
    assert counts.total() < plain.total()  # fewer errors per document than the full counts


def test_of_a_types_two_candidates_the_one_in_a_chapter_with_fewer_errors_is_taken(
    corpus_candidates: dict[int, tuple[Candidates, ...]],
) -> None:
    """A type's errors spread through the body: where one of its candidates shares a chapter with an error
    already chosen in the document and the other does not, the other is taken."""
    checked = 0
    for c in corpus_candidates[0]:
        by_type: dict[str, list] = {}
        for i in c.instances:
            by_type.setdefault(i.error_type, []).append(i)
        for error_type, pair in by_type.items():
            chapters = [i.location.split(".")[0] for i in pair]
            if len(pair) != 2 or chapters[0] == chapters[1] or not chapters[0][:1].isdigit():
                continue
            first = next(
                (
                    i
                    for i in c.instances
                    if i.error_type != error_type
                    and i.location.split(".")[0] == chapters[0]
                    and i.location not in {p.location for p in pair}
                ),
                None,
            )
            if first is None or clashes(footprint(first.edit), footprint(pair[1].edit), c.document):
                continue  # the other chapter's candidate cannot go with `first` at all: no preference shown
            config = PlanConfig(types=(first.error_type, error_type), min_errors=2, max_errors=2)
            alone = Candidates(c.document, c.baseline, (first, *pair), {}, {})
            picked = choose_errors(alone, 0, config, Counter({error_type: 100}))  # `first` goes first
            if len(picked) != 2 or first not in picked:
                continue  # a clash or a loss on assembly: nothing to compare
            assert pair[1] in picked and pair[0] not in picked, (c.document.doc_id, error_type)
            checked += 1
    assert checked >= 3


def test_a_form_its_type_left_behind_wins_over_the_candidates_it_clashes_with(
    corpus_candidates: dict[int, tuple[Candidates, ...]],
) -> None:
    """A type whose earlier picks all took one form takes, in a document that takes the type anyway, its
    candidate of another form even where that one clashes with another type's candidate that would have
    been picked first (a deleted chapter holds the other types' errors in it); unless the other type is
    one the corpus keeps leaving behind."""
    checked = 0
    for c in corpus_candidates[0]:
        conflicts = _conflicts(c)
        for n, behind in enumerate(c.instances):
            usual = next(
                (
                    i
                    for i in c.instances
                    if i.error_type == behind.error_type
                    and i.provenance.form
                    and i.provenance.form != behind.provenance.form
                ),
                None,
            )
            rival = next(
                (c.instances[m] for m in conflicts[n] if c.instances[m].error_type != behind.error_type), None
            )
            if usual is None or rival is None or not behind.provenance.form:
                continue
            if (
                rival.location == usual.location
                or c.instances.index(usual) in conflicts[c.instances.index(rival)]
            ):
                continue
            config = PlanConfig(types=(rival.error_type, behind.error_type), min_errors=2, max_errors=2)
            alone = Candidates(c.document, c.baseline, (rival, behind, usual), {}, {})
            counts = Counter({behind.error_type: 100})  # the rival's type goes first
            # its own form taken more often earlier: in turn, after the rival it clashes with
            before = Counter({form_key(behind): 3})
            picked = choose_errors(alone, 0, config, Counter(counts), said=before)
            if picked != sorted([rival, usual], key=alone.instances.index):
                continue  # a loss on assembly: nothing to compare
            pair = sorted([behind, usual], key=alone.instances.index)
            apart = c.instances.index(usual) not in conflicts[n]
            if apart and kept_together(c.baseline.document, pair) != pair:
                continue  # the type's two forms do not hold together (two chapter orders): one must go
            said = Counter({form_key(usual): 3})
            picked = choose_errors(alone, 0, config, Counter(counts), said=said)
            assert behind in picked and rival not in picked, c.document.doc_id
            scarce = Counter({rival.error_type: 1})  # a type the balance moved forward
            assert rival in choose_errors(alone, 0, config, Counter(counts), said=said, boost=scarce)
            checked += 1
    assert checked >= 3


def test_a_form_over_its_share_goes_after_the_types_other_forms(
    corpus_candidates: dict[int, tuple[Candidates, ...]],
) -> None:
    """Of a type's two candidates that both repeat wording, the one with fewer repeats goes first, unless
    its form already holds `FORM_SHARE` of the type's instances: then the other form is taken, so that no
    form becomes the type's mark (the audit's form goal)."""
    checked = 0
    for c in corpus_candidates[0]:
        by_type: dict[str, list] = {}
        for i in c.instances:
            by_type.setdefault(i.error_type, []).append(i)
        for error_type, found in by_type.items():
            pair = found[:2]
            if len(pair) != 2 or pair[0].provenance.form in ("", pair[1].provenance.form):
                continue
            words = [added_wording(i, c.document) for i in pair]
            if not words[0] or len(words[1]) <= len(words[0]):
                continue
            config = PlanConfig(types=(error_type,), min_errors=1, max_errors=1)
            alone = Candidates(c.document, c.baseline, tuple(pair), {}, {})
            said = Counter((error_type, g) for g in words[0] | words[1])  # pair[1] repeats more
            assert choose_errors(alone, 0, config, Counter({error_type: 4}), said=said) == [pair[0]]
            said[form_key(pair[0])] = 2  # 3 of 5 would be over the share
            assert choose_errors(alone, 0, config, Counter({error_type: 4}), said=said) == [pair[1]]
            checked += 1
    assert checked >= 3


def test_no_type_more_than_twice_in_a_document(corpus_shipped: dict[int, list[InjectionResult]]) -> None:
    """A type that offers three or four candidates still takes at most `MAX_PER_TYPE` of them in one
    document: three "应当根据…" in one protocol read as one planted pattern."""
    for results in corpus_shipped.values():
        for r in results:
            per_type = Counter(i.error_type for i in r.instances)
            assert max(per_type.values()) <= MAX_PER_TYPE, (r.original.doc_id, per_type)
