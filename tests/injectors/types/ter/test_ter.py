"""Terminology (TER-01…TER-05): injected instances on the corpus and on small documents.

The checkers on small documents are tested in test_ter_checkers.py.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
import regex

from injectors.base import Injector, Site, _sites
from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits, replay
from injectors.instance import ErrorInstance
from injectors.language.terms import defined_terms, word_aligned, words
from injectors.registry import injectors
from injectors.taxonomy import by_id
from injectors.types.ter.editing import at_home, provision_point, vocabulary
from injectors.types.ter.lexicon import term_like
from injectors.types.ter.ter02_defined_term_unused import placements
from injectors.types.ter.ter04_definition_defect import TERM_FIRST, TERM_LAST
from parsers.model import Document
from tests.injectors.types.ter.ter_documents import BODY, TER_TYPES, TERMS, document

SEEDS = (0, 1)


# --- the corpus -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)


@pytest.fixture(scope="module")
def ter_injectors() -> dict[str, Injector]:
    available = injectors()
    return {t: available[t] for t in TER_TYPES}


_BASELINES: dict[str, Baseline] = {}


def injected(
    injector: Injector, doc: Document, context: InjectionContext, seed: int
) -> tuple[Baseline, ErrorInstance | None]:
    """One injection as the bench does it; the original's lint is computed once per document."""
    baseline = _BASELINES.get(doc.source)
    if baseline is None or baseline.document is not doc:
        baseline = _BASELINES[doc.source] = Baseline(doc)
    attempt = injector.inject(baseline, random.Random(f"{seed}:{doc.doc_id}:x"), context, seed=seed)
    return baseline, attempt.instance


def changed_words(instance: ErrorInstance) -> list[str]:
    """What the edit wrote (for a removal what it took away, for a renumbering the new number): the
    description must quote it."""
    edit = instance.edit
    if edit.op == "remove":  # TER-01: the term whose entry was taken out
        assert instance.original_section is not None
        return [instance.original_section.title.split(" ")[0]]
    if edit.op == "insert":
        assert edit.inserted is not None
        return [edit.inserted.title.split(" ")[0]]
    if edit.renames:
        return [instance.location]
    return [r.new.strip("，、") or r.old.strip() for r in edit.replacements]


def test_clean_corpus_has_no_terminology_violations(corpus_documents: list[Document]) -> None:
    for doc in corpus_documents:
        assert lint(doc, TER_TYPES) == [], doc.source


@pytest.mark.parametrize("error_type", TER_TYPES)
def test_injected_instances_on_the_corpus(
    error_type: str, corpus_documents: list[Document], context: InjectionContext, ter_injectors: dict
) -> None:
    injector = ter_injectors[error_type]
    spec = by_id()[error_type]
    made = 0
    for doc in corpus_documents:
        if not list(injector.sites(doc, context)):
            continue
        for seed in SEEDS:
            baseline, instance = injected(injector, doc, context, seed)
            assert instance is not None, f"{error_type} failed on {doc.source} (seed {seed})"
            made += 1
            assert instance.error_type == error_type and instance.dimension == "TER"
            assert instance.description.startswith("错误：") and "修改建议：" in instance.description
            for changed in changed_words(instance):
                assert changed in instance.description, (changed, instance.description)
            # replaying the edit on the original section gives the corrupted section
            assert replay(instance.edit, instance.original_section) == instance.corrupted_section
            applied = apply_edits(doc, [instance.edit])
            assert applied.locations[0] == instance.location
            if instance.edit.op == "remove":
                # TER-01: an entry the body uses is taken out; the entries after it move up, consecutively
                assert instance.corrupted_section is None and instance.original_section is not None
                assert instance.original_section.title.split(" ")[0] in instance.description
                assert instance.original_section not in applied.document.sections
                entries = [s.number for s in applied.document.sections if s.kind == "terms" and s.level == 2]
                assert entries == [f"3.{k}" for k in range(1, len(entries) + 1)], entries
                news = {(v.location, v.error_type) for v in lint(applied.document)}
                assert news <= {(v.location, v.error_type) for v in baseline.violations}, news
            else:
                assert instance.corrupted_section in applied.document.sections
            if instance.edit.op == "insert":
                # a new number, or an entry's number that the entries after it left by moving down one
                assert instance.original_section is None
                assert instance.location not in {s.number for s in doc.sections} or instance.edit.renames
                numbers = [s.number for s in applied.document.sections]
                assert len(numbers) == len(set(numbers)), numbers
            else:
                assert instance.original_section == doc.sections[instance.edit.target]
            after = {(v.location, v.error_type) for v in lint(applied.document)}
            before = {(v.location, v.error_type) for v in baseline.violations}
            if spec.deterministic:
                assert (instance.location, error_type) in after
                assert (instance.location, error_type) not in before
            # no other checker newly fires at the location
            assert {t for loc, t in after - before if loc == instance.location} <= {error_type}
            if seed == SEEDS[0]:  # same seed, same instance
                assert injected(injector, doc, context, seed)[1] == instance
    assert made >= 10


