"""Scope dimension (SCP): regression tests for the shortcut defects of the scope injectors.

Each test writes its own small standards and checks one defect that a reviewer found: a stock sentence
that marks every SCP-03 instance, material borrowed from another field, a comma left before 、, an
exclusion always added last, one stock opener (SCP-01) or verb (SCP-02) in every instance.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from injectors.base import Injector
from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.instance import ErrorInstance
from injectors.language.novelty import stock_ngrams
from injectors.language.words import words
from injectors.registry import injectors
from injectors.types.scp.editing import SCOPE_ASPECTS, document_kinds, uncovered_aspects
from parsers.model import Document
from parsers.text import parse_text

FOREWORD = "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。"

# A hardware product: a community tool cabinet whose scope excludes parcel lockers.
CABINET_SCOPE = (
    "本文件规定了社区共享工具柜的柜体结构、门锁和电气安全要求，描述了相应的试验方法。\n"
    "本文件适用于住宅小区内设置的社区共享工具柜。\n"
    "本文件不适用于快递自提柜。"
)
CABINET_BODY = """4 技术要求
4.1 柜体
共享工具柜应采用耐腐蚀材料制作，柜体表面不应有毛刺。
共享工具柜的柜门应能在断电时手动开启。
4.2 门锁
门锁宜具有远程开启功能。门锁的材料应采用不锈钢。
4.3 电气安全
共享工具柜的外壳应可靠连接保护导体。柜体的结构应防止误触带电部件。
5 试验方法
5.1 外观检查
在自然光下目视检查柜体外观和尺寸。
5.2 门锁试验
连续开闭门锁500次后检查门锁功能。
"""

# An information standard: a data exchange format, no hardware at all.
EXCHANGE_SCOPE = (
    "本文件规定了社区服务平台之间交换报文的数据元素、编码规则和接口要求。\n"
    "本文件适用于社区服务平台之间的数据交换。"
)
EXCHANGE_BODY = """4 数据元素
4.1 基本要求
报文应采用UTF-8编码。数据元素的名称应唯一。
4.2 字段
每个字段应给出数据类型和长度。字段的编码应符合附录A。
5 接口要求
5.1 协议
接口应采用HTTPS协议传输报文。接口的报文应包含时间戳。
5.2 数据
数据元素的取值应符合编码规则，数据接口应返回处理结果。
"""


def standard(scope: str, body: str, title: str = "社区 共享工具柜 技术要求") -> Document:
    """A small standard written for these tests: cover, foreword, scope `scope`, and `body`."""
    text = f"""GB/T 99951—2025
{title}
前言
{FOREWORD}
1 范围
{scope}
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
{body}"""
    return parse_text(Path("scope-quality.txt"), text.encode())


def injector(type_id: str) -> Injector:
    return injectors()[type_id]


def instances(type_id: str, document: Document, seeds: int = 12) -> list[ErrorInstance]:
    """Instances of one type on one document over several seeds, with a context of other fields."""
    other = standard(EXCHANGE_SCOPE, EXCHANGE_BODY, "社区服务平台 数据交换 报文格式")
    context = InjectionContext.from_documents([document, other])
    out = []
    for seed in range(seeds):
        attempt = injector(type_id).inject(
            Baseline(document), random.Random(f"{seed}:{type_id}"), context, seed=seed
        )
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def added_text(instance: ErrorInstance) -> str:
    return "".join(r.new for r in instance.edit.replacements)


# --- SCP-03: no stock extension sentence, no object from another field -------------------------------------


def test_scp03_coordinates_the_excluded_object_into_a_clause_of_its_own_wording() -> None:
    document = standard(CABINET_SCOPE, CABINET_BODY)
    found = instances("SCP-03", document)
    assert found, "SCP-03 found no site on a scope with an exclusion"
    for instance in found:
        original = instance.original_section.text
        corrupted = instance.corrupted_section.text
        assert "本条" not in corrupted and "本章" not in corrupted  # the old stock sentence
        assert "也应" not in corrupted
        assert added_text(instance).lstrip("和及与、以").startswith("快递自提柜")
        # the clause keeps its own predicate: only the subject grew
        (replacement,) = instance.edit.replacements
        assert replacement.old == "" and instance.original_section.text[:0] == ""
        assert corrupted.count("。") == original.count("。")
        assert "不适用于快递自提柜" in instance.description
        assert "快递自提柜" not in "".join(s.text for s in document.sections if s.kind == "clause")


def test_scp03_skips_a_scope_that_excludes_nothing_rather_than_borrow_from_another_field() -> None:
    scope = "本文件规定了社区共享工具柜的技术要求。\n本文件适用于住宅小区内设置的社区共享工具柜。"
    document = standard(scope, CABINET_BODY)
    other = standard(CABINET_SCOPE.replace("快递自提柜", "医用冷藏柜"), EXCHANGE_BODY, "另一领域 标准")
    context = InjectionContext.from_documents([document, other])
    assert list(injector("SCP-03").sites(document, context)) == []


# --- SCP-04: the aspect fits the kind of document; no ",、" ------------------------------------------------


def test_scp04_promises_no_hardware_aspect_to_a_data_exchange_standard() -> None:
    document = standard(EXCHANGE_SCOPE, EXCHANGE_BODY, "社区服务平台 数据交换 报文格式")
    body = "\n".join(s.text for s in document.sections if s.kind == "clause")
    assert document_kinds(body) == frozenset({"information"})
    hardware_only = {a.name for a in SCOPE_ASPECTS if not a.kinds & {"information", "system"}}
    assert "防雷" in hardware_only and "职业健康防护" not in {a.name for a in uncovered_aspects(document)}
    assert not hardware_only & {a.name for a in uncovered_aspects(document)}
    found = instances("SCP-04", document)
    assert found
    for instance in found:
        assert not any(name in added_text(instance) for name in hardware_only)


def test_scp04_leaves_no_comma_before_the_enumeration_mark() -> None:
    scope = (
        "本文件规定了社区共享工具柜的柜体结构要求,门锁要求和电气安全要求,描述了相应的试验方法.\n"
        "本文件适用于住宅小区内设置的社区共享工具柜."
    )
    document = standard(scope, CABINET_BODY)
    found = instances("SCP-04", document)
    assert found
    for instance in found:
        corrupted = instance.corrupted_section.text
        assert ",、" not in corrupted and "，、" not in corrupted
        assert "，" not in added_text(instance)  # the scope writes ASCII commas: so does the addition


def test_scp04_aspects_vary_across_documents_of_one_kind() -> None:
    document = standard(CABINET_SCOPE, CABINET_BODY)
    names = {added_text(i) for i in instances("SCP-04", document, seeds=16)}
    assert len(names) >= 4


# --- SCP-05: the exclusion does not always land last ----------------------------------------------------


def test_scp05_exclusions_land_in_several_places() -> None:
    scope = CABINET_SCOPE + "\n学校内设置的工具柜参照使用。"
    body = CABINET_BODY.replace("5 试验方法", "4.4 照明装置\n照明装置应在柜门开启时自动点亮。\n5 试验方法")
    document = standard(scope, body)
    places = Counter()
    for instance in instances("SCP-05", document, seeds=24):
        (replacement,) = instance.edit.replacements
        if replacement.old:
            places["qualifier"] += 1
            continue
        lines = [line for line in instance.corrupted_section.text.splitlines() if line.strip()]
        places["last line" if replacement.new.strip() in lines[-1] else "inside"] += 1
        corrupted = apply_edits(document, [instance.edit]).document
        assert not [v for v in lint(corrupted, ["SCP-01", "SCP-02"]) if v.location == "1"]
    assert places["inside"] >= 1
    assert places["last line"] < sum(places.values())


def corpus(scope: str, body: str, size: int) -> list[Document]:
    """`size` standards of one series with the same scope and body: a corpus whose documents differ only
    in their numbers and titles."""
    return [parse_text(Path(f"cabinet-{n}.txt"), _text(scope, body, n).encode()) for n in range(size)]


def _text(scope: str, body: str, n: int) -> str:
    return f"""GB/T {99950 + n}—2025
