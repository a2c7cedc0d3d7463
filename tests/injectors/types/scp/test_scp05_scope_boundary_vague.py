"""Tests of SCP-05 范围界限模糊或矛盾 (Scope boundary vague or contradicted)."""

from __future__ import annotations

from collections import Counter

from injectors.checking import lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.language.novelty import stock_ngrams
from injectors.language.words import words
from injectors.types.scp.analysis import scope_chapter, statement_sentences
from injectors.types.scp.editing import applicability_qualifiers
from injectors.types.scp.scp05_scope_boundary_vague import qualifier_evidence, still_bounded
from parsers.model import Document
from tests.injectors.types.scp.scp_documents import (
    CABINET_BODY,
    CABINET_SCOPE,
    POST_BODY,
    added_text,
    alone_instances,
    charger_standard,
    corpus,
    corpus_instances,
    dropped_qualifiers,
    instances,
    run,
    standard,
)


def test_scp05_drops_a_qualifier_that_a_referred_object_shows() -> None:
    scope = (
        "本文件规定了环境监测终端的技术要求。\n"
        "本文件适用于连栋温室中使用的环境监测终端的设计和验收，简易大棚中使用的环境监测终端参照使用。"
    )
    body = """4 要求
4.1 测量
环境监测终端应测量空气温度。
4.2 供电
环境监测终端应采用直流供电。
"""
    document = standard(scope, body, title="农业 监测终端 技术要求")  # the title restricts nothing
    found = dropped_qualifiers(document)
    assert found, "no qualifier dropped although the referred 简易大棚 terminal shows the restriction"
    for instance in found:
        assert "删去了限定语“连栋温室中使用的”" in instance.description
        assert "只允许参照使用本文件的“简易大棚中使用的环境监测终端”也落入了这一界限" in instance.description
        assert "本文件适用于环境监测终端的设计和验收" in instance.corrupted_section.text


def test_scp05_takes_no_referred_object_of_another_kind_as_evidence() -> None:
    scope = (
        "本文件规定了电子式温度记录仪的技术要求。\n"
        "本文件适用于冷链运输过程中使用的电子式温度记录仪。温湿度记录仪的温度测量部分参照使用。"
    )
    body = """4 要求
4.1 测量
电子式温度记录仪应测量空气温度。
"""
    document = standard(scope, body, title="仓储 记录仪 技术要求")
    found = run("SCP-05", document, InjectionContext.from_documents([document]))
    assert all("参照使用" not in i.description for i in found)


WIDE_SCOPE = (
    "本文件规定了交流充电桩管理终端的功能要求和试验方法。\n"
    "本文件适用于住宅小区内设置的交流充电桩管理终端的设计和验收。"
)


WIDE_TITLE = "住宅小区 充电桩管理终端 技术要求"


def _qualifier_cases(document: Document) -> list[tuple[str, str | None, str | None]]:
    found = scope_chapter(document)
    assert found is not None
    section = found[1]
    return [
        (q, qualifier_evidence(document, section, st.text, q), still_bounded(document, section, st.text, q))
        for st in statement_sentences(section.text)
        for _, q in applicability_qualifiers(st.text)
    ]


def test_scp05_drops_a_qualifier_where_only_the_title_still_names_it() -> None:
    document = charger_standard(WIDE_SCOPE, title=WIDE_TITLE)
    cases = _qualifier_cases(document)
    assert ("住宅小区内设置的", "文件名称“住宅小区 充电桩管理终端 技术要求”仍限于“住宅小区”", None) in cases
    found = [i for i in alone_instances("SCP-05", document) if not added_text(i)]
    assert found and all(i.provenance.form == "删去限定语" for i in found)
    for instance in found:
        assert "住宅小区内设置的" not in instance.corrupted_section.text


def test_scp05_refuses_a_qualifier_that_a_defined_term_still_says() -> None:
    terms = (
        "下列术语和定义适用于本文件。\n3.1\n交流充电桩管理终端 terminal\n"
        "设置在住宅小区内，管理交流充电桩的终端设备。"
    )
    document = charger_standard(WIDE_SCOPE, title=WIDE_TITLE, terms=terms)
    assert [b for _, _, b in _qualifier_cases(document)] == ["术语“交流充电桩管理终端”"]
    assert not [i for i in alone_instances("SCP-05", document) if not added_text(i)]


