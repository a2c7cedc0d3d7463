"""The SCP dimension as a whole: tests of all its types at once, where no one type module is the subject."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from injectors.base import Injector
from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import Edit, apply_edits, replay
from injectors.instance import ErrorInstance
from injectors.registry import injectors
from parsers import parse_file
from parsers.model import Document
from tests.injectors.types.scp.scp_documents import TYPES, scope_findings, scope_standard

DETERMINISTIC = ("SCP-01", "SCP-02")


@pytest.mark.parametrize(
    "scope",
    [
        # 2020 formula with an exclusion and "参照使用"
        "本文件规定了社区共享工具柜的技术要求，描述了相应的试验方法。\n"
        "本文件适用于社区内设置的共享工具柜。\n本文件不适用于快递柜。学校内的工具柜参照使用。",
        # 2009 generation, multi-part wording
        "GB/T 99950的本部分规定了共享工具柜的技术要求。\n本部分适用于社区内设置的共享工具柜。",
        # compounds: 响应 相应 应用 适应 供应 对应 应急 可靠 可能 可追溯 适宜 事宜
        "本文件规定了工具柜响应时间、相应的应用接口、适应性、供应商信息、对应的应急措施、可靠性、"
        "可能的故障、可追溯性和适宜的安装位置等事宜。\n本文件适用于社区内设置的共享工具柜。",
        # a modal verb reported as content, and applicability phrasing with 可
        "本文件规定了共享工具柜应具备的功能和应达到的性能。\n"
        "本文件适用于社区内设置的共享工具柜，其他场所的工具柜也可参照使用。",
        "本文件给出了共享工具柜的选型指南。\n本文件适用于共享工具柜的选型，也可供物业企业参考。",
        "本标准规定了共享工具柜的技术要求。\n本标准适用于社区共享工具柜，其他公共场所的工具柜可根据实际情况参照执行。",
        "本文件提供了共享工具柜运营的指导。\n本文件适用于共享工具柜的运营单位。",
        "本文件给出了共享工具柜选型的指导。\n本文件可供物业服务企业选购工具柜时使用。",
        # a note is not a statement of the scope (a provision there is NMS-05's business)
        "本文件规定了共享工具柜的技术要求。\n本文件适用于社区内设置的共享工具柜。\n注：柜体颜色宜与环境协调。",
    ],
)
def test_clean_scopes_are_not_reported(scope: str) -> None:
    assert scope_findings(scope_standard(scope)) == []


def test_hj_variant_title_and_order_are_accepted() -> None:
    doc = scope_standard(
        "本标准适用于社区共享工具柜与管理平台之间的数据传输，规定了传输的过程和报文格式，给出了代码定义。",
        generation=2009,
        scope_title="适用范围",
    )
    assert doc.sections[1].kind == "scope"
    assert scope_findings(doc) == []


def test_empty_scope_is_left_to_the_structure_checks() -> None:
    doc = scope_standard("")
    assert scope_findings(doc) == []


@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)


@pytest.fixture(scope="module")
def scope_injectors() -> dict[str, Injector]:
    return {t: i for t, i in injectors().items() if t in TYPES}


def changed_words(edit: Edit) -> list[str]:
    """What a reviewer should see quoted in the description: the inserted or deleted words."""
    out = []
    for r in edit.replacements:
        words = (r.new or r.old).strip("\n，、")
        for connector in ("以及", "和"):
            words = words.removeprefix(connector)
        out.append(words.rstrip("。"))
    return out


def inject(
    injector: Injector, document: Document, context: InjectionContext, seed: int = 0
) -> ErrorInstance | None:
    attempt = injector.inject(
        Baseline(document), random.Random(f"{seed}:{document.doc_id}:x"), context, seed=seed
    )
    return attempt.instance


def test_all_scope_types_are_registered(scope_injectors: dict[str, Injector]) -> None:
    assert tuple(scope_injectors) == TYPES
    for injector in scope_injectors.values():
        assert injector.__doc__ and "Why" in injector.__doc__


@pytest.mark.parametrize("type_id", TYPES)
def test_injected_instance_is_correct(
    type_id: str,
    corpus_documents: list[Document],
    context: InjectionContext,
    scope_injectors: dict[str, Injector],
) -> None:
    injector = scope_injectors[type_id]
    applicable = [d for d in corpus_documents if list(injector.sites(d, context))]
    # SCP-03 needs an object that this scope itself puts outside (不适用于 / 参照使用): skipped elsewhere;
    # SCP-05 a qualifier the document still shows, or an exclusion in words the document itself writes
    least = {"SCP-03": 4, "SCP-05": len(corpus_documents) // 2}.get(type_id, len(corpus_documents) - 1)
    assert len(applicable) >= least
    for document in applicable[:: max(1, len(applicable) // 3)]:
        instance = inject(injector, document, context)
        assert instance is not None, f"{type_id} failed on {document.standard_id}"
        assert (instance.dimension, instance.error_type) == ("SCP", type_id)
        target = document.sections[instance.edit.target]
        if type_id == "SCP-03":
            assert target.kind == "clause" and instance.location == target.number
        else:
            assert target.kind == "scope" and instance.location == "1"
        assert instance.description.startswith("错误：") and "修改建议：" in instance.description
        for changed in changed_words(instance.edit):
            assert changed and changed in instance.description
        assert replay(instance.edit, instance.original_section) == instance.corrupted_section
        corrupted = apply_edits(document, [instance.edit]).document
        assert corrupted.sections[instance.edit.target] == instance.corrupted_section
        if type_id in DETERMINISTIC:
            assert (instance.location, type_id) in scope_findings(corrupted)
            assert (instance.location, type_id) not in scope_findings(document)
        else:  # a judgement type must not trip any deterministic checker at its location
            before = {(v.location, v.error_type) for v in lint(document)}
            after = {(v.location, v.error_type) for v in lint(corrupted)}
            assert {f for f in after - before if f[0] == instance.location} == set()


def test_scope_types_share_chapter_one(
    corpus_documents: list[Document], context: InjectionContext, scope_injectors: dict[str, Injector]
) -> None:
    """SCP-01, -02, -04 and -05 edit different spans of 范围, so one document can carry all four."""
    document = next(d for d in corpus_documents if "储能" in d.title)
    baseline = Baseline(document)
    taken: list[ErrorInstance] = []
    for type_id in ("SCP-05", "SCP-04", "SCP-02", "SCP-01"):
        attempt = scope_injectors[type_id].inject(
            baseline, random.Random(f"share:{type_id}"), context, taken=[i.edit for i in taken]
        )
        assert attempt.instance is not None, f"{type_id}: {attempt.reason}"
        taken.append(attempt.instance)
    applied = apply_edits(document, [i.edit for i in taken])
    assert applied.locations == ("1", "1", "1", "1")
    found = scope_findings(applied.document)
    assert ("1", "SCP-01") in found and ("1", "SCP-02") in found


@pytest.mark.parametrize("type_id", ["SCP-02", "SCP-05"])
def test_both_variants_are_built(
    type_id: str,
    corpus_documents: list[Document],
    context: InjectionContext,
    scope_injectors: dict[str, Injector],
) -> None:
    """SCP-02: a deleted 适用于 sentence or a textbook verb; SCP-05 on the charging-cabinet standard: only
    an exclusion, since its qualifier's words ("电动自行车") are still in its own exclusion sentence, which
    keeps the boundary where it was (a dropped qualifier there would widen nothing)."""
    document = next(d for d in corpus_documents if ("储能" if type_id == "SCP-02" else "充电柜") in d.title)
    variants = set()
    for seed in range(8):
        instance = inject(scope_injectors[type_id], document, context, seed=seed)
        assert instance is not None
        (replacement,) = instance.edit.replacements
        variants.add("delete" if not replacement.new else "insert" if not replacement.old else "replace")
    expected = {"delete", "replace"} if type_id == "SCP-02" else {"insert"}
    assert variants == expected


def test_corpus_documents_are_clean(corpus_documents: list[Document]) -> None:
    for document in corpus_documents:
        assert scope_findings(document) == [], document.standard_id


# Real documents: three true violations, all requirements written into the scope.
REAL_FINDINGS = {
    ("GB_Z_38623-2020.source_text.txt", "1", "SCP-01"),  # a 应 requirement on how the library is built
    ("HJ_212-2017.pdf", "1", "SCP-01"),  # a 不得 prohibition on extensions of the protocol
    ("GB_T_37947.4-2024.source_text.txt", "1", "SCP-01"),  # a 应 requirement to follow this document
}


def test_real_documents_report_only_true_violations(real_corpus: Path) -> None:
    paths = [
        p
        for p in sorted(real_corpus.rglob("*"))
        if p.suffix in (".md", ".txt", ".pdf") and p.name != "README.md" and not {"bad", "ocr"} & set(p.parts)
    ]  # scans are refused before parsing
    found = {(p.name, v.location, v.error_type) for p in paths for v in lint(parse_file(p), TYPES)}
    assert found == REAL_FINDINGS