社区 共享工具柜 第{n + 1}部分：技术要求
前言
{FOREWORD}
1 范围
{scope}
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
{body}"""


def corpus_instances(type_id: str, documents: list[Document], seed: int = 0) -> list[ErrorInstance]:
    """One instance per document (where it takes one), each injected with the whole corpus as context."""
    context = InjectionContext.from_documents(documents)
    out = []
    for document in documents:
        attempt = injector(type_id).inject(
            Baseline(document), random.Random(f"{seed}:{type_id}:{document.doc_id}"), context, seed=seed
        )
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


_LAMP_BODY = CABINET_BODY.replace("5 试验方法", "4.4 照明装置\n照明装置应在柜门开启时自动点亮。\n5 试验方法")
_PLAIN_SCOPE = "本文件规定了社区共享工具柜的柜体结构和门锁要求。\n本文件适用于社区共享工具柜的设计和制造。"


def test_scp05_exclusion_wordings_share_no_stock_phrase() -> None:
    """An added exclusion takes one of many wordings, and no two wordings add the same new phrase (beyond
    the object's own words): a phrase such as "的适用范围" in every other instance lets a classifier find
    the type without reading the body."""
    documents = corpus(_PLAIN_SCOPE, _LAMP_BODY, 16)
    found = [i for i in corpus_instances("SCP-05", documents) if not i.edit.replacements[0].old]
    forms = Counter(i.provenance.form for i in found)
    assert len(forms) >= 10, forms
    phrases: dict[str, set[str]] = {}
    by_id = {d.doc_id: d for d in documents}
    for instance in found:
        document = by_id[instance.doc_id]
        obj = next(o for o in ("照明装置", "门锁", "柜体") if o in added_text(instance))
        assert instance.corrupted_section is not None and instance.provenance.form
        for gram in stock_ngrams(instance.corrupted_section.text, document, words(obj)):
            phrases.setdefault("".join(gram), set()).add(instance.provenance.form)
    shared = {p: f for p, f in phrases.items() if len(f) > 1}
    assert not shared, shared


def test_scp05_documents_of_one_corpus_take_different_exclusion_wordings() -> None:
    """Where every wording adds new words, the documents of a corpus take different ones, whatever the
    seed: a random choice let two documents of a release of eight say "……不受本文件约束"."""
    documents = corpus(_PLAIN_SCOPE, _LAMP_BODY, 8)
    for seed in range(3):
        forms = [i.provenance.form for i in corpus_instances("SCP-05", documents, seed)]
        assert len(forms) == len(documents) and len(set(forms)) == len(forms), forms


# --- SCP-01 / SCP-02: no stock opener, no single verb ----------------------------------------------------


def test_scp01_writes_a_scope_provision_not_a_copy_of_a_body_sentence() -> None:
    """A requirement slipped into the scope is one a drafter writes there, about the document as a whole
    and its own object ("……的设计、制造和检验应符合本文件的规定。"), in several forms; never a body
    sentence moved as it stands (a duplicate-sentence finder would solve the type). The forms take turns
    over the documents of a corpus."""
    scope = CABINET_SCOPE.replace(
        "本文件适用于住宅小区内设置的社区共享工具柜。",
        "本文件适用于住宅小区内设置的社区共享工具柜的设计、制造和检验。",
    )
    documents = corpus(scope, CABINET_BODY, 14)
    found = [i for seed in range(3) for i in corpus_instances("SCP-01", documents, seed)]
    assert len(found) >= 40
    body = [s.text for s in documents[0].sections if s.kind == "clause"]
    for instance in found:
        added = added_text(instance)
        assert "应" in added and added.endswith("。")
        assert not any(added in text for text in body), added
        assert "共享工具柜" in added  # the scope's own object, not one from elsewhere
    forms = Counter(i.provenance.form for i in found)
    assert len(forms) >= 4, forms
    assert max(forms.values()) <= 0.4 * len(found), forms
    assert any("设计、制造和检验" in added_text(i) for i in found)  # the activities the boundary names
    assert any("试验方法" in added_text(i) for i in found)  # the body's own method chapter


def test_scp02_uses_more_than_one_nonstandard_verb() -> None:
    document = standard(CABINET_SCOPE, CABINET_BODY)
    found = [i for i in instances("SCP-02", document, seeds=20) if i.edit.replacements[0].new]
    verbs = Counter(i.edit.replacements[0].new for i in found)
    assert len(verbs) >= 5
    assert max(verbs.values()) <= 0.35 * len(found)


def test_scp02_passive_formula_is_reported_and_built() -> None:
    clean = standard(CABINET_SCOPE, CABINET_BODY)
    assert not lint(clean, ["SCP-02"])
    passive = standard(
        CABINET_SCOPE.replace(
            "规定了社区共享工具柜的柜体结构、门锁和电气安全要求",
            "对社区共享工具柜的柜体结构、门锁和电气安全要求作了规定",
        ),
        CABINET_BODY,
    )
    (found,) = lint(passive, ["SCP-02"])
    assert "对……作了规定" in found.message
    forms = {
        i.edit.replacements[0].new[:1]
        for i in instances("SCP-02", clean, seeds=30)
        if i.edit.replacements[0].new
    }
    assert "对" in forms  # the passive form is among the variants
    for instance in instances("SCP-02", clean, seeds=30):
        new = instance.edit.replacements[0].new
        if new.startswith("对"):
            assert new.endswith("规定") and new[1:-4] in instance.description


def test_scp04_item_joins_the_list_after_baokuo_not_the_head_noun() -> None:
    scope = (
        "本文件规定了社区共享工具柜的安全体系，包括柜体结构、门锁和电气安全等方面。\n"
        "本文件适用于住宅小区内设置的社区共享工具柜。"
    )
    document = standard(scope, CABINET_BODY)
    found = instances("SCP-04", document)
    assert found
    for instance in found:
        corrupted = instance.corrupted_section.text
        assert "安全体系，包括" in corrupted  # nothing inserted between the head noun and 包括
        assert corrupted.index("包括") < instance.edit.replacements[0].start