def test_generators_are_offline(
    corpus_documents: list[Document], context: InjectionContext, ter_injectors: dict
) -> None:
    for error_type, injector in ter_injectors.items():
        doc = next(d for d in corpus_documents if list(injector.sites(d, context)))
        _, instance = injected(injector, doc, context, 0)
        assert instance is not None
        expected = "rule-template" if error_type == "TER-01" else "rule"
        assert instance.provenance.generator == expected


def test_ter02_entry_is_of_the_documents_world_and_goes_anywhere(ter_injectors: dict) -> None:
    """The added entry comes from a document of the same narrow field and is
    made of the document's own words, and it is not always the last entry; the entries after it are
    renumbered one down, consecutively. (The project corpus has no two documents of one narrow field:
    there TER-02 renames an entry instead.)"""
    body = BODY.replace(
        "标定周期不应超过30 d。", "标定周期不应超过30 d。采样单元的流量应稳定，试样不应被污染。"
    )
    doc = document(body=body)
    doc = replace(doc, cover=replace(doc.cover, ics="13.040.40", ccs="Z 15"))
    sister = document(terms="3.1 采样流量 sampling flow rate\n单位时间内流经采样单元的试样体积。")
    sister = replace(sister, doc_id="sister", cover=replace(sister.cover, ics="13.040.40", ccs="Z 15"))
    context = InjectionContext.from_documents([doc, sister])
    vocab = vocabulary(doc)
    positions = set()
    injector = ter_injectors["TER-02"]
    borrowed = [s for s in injector.sites(doc, context) if not hasattr(s.detail, "new")]
    assert borrowed
    for seed in range(8):
        proposal = injector.propose(doc, borrowed[0], random.Random(seed), context)
        assert proposal is not None and proposal.edit.op == "insert"
        instance = proposal
        new = replay(proposal.edit, None)
        term = new.title.split(" ", 1)[0]
        assert term == "采样流量" and term not in "".join(s.text + s.title for s in doc.sections)
        source = next(t for t in context.terms_for(doc) if t.entry.term == term)
        assert at_home(doc, source, vocab) is not None
        applied = apply_edits(doc, [instance.edit])
        entries = [s.number for s in applied.document.sections if s.kind == "terms" and s.level == 2]
        assert entries == [f"3.{k}" for k in range(1, len(entries) + 1)]
        positions.add(entries.index(new.number))
    assert len(positions) >= 3  # several places, not always the end


def test_ter02_skips_a_document_with_no_term_of_its_world(ter_injectors: dict) -> None:
    """A corpus of one sampling-device standard and one tea standard: the tea standard's entries are
    another field's and share no words with the device standard, so TER-02 has no site there."""
    device = document()
    tea = document(
        terms="3.1 摊青叶 spread leaves\n经摊放散失部分水分、叶质变软的茶树鲜叶。",
        body="4 要求\n4.1 摊放\n摊青叶应薄摊于竹匾中。",
    )
    tea = replace(tea, doc_id="tea", cover=replace(tea.cover, ics="67.140.10", ccs="X 55"))
    device = replace(device, cover=replace(device.cover, ics="17.020", ccs="N 10"))
    context = InjectionContext.from_documents([device, tea])
    borrowed = [
        s.detail.term for s in ter_injectors["TER-02"].sites(device, context) if hasattr(s.detail, "term")
    ]
    assert borrowed == []  # only its own entries, renamed (see below)
    assert list(ter_injectors["TER-01"].sites(device, context)) == [] or all(
        "摊青叶" not in getattr(o, "term", "")
        for site in ter_injectors["TER-01"].sites(device, context)
        for o in site.detail
    )


def test_ter02_renames_an_entry_to_a_form_the_text_never_uses(ter_injectors: dict) -> None:
    """TER-02 from the document's own material: the entry "标定周期" written "标定间隔" while the body
    keeps "标定周期"; the checker sees the defined term unused, at the entry."""
    doc = document()
    sites = [s for s in ter_injectors["TER-02"].sites(doc, InjectionContext()) if hasattr(s.detail, "new")]
    assert [(s.detail.entry.term, s.detail.new) for s in sites] == [("标定周期", "标定间隔")]
    instance = ter_injectors["TER-02"].inject(Baseline(doc), random.Random(0), InjectionContext()).instance
    assert instance is not None and instance.location == "3.2"
    assert instance.corrupted_section.title.startswith("标定间隔") and "“标定周期”" in instance.description