def test_scp05_refuses_a_qualifier_that_the_scopes_exclusion_or_short_name_still_says() -> None:
    excluded = charger_standard(WIDE_SCOPE + "\n本文件不适用于住宅小区以外设置的充电设施。", title=WIDE_TITLE)
    assert any(b and b.startswith("排除陈述") for _, _, b in _qualifier_cases(excluded))
    assert not [i for i in alone_instances("SCP-05", excluded) if i.provenance.form == "删去限定语"]
    short = charger_standard(
        "本文件规定了住宅小区交流充电桩管理终端（以下简称管理终端）的功能要求。\n"
        "本文件适用于住宅小区内设置的管理终端的设计和验收。"
    )
    assert any(b == "简称“管理终端”" for _, _, b in _qualifier_cases(short))


def test_scp05_excludes_a_regulated_object_but_no_test_equipment() -> None:
    body = POST_BODY.replace(
        "4.2 显示\n显示屏应能显示充电电量和费用。", "4.2 显示屏\n显示屏应能显示充电电量和费用。"
    )
    body = body.replace("6.1 计量试验", "6.1 试验设备\n试验设备应经过校准。\n6.2 计量试验")
    document = charger_standard(WIDE_SCOPE.replace("住宅小区内设置的", ""), body)
    found = [i for i in alone_instances("SCP-05", document, seeds=24) if added_text(i)]
    assert found
    for instance in found:
        assert "显示屏" in added_text(instance) and "试验设备" not in added_text(instance)
        # a sentence of its own: a display screen is not a thing of the kind the boundary lists
        assert "除外" not in added_text(instance) and "不在此列" not in added_text(instance)
        assert "4.2" in instance.description  # the clause that regulates what the scope now excludes


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


def test_scp05_drops_no_qualifier_that_nothing_else_in_the_document_names() -> None:
    scope = "本文件规定了社区共享工具柜的柜体结构和门锁要求。\n本文件适用于住宅小区内设置的社区共享工具柜。"
    document = standard(scope, CABINET_BODY, title="社区 共享工具柜 技术要求")
    found = run("SCP-05", document, InjectionContext.from_documents([document]))
    assert all("限定语" not in i.description for i in found)  # 住宅小区 appears nowhere else


def test_scp05_names_the_title_that_still_restricts_the_dropped_qualifier() -> None:
    scope = "本文件规定了共享工具柜的柜体结构和门锁要求。\n本文件适用于住宅小区内设置的共享工具柜。"
    document = standard(scope, CABINET_BODY, title="住宅小区 共享工具柜 技术要求")
    found = dropped_qualifiers(document)
    assert found, "no qualifier dropped although the title still names 住宅小区"
    for instance in found:
        assert "住宅小区内设置的" in instance.description
        assert "文件名称“住宅小区 共享工具柜 技术要求”仍限于“住宅小区”" in instance.description


def test_scp05_varies_the_exclusion_wording_a_document_lacks() -> None:
    """A scope that never words an exclusion still offers one (a type real scopes never offered vanished
    from releases of real standards), in varied forms so that no one phrase ("。本文件不……") marks the
    type; one that already excludes gets the object as a new list item or in a wording of its own (not
    every such scope grows its list), never a "也不适用" ahead of the exclusion it would echo."""
    scope = "本文件规定了社区共享工具柜的柜体结构、门锁和电气安全要求。\n本文件适用于社区共享工具柜。"
    body = CABINET_BODY.replace("5 试验方法", "4.4 照明装置\n照明装置应在柜门开启时自动点亮。\n5 试验方法")
    found = [i for i in corpus_instances("SCP-05", corpus(scope, body, 10)) if added_text(i)]
    assert found
    forms = Counter(i.provenance.form for i in found)
    assert len(forms) >= 4 and max(forms.values()) <= 0.4 * len(found), forms
    for instance in found:
        assert "照明装置" in added_text(instance) and "4.4" in instance.description
    excluding = standard(scope + "\n本文件不适用于快递自提柜。", body)
    found = [i for i in instances("SCP-05", excluding, seeds=12) if added_text(i)]
    forms = Counter(i.provenance.form for i in found)
    assert forms["排除列表增项"] and len(forms) >= 2, forms
    for instance in found:
        text = instance.corrupted_section.text
        if instance.provenance.form == "排除列表增项":
            assert "本文件不适用于" + added_text(instance) + "快递自提柜" in text
        else:
            assert "照明装置" in added_text(instance) and "也不适用" not in text
            assert text.index(added_text(instance)) < text.index("本文件不适用于快递自提柜")