def test_ter01_terms_come_from_the_documents_own_world(
    corpus_documents: list[Document],
    context: InjectionContext,
    ter_injectors: dict,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where no entry or abbreviation can be taken out nor spelled-out name (hidden here, so that the
    corpus shows the written form), TER-01 writes a term-like noun phrase of the document's own
    definitions, or a term of a document of its narrow field; never made-up initials ("CCC"); its
    qualifier is already said in the same line (the term names what the text says); and no written
    term is written into two documents."""
    import injectors.types.ter.ter01_undefined_term_used as ter01

    monkeypatch.setattr(ter01, "removable_entries", lambda document: iter(()))
    monkeypatch.setattr(ter01, "abbreviation_entries", lambda document: iter(()))
    monkeypatch.setattr(ter01, "spelled_out", lambda document: iter(()))
    _sites.cache_clear()  # sites found before (with the entries) must not answer, nor these after
    try:
        _written_terms(corpus_documents, context, ter_injectors["TER-01"])
    finally:
        _sites.cache_clear()


def _written_terms(corpus_documents: list[Document], context: InjectionContext, injector: Injector) -> None:
    writers: dict[str, set[str]] = {}
    for doc in corpus_documents:
        own = "".join(e.definition for e in defined_terms(doc))
        vocab = vocabulary(doc)
        fitting = {t.entry.term for t in context.terms_for(doc) if at_home(doc, t, vocab) is not None}
        sites = list(injector.sites(doc, context))
        kinds = {type(o).__name__ for site in sites for o in site.detail}
        assert kinds <= {"ForeignTerm", "AbbreviationEntry", "RemovedEntry"}
        for seed in SEEDS:
            _, instance = injected(injector, doc, context, seed)
            if instance is None or instance.edit.op == "remove":  # an entry taken out: nothing written
                continue
            (r,) = instance.edit.replacements
            if not r.new:  # an abbreviation's line taken out of 缩略语: nothing is written
                assert instance.original_section.kind == "symbols"
                continue
            assert not regex.search(r"[A-Z]{2}", r.new), r.new
            assert r.new in own or r.new in fitting, (doc.source, r.new)
            assert term_like(r.new), r.new
            body = "".join(s.text for s in doc.sections if s.kind in ("clause", "annex"))
            assert all(w in body for w in words(r.new[: -len(r.old)])), r.new
            writers.setdefault(r.new, set()).add(doc.doc_id)
    assert writers  # "电池单体" in the battery-storage standard
    assert all(len(docs) == 1 for docs in writers.values()), writers


def test_ter01_takes_a_used_abbreviation_out_of_the_list(ter_injectors: dict) -> None:
    """The abbreviation form of TER-01 leaves the body as written; only a listed abbreviation
    the body uses, and not spelled out in the body, is taken out of 缩略语."""
    symbols = (
        "4 缩略语\n下列缩略语适用于本文件。\nRTU：远程终端单元（Remote Terminal Unit）\nPLC：可编程逻辑控制器"
    )
    body = (
        BODY.replace("4 要求", symbols + "\n5 要求")
        .replace("4.1 采样", "5.1 采样")
        .replace("4.2 标志", "5.2 标志")
    )
    body = body.replace("采样单元应每天自检一次", "采样单元应每天通过RTU自检一次")
    doc = document(body=body)
    injector = ter_injectors["TER-01"]
    entries = [o for s in injector.sites(doc, InjectionContext()) for o in s.detail]
    assert [(e.abbreviation, e.used_in) for e in entries] == [("RTU", "5.1")]  # PLC is used nowhere
    instance = injector.inject(Baseline(doc), random.Random(0), InjectionContext()).instance
    assert instance is not None and instance.location == "4"
    assert "RTU" not in instance.corrupted_section.text and "PLC" in instance.corrupted_section.text
    assert "“RTU”" in instance.description and "5.1" in instance.description
    spelled = document(body=body.replace("通过RTU自检", "通过远程终端单元（RTU）自检"))
    assert not [o for s in injector.sites(spelled, InjectionContext()) for o in s.detail]


def test_ter02_never_renumbers_an_entry_the_text_refers_to(ter_injectors: dict) -> None:
    terms = TERMS + "\n3.3 采样流量 sampling flow rate\n单位时间内流经采样单元的试样体积（见3.1）。"
    doc = document(terms=terms, body=BODY + "\n采样流量按3.3的规定计算。")
    options = placements(doc)
    assert [p.number for p in options] == ["3.4"]  # 3.3 is referred to, and moving 3.1 or 3.2 moves it
    free = placements(document())
    assert sorted(p.number for p in free) == ["3.1", "3.2", "3.3"]
    first = next(p for p in free if p.number == "3.1")
    assert first.renames == (("3.1", "3.2"), ("3.2", "3.3"))


def test_ter03_never_splits_a_word(
    corpus_documents: list[Document], context: InjectionContext, ter_injectors: dict
) -> None:
    for doc in corpus_documents:
        for seed in range(4):
            _, instance = injected(ter_injectors["TER-03"], doc, context, seed)
            if instance is None:
                continue
            (r,) = instance.edit.replacements
            line_start = instance.original_section.text.rfind("\n", 0, r.start) + 1
            line_end = instance.original_section.text.find("\n", r.start)
            line = instance.original_section.text[line_start : None if line_end < 0 else line_end]
            assert word_aligned(line, r.start - line_start, r.start - line_start + len(r.old))
            # the defined term is still used elsewhere: "some, not all" occurrences change
            assert r.old in instance.corrupted_section.text or any(
                r.old in s.text
                for s in doc.sections
                if s.kind in ("clause", "annex") and s != instance.original_section
            )


def test_every_ter05_variant_is_detected_where_it_applies(
    corpus_documents: list[Document], context: InjectionContext, ter_injectors: dict
) -> None:
    """Each kind of TER-05 site (numbering, English, each lead-in form) yields an edit the checker sees."""
    injector = ter_injectors["TER-05"]
    doc = next(
        d for d in corpus_documents if "library-digital" in d.source
    )  # a "GB/T x界定的以及下列" lead-in
    before = {(v.location, v.error_type) for v in lint(doc)}
    kinds: set[str] = set()
    for site in injector.sites(doc, context):
        proposal = injector.propose(doc, site, random.Random(0), context)
        assert proposal is not None
        applied = apply_edits(doc, [proposal.edit])
        assert (applied.locations[0], "TER-05") in {
            (v.location, v.error_type) for v in lint(applied.document)
        }
        assert (applied.locations[0], "TER-05") not in before
        kinds.add(site.detail.kind)
    assert kinds == {"english", "gap", "duplicate", "none", "only-ref", "generation"}


def test_every_ter04_variant_is_detected(corpus_documents: list[Document], context: InjectionContext) -> None:
    injector = injectors()["TER-04"]
    doc = corpus_documents[0]
    site = next(s for s in injector.sites(doc, context) if provision_point(s.detail[0].definition))
    seen: set[str] = set()
    for seed in range(40):
        proposal = injector.propose(doc, site, random.Random(seed), context)
        assert proposal is not None
        (r,) = proposal.edit.replacements
        seen.add(r.new)
        applied = apply_edits(doc, [proposal.edit])
        assert (applied.locations[0], "TER-04") in {
            (v.location, v.error_type) for v in lint(applied.document)
        }
    term = doc.sections[site.target].title.split(" ")[0]
    first = {f.format(term) for f in TERM_FIRST}
    last = {f.format(term) for f in TERM_LAST}
    assert seen <= {"是指", "指", "是", "应", "宜"} | first | last
    assert {"是指", "指", "是", "应", "宜"} <= seen
    # the term is written in several ways, not one stock phrase
    assert len(seen & first) >= 2 and len(seen & last) >= 2


def test_a_term_of_the_same_broad_field_is_not_borrowed(corpus_documents: list[Document]) -> None:
    """ICS 35 holds ledgers and environmental data alike: a document of the same broad field lends no
    term, even one made of this document's own words; only one of the same narrow field does, and then
    only a term-like one of its words ("共识节点" never for a document that never says 共识)."""
    from injectors.context import CorpusTerm, field_of
    from parsers.entries import TermEntry

    doc = corpus_documents[0]
    vocab = vocabulary(doc)
    field = field_of(doc.cover.ics, doc.cover.ccs)
    subgroup = doc.cover.ics.rsplit(".", 1)[0] + ".99"
    assert "共识" not in vocab
    ledger = TermEntry("3.9", "共识节点", "consensus node", "负责账本数据一致性的节点。")
    assert at_home(doc, CorpusTerm("other", ledger, field, doc.cover.ics, doc.cover.ccs), vocab) is None
    own = [w for w in sorted(vocab) if len(w) >= 2 and regex.fullmatch(r"\p{Han}+", w)]
    term = next(
        a + b for a in own for b in own if a != b and term_like(a + b) and tuple(words(a + b)) == (a, b)
    )
    entry = TermEntry("3.9", term, "", f"{term}是{''.join(own[:6])}。")
    broad = CorpusTerm("other", entry, field, subgroup, "")
    assert at_home(doc, broad, vocab) is None
    narrow = CorpusTerm("other", entry, field, doc.cover.ics, doc.cover.ccs)
    assert at_home(doc, narrow, vocab) is not None


def test_ter03_never_writes_a_short_form_the_document_already_uses_on_its_own(ter_injectors: dict) -> None:
    """The document's own usage is no inconsistency: once the body writes "区域边界" on its own beside the
    defined "网络区域边界", that short form is never the edit; while it does not, it may be."""
    terms = "3.1 网络区域边界 network zone boundary\n划分网络安全区域的逻辑界线。"
    body = (
        "4 要求\n4.1 划分\n网络区域边界应在设计阶段确定。\n4.2 防护\n网络区域边界应部署访问控制设备。\n"
        "4.3 审计\n网络区域边界的访问日志应保存180 d。"
    )
    injector = ter_injectors["TER-03"]

    def short_forms(doc: Document) -> set[str]:
        sites = injector.sites(doc, InjectionContext())
        return {s for site in sites for o in site.detail for s in o.synonyms}

    assert "区域边界" in short_forms(document(terms=terms, body=body))
    own = body + "\n4.4 标识\n各区域边界应设置标识。"
    assert "区域边界" not in short_forms(document(terms=terms, body=own))


SYMBOLS = (
    "4 符号和缩略语\n下列符号和缩略语适用于本文件。\n"
    "RTU：远程终端单元（Remote Terminal Unit）\nrmin：最小转弯半径\nUa：供电电压"
)


def _with_symbols(uses: str) -> Document:
    body = (
        BODY.replace("4 要求", SYMBOLS + "\n5 要求")
        .replace("4.1 采样", "5.1 采样")
        .replace("4.2 标志", "5.2 标志")
        .replace("采样单元应每天自检一次", f"采样单元应每天通过RTU自检一次，{uses}")
    )
    return document(body=body)


def test_ter01_never_takes_a_symbol_out_of_the_list(ter_injectors: dict) -> None:
    """A quantity symbol is no abbreviation, and the body introduces it where it is used: "rmin" taken out
    of a symbols list and described as a 缩略语 shows no error. Only "RTU" is a site."""
    doc = _with_symbols("转弯半径不应小于rmin，供电电压为Ua")
    injector = ter_injectors["TER-01"]
    entries = [o for s in injector.sites(doc, InjectionContext()) for o in s.detail]
    assert [e.abbreviation for e in entries] == ["RTU"]
    explained = _with_symbols("式中：RTU——远程终端单元")
    assert not [o for s in injector.sites(explained, InjectionContext()) for o in s.detail]
    symbols_only = document(
        body=BODY.replace("4 要求", "4 符号\nRTU：远程终端单元\nPLC：可编程逻辑控制器\n5 要求")
        .replace("4.1 采样", "5.1 采样")
        .replace("4.2 标志", "5.2 标志")
        .replace("采样单元应每天自检一次", "采样单元应每天通过RTU自检一次")
    )
    assert not [o for s in injector.sites(symbols_only, InjectionContext()) for o in s.detail]


ENTRIES = """3.1 采样单元 sampling unit
从被测介质中抽取并输送试样的部件组合。
3.2 隐私保护 privacy protection
为保护隐私而实施的各项措施。
3.3 标定周期 calibration interval
相邻两次标定之间的时间间隔。
3.4 零点漂移 zero drift
无输入时输出值随时间的缓慢变化。"""
USES = """4 要求
4.1 采样
采样单元应每天自检一次，标定周期不应超过30 d，零点漂移不应超过1%，隐私保护措施应有记录。
4.2 标志
采样单元的标志应符合GB/T 191—2008的规定，隐私保护措施应在标志中说明。
4.3 校准
每个标定周期结束时应记录零点漂移。"""


def test_ter01_removes_only_technical_entries_and_is_located_at_the_terms_chapter(
    ter_injectors: dict,
) -> None:
    """ "隐私保护" (defined as 为保护隐私而实施的各项措施) is understood from its words: its missing entry is
    no error. The instance is located at chapter 3, which lacks the entry, not at a number that now holds
    the next entry or no longer exists."""
    doc = document(terms=ENTRIES, body=USES)
    injector = ter_injectors["TER-01"]
    terms = {o.term for s in injector.sites(doc, InjectionContext()) for o in s.detail}
    assert "隐私保护" not in terms and {"采样单元", "标定周期", "零点漂移"} <= terms
    for seed in range(6):
        instance = injector.inject(Baseline(doc), random.Random(seed), InjectionContext(), seed=seed).instance
        assert instance is not None and instance.edit.op == "remove"
        assert instance.location == "3"


def test_ter05_a_terms_chapter_without_its_lead_in(ter_injectors: dict) -> None:
    """Drafters often go straight to the entries: the lead-in "下列术语和定义适用于本文件。" is missing.
    The checker reports it at chapter 3 only when entries follow; the injector removes a plain lead-in."""
    assert [v.location for v in lint(document(lead_in=""), ["TER-05"])] == ["3"]
    empty = document(lead_in="", terms="")
    assert [v for v in lint(empty, ["TER-05"]) if v.location == "3"] == []
    doc = document()
    injector = ter_injectors["TER-05"]
    missing = [
        s for s in injector.sites(doc, InjectionContext()) if getattr(s.detail, "kind", "") == "missing"
    ]
    assert len(missing) == 1
    proposal = injector.propose(doc, missing[0], random.Random(0), InjectionContext())
    assert proposal is not None and proposal.form == "missing"
    instance, failure = injector._verified(Baseline(doc), proposal, 0)
    assert instance is not None, failure
    assert instance.location == "3" and "下列术语和定义适用于本文件" not in instance.corrupted_section.text
    assert "补充引导语“下列术语和定义适用于本文件。”" in instance.description


def test_ter02_renames_an_entry_built_on_another_defined_term(ter_injectors: dict) -> None:
    """An entry whose term rests on another defined one ("标定数据元素" on "标定数据") may be renamed: the
    new form "标定数据要素" names no other concept, and the body never writes it."""
    terms = (
        "3.1 标定数据 calibration data\n标定时记录的全部读数。\n"
        "3.2 标定数据元素 calibration data element\n标定数据中不可再分的一项读数。"
    )
    body = BODY.replace("标定周期不应超过30 d", "每个标定数据元素应标明标定数据的采集时刻")
    doc = document(terms=terms, body=body)
    sites = [s for s in ter_injectors["TER-02"].sites(doc, InjectionContext()) if hasattr(s.detail, "new")]
    assert ("标定数据元素", "标定数据要素") in [(s.detail.entry.term, s.detail.new) for s in sites]


def test_ter05_offers_one_english_site_per_document(ter_injectors: dict) -> None:
    """The English form is one form among eight: one entry of a document (the middle one), not three, so
    that it does not outweigh each lead-in form."""
    terms = "\n".join(
        f"3.{k} {term} {english}\n{definition}"
        for k, (term, english, definition) in enumerate(
            (
                ("采样单元", "sampling unit", "从被测介质中抽取并输送试样的部件组合。"),
                ("标定周期", "calibration interval", "相邻两次标定之间的时间间隔。"),
                ("零点漂移", "zero drift", "无输入时输出值随时间的缓慢变化。"),
                ("量程漂移", "span drift", "满量程输入时输出值随时间的缓慢变化。"),
            ),
            start=1,
        )
    )
    body = BODY.replace("标定周期不应超过30 d", "标定周期不应超过30 d，零点漂移和量程漂移不应超过1%")
    sites = ter_injectors["TER-05"].sites(document(terms=terms, body=body), InjectionContext())
    english = [s for s in sites if getattr(s.detail, "kind", "") == "english"]
    assert [s.detail.entry.term for s in english] == ["零点漂移"]


SPELLED = """4 要求
4.1 通信
采样单元应通过虚拟专用网络（VPN）向中心站传送数据，VPN的密钥应每月更换。
4.2 校验
数据帧应采用16位循环冗余码（CRC16）校验，附件服务器端口（TCP）应可配置。
4.3 标志
采样单元的标志应符合GB/T 191—2008的规定。"""


def test_ter01_takes_away_the_name_an_abbreviation_is_spelled_out_with(ter_injectors: dict) -> None:
    """ "通过虚拟专用网络（VPN）" becomes "通过VPN": the abbreviation now stands undefined at that clause,
    which is where the instance is located. Never a bracket that names a kind of thing ("端口（TCP）"), a
    name cut after a measure word ("16位循环冗余码（CRC16）"), nor an abbreviation explained elsewhere."""
    doc = document(body=SPELLED)
    injector = ter_injectors["TER-01"]
    options = [o for s in injector.sites(doc, InjectionContext()) for o in s.detail]
    assert [(o.abbreviation, o.name) for o in options if hasattr(o, "name")] == [("VPN", "虚拟专用网络")]
    instance = injector.inject(Baseline(doc), random.Random(0), InjectionContext()).instance
    assert instance is not None and instance.provenance.form == "expansion_removed"
    assert instance.location == "4.1"
    assert "应通过VPN向中心站传送数据" in instance.corrupted_section.text
    assert "“通过VPN”" in instance.description and "虚拟专用网络（VPN）" in instance.description
    listed = document(body=SPELLED.replace("4 要求", "4 缩略语\nVPN：虚拟专用网络\n5 要求"))
    assert not [o for s in injector.sites(listed, InjectionContext()) for o in s.detail if hasattr(o, "name")]
    explained = document(body=SPELLED + "\n注：VPN——虚拟专用网络。")
    assert not [
        o for s in injector.sites(explained, InjectionContext()) for o in s.detail if hasattr(o, "name")
    ]


GROUPED = """3.1 采样单元 sampling unit
从被测介质中抽取并输送试样的部件组合。
3.2 标准溶液
3.2.1 低浓度标准溶液 low standard solution
浓度为量程10%的标准溶液。
3.2.2 高浓度标准溶液 high standard solution
浓度为量程90%的标准溶液。
3.3 零点漂移 zero drift
无输入时输出值随时间的缓慢变化。"""


def test_ter01_takes_only_the_last_entry_of_a_grouped_terms_chapter(ter_injectors: dict) -> None:
    """Entries grouped under a heading ("3.2 标准溶液", then 3.2.1, 3.2.2) cannot move up one by one: only
    the last entry, whose removal renumbers nothing, may go."""
    body = USES.replace("标定周期不应超过30 d，", "")
    doc = document(terms=GROUPED, body=body)
    injector = ter_injectors["TER-01"]
    removed = [o for s in injector.sites(doc, InjectionContext()) for o in s.detail if hasattr(o, "renames")]
    assert [(o.term, o.renames) for o in removed] == [("零点漂移", ())]


def test_ter01_spells_out_only_at_the_first_use_and_reads_names_jieba_joins(ter_injectors: dict) -> None:
    """A bracket after a bare use ("…VPN…" in 4.1, "虚拟专用网络（VPN）" in 4.2) is no first use: the
    original already used the abbreviation undefined, so it is no site. A name jieba joins into fewer
    words than letters ("统一/建模语言" for UML) is read back to the clause verb before it."""
    injector = ter_injectors["TER-01"]
    late = document(
        body=SPELLED.replace("采样单元应通过虚拟专用网络（VPN）", "采样单元应通过VPN").replace(
            "VPN的密钥应每月更换", "虚拟专用网络（VPN）的密钥应每月更换"
        )
    )
    assert not [o for s in injector.sites(late, InjectionContext()) for o in s.detail if hasattr(o, "name")]
    joined = document(
        body=SPELLED.replace("4.3 标志", "4.3 模型\n数据结构应采用统一建模语言（UML）描述。\n4.4 标志")
    )
    names = {
        o.abbreviation: o
        for s in injector.sites(joined, InjectionContext())
        for o in s.detail
        if hasattr(o, "name")
    }
    assert names["UML"].name == "统一建模语言" and names["UML"].before == "采用"
    # "可扩展标记语言（XML）": the one-character "可" before three words is the name's own, not a verb
    own = document(
        body=SPELLED.replace("4.3 标志", "4.3 交换\n交换文件应采用可扩展标记语言（XML）编码。\n4.4 标志")
    )
    assert "XML" not in {
        o.abbreviation
        for s in injector.sites(own, InjectionContext())
        for o in s.detail
        if hasattr(o, "name")
    }


def test_ter01_a_long_compound_led_by_a_word_of_its_field_is_technical() -> None:
    """ "海洋环境大数据使用者" holds general words ("大", "数据") but is led by a word of its field: a reader
    expects it defined. "数据来源类别", led by a general word, is not taken for one on that ground."""
    from injectors.types.ter.entry_removal import technical

    assert technical("海洋环境大数据使用者")
    assert not technical("数据来源类别")


def _ter03_at(injector: Injector, doc: Document, number: str, term: str, variant: str) -> ErrorInstance:
    """The TER-03 instance that writes `variant` for the first `term` of section `number`."""
    from injectors.types.ter.ter03_inconsistent_term_use import Substitution

    position = next(k for k, s in enumerate(doc.sections) if s.number == number)
    start = doc.sections[position].text.index(term)
    site = Site(position, (Substitution(start, term, (variant,), term),))
    proposal = injector.propose(doc, site, random.Random(0), InjectionContext())
    assert proposal is not None
    instance, why = injector._verified(Baseline(doc), proposal, 0)
    assert instance is not None, why
    return instance


def test_ter03_never_writes_one_variant_twice_in_a_document(ter_injectors: dict) -> None:
    """ "标定周期" → "标定间隔" is offered at one of the four clauses only; and should two errors write it
    (each holds alone), the joint check keeps the first and drops the repeat: one slip told twice, and a
    stock phrase."""
    from injectors.joint import failure
    from injectors.types.ter.ter03_inconsistent_term_use import variant_written_once

    body = (
        "4 要求\n4.1 采样\n标定周期不应超过30 d。\n4.2 标志\n标定周期应标在铭牌上。\n"
        "4.3 维护\n每个标定周期应清洗一次。\n4.4 记录\n标定周期的起止时间应记录。"
    )
    doc = document(body=body)
    injector = ter_injectors["TER-03"]
    offered = [
        (o.term, v)
        for site in injector.sites(doc, InjectionContext())
        for o in site.detail
        for v in o.synonyms
    ]
    assert offered == [("标定周期", "标定间隔")]
    first, second = (_ter03_at(injector, doc, n, "标定周期", "标定间隔") for n in ("4.1", "4.3"))
    alone = apply_edits(doc, [second.edit]).document
    assert variant_written_once(second, alone, alone.section("4.3")) is None
    both = apply_edits(doc, [first.edit, second.edit]).document
    assert variant_written_once(first, both, both.section("4.1")) is None  # the slip is kept
    assert "written before" in (variant_written_once(second, both, both.section("4.3")) or "")
    assert failure(second, doc, both, lint(both), both.section("4.3")) is not None


def test_ter01_never_takes_out_a_word_every_reader_knows(ter_injectors: dict) -> None:
    """ "保密性" is a word of the general language (jieba's dictionary counts it often): its missing entry
    is no error a reviewer points at, however often the body uses it."""
    terms = ENTRIES.replace(
        "3.2 隐私保护 privacy protection\n为保护隐私而实施的各项措施。",
        "3.2 保密性 confidentiality\n使信息不泄露给未授权者的特性。",
    )
    body = USES.replace("隐私保护措施", "保密性")
    doc = document(terms=terms, body=body)
    removed = {o.term for s in ter_injectors["TER-01"].sites(doc, InjectionContext()) for o in s.detail}
    assert "保密性" not in removed and "零点漂移" in removed


def test_ter_types_say_why_a_document_offers_no_site(ter_injectors: dict) -> None:
    """The skip reasons a release reports per document: a lead-in that brings in other documents' terms
    (TER-01), no variant of a used term nor entry of its field (TER-02), no term the body uses three
    times (TER-03), and no terms chapter at all."""
    context = InjectionContext()
    cited = document(lead_in="GB/T 191界定的以及下列术语和定义适用于本文件。")
    assert ter_injectors["TER-01"].no_site_reason(cited, context) == "terms_from_cited_documents"
    plain = document(terms="3.1 采样单元 sampling unit\n从被测介质中抽取并输送试样的部件组合。")
    assert list(ter_injectors["TER-02"].sites(plain, context)) == []
    assert ter_injectors["TER-02"].no_site_reason(plain, context) == "no_variant_nor_entry_of_its_field"
    assert ter_injectors["TER-03"].no_site_reason(plain, context) == "no_term_used_thrice"
    none = document(lead_in="本文件没有需要界定的术语和定义。", terms="")
    assert ter_injectors["TER-03"].no_site_reason(none, context) == "no_entries"


def test_ter03_never_makes_one_word_swap_twice_in_a_document(ter_injectors: dict) -> None:
    """ "数据提供者" → "数据提供方" and "样品提供者" → "样品提供方": two terms, one slip (者 → 方). It is
    offered once; should two errors make it, the joint check keeps the first and drops the repeat."""
    from injectors.types.ter.ter03_inconsistent_term_use import variant_written_once

    terms = (
        "3.1 数据提供者 data provider\n向平台提交监测数据的主体。\n"
        "3.2 样品提供者 sample provider\n向实验室送交样品的主体。"
    )
    body = (
        "4 要求\n4.1 提交\n数据提供者应每日提交数据，样品提供者应按月送样。\n"
        "4.2 记录\n数据提供者的名称应记录，样品提供者的名称应记录。\n"
        "4.3 核查\n数据提供者和样品提供者应接受核查。\n4.4 公开\n数据提供者和样品提供者的名单应公开。"
    )
    doc = document(terms=terms, body=body)
    injector = ter_injectors["TER-03"]
    offered = [v for site in injector.sites(doc, InjectionContext()) for o in site.detail for v in o.synonyms]
    assert len([v for v in offered if v.endswith("提供方")]) == 1
    first = _ter03_at(injector, doc, "4.1", "数据提供者", "数据提供方")
    second = _ter03_at(injector, doc, "4.3", "样品提供者", "样品提供方")
    both = apply_edits(doc, [first.edit, second.edit]).document
    assert variant_written_once(first, both, both.section("4.1")) is None
    assert "same swap" in (variant_written_once(second, both, both.section("4.3")) or "")
