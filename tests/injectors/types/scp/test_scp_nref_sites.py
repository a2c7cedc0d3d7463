"""Scope and reference types on the kinds of document real standards are: sites found more widely, a
boundary dropped only where it really widens, varied forms, and skip reasons that say why. Every
standard here is written by the test (a made-up parking-lot charging post and a rain sensor)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.instance import ErrorInstance
from injectors.registry import injectors
from injectors.types.scp.analysis import scope_chapter, statement_sentences
from injectors.types.scp.editing import applicability_qualifiers
from injectors.types.scp.scp05_scope_boundary_vague import qualifier_evidence, still_bounded
from parsers.model import Document
from parsers.text import parse_text
from tests.injectors.types.nref import nref_documents

FOREWORD = "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。"

# An information-and-hardware standard whose requirements never have the scope's object as subject (as in
# most real protocol and security standards): the scope's short name is all SCP-01 has to go on.
POST_SCOPE = (
    "本文件规定了停车场交流充电桩管理终端（以下简称终端）的功能要求、通信要求和试验方法。\n"
    "本文件适用于停车场交流充电桩管理终端的设计、开发和验收。"
)
POST_BODY = """4 功能要求
4.1 计量
计量数据应每分钟刷新一次。
4.2 显示
显示屏应能显示充电电量和费用。
5 通信要求
5.1 报文
上报报文应包含时间标签。
6 试验方法
6.1 计量试验
用标准电能表比对计量数据。
"""


def standard(
    scope: str,
    body: str = POST_BODY,
    title: str = "停车场 充电桩管理终端 技术要求",
    terms: str = "",
    number: int = 99961,
) -> Document:
    text = f"""GB/T {number}—2025
{title}
前言
{FOREWORD}
1 范围
{scope}
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
{terms or "本文件没有需要界定的术语和定义。"}
{body}"""
    return parse_text(Path("scope-sites.txt"), text.encode())


def instances(type_id: str, document: Document, seeds: int = 20) -> list[ErrorInstance]:
    context = InjectionContext.from_documents([document])
    out = []
    for seed in range(seeds):
        attempt = injectors()[type_id].inject(
            Baseline(document), random.Random(f"{seed}:{type_id}"), context, seed=seed
        )
        if attempt.instance is not None:
            out.append(attempt.instance)
    return out


def corpus_instances(type_id: str, documents: list[Document], seeds: int = 3) -> list[ErrorInstance]:
    """Instances of one type over a corpus (each document injected with the whole corpus as context)."""
    context = InjectionContext.from_documents(documents)
    out = []
    for seed in range(seeds):
        for document in documents:
            attempt = injectors()[type_id].inject(
                Baseline(document), random.Random(f"{seed}:{type_id}:{document.doc_id}"), context, seed=seed
            )
            if attempt.instance is not None:
                out.append(attempt.instance)
    return out


def added(instance: ErrorInstance) -> str:
    return "".join(r.new for r in instance.edit.replacements)


def shows(instance: ErrorInstance, document: Document) -> bool:
    """The corrupted document alone shows an error of the instance's type at its location."""
    corrupted = apply_edits(document, [instance.edit]).document
    return any(v.location == instance.location for v in lint(corrupted, [instance.error_type]))


# --- SCP-01: a provision about the scope's own object, never a body sentence --------------------------------


def test_scp01_uses_the_short_name_and_the_bodys_chapters_where_no_requirement_names_the_object() -> None:
    documents = [standard(POST_SCOPE, number=99961 + n) for n in range(10)]
    document = documents[0]
    found = corpus_instances("SCP-01", documents)
    by_id = {d.doc_id: d for d in documents}
    assert len(found) >= 20
    body = "".join(s.text for s in document.sections if s.kind == "clause")
    for instance in found:
        assert instance.location == "1" and shows(instance, by_id[instance.doc_id])
        assert added(instance) not in body
    texts = "".join(added(i) for i in found)
    assert "终端应" in texts  # the short name the scope itself gives
    assert "功能要求和通信要求" in texts  # the body's own requirement chapters
    assert "设计、开发和验收" in texts  # the activities the boundary names
    forms = Counter(i.provenance.form for i in found)
    assert len(forms) >= 4 and max(forms.values()) <= 0.4 * len(found), forms


def test_scp01_varies_its_form_where_the_scope_names_only_its_object() -> None:
    """A scope with no activities and a body with no requirement or method chapters still gives several
    forms (conform, carry out, conform besides other standards) over a corpus, none in more than 40% of
    the instances; a qualifier of the object ("非涉及……的") is never taken for the object."""
    scope = (
        "本文件给出了非涉及商业秘密的停车场雨量传感器的选型方法。\n"
        "本文件适用于非涉及商业秘密的停车场雨量传感器。"
    )
    body = "4 选型\n4.1 量程\n雨量传感器的量程宜覆盖当地最大小时雨量。\n"
    documents = [standard(scope, body, number=99961 + n) for n in range(10)]
    found = corpus_instances("SCP-01", documents)
    by_id = {d.doc_id: d for d in documents}
    assert len(found) >= 25
    for instance in found:
        assert instance.location == "1" and shows(instance, by_id[instance.doc_id])
        assert not added(instance).startswith("非"), added(instance)
    forms = Counter(i.provenance.form for i in found)
    assert len(forms) >= 3 and max(forms.values()) <= 0.4 * len(found), forms


def test_scp01_forms_take_turns_over_a_corpus_of_mixed_material() -> None:
    """Documents that allow different sets of forms (a scope naming only its object; one naming
    activities, with requirement and method chapters) still spread their forms over the release: a turn
    counted by each document's own number of forms gave one form to four of nine real scopes."""
    rich = [standard(POST_SCOPE, number=99961 + n) for n in range(6)]
    scope = "本文件规定了停车场雨量传感器的选型方法。\n本文件适用于停车场雨量传感器。"
    plain = [standard(scope, number=99971 + n, title="停车场 雨量传感器 选型") for n in range(6)]
    documents = [d for pair in zip(rich, plain, strict=True) for d in pair]
    forms = Counter(i.provenance.form for i in corpus_instances("SCP-01", documents, seeds=1))
    assert sum(forms.values()) == len(documents)
    assert len(forms) >= 5 and max(forms.values()) <= 0.25 * len(documents), forms


def test_scp01_skip_reasons_say_why() -> None:
    injector = injectors()["SCP-01"]
    context = InjectionContext()
    ruled = standard(POST_SCOPE + "\n终端应符合本文件的规定。")
    assert injector.no_site_reason(ruled, context) == "provision_already_in_scope"
    no_object = standard("本文件规定了有关要求。\n本文件适用于有关工作。")
    assert list(injector.sites(no_object, context)) == []
    assert injector.no_site_reason(no_object, context) == "no_scope_object"


# --- SCP-02: the forms drafters get wrong, each one the checker reports -------------------------------------


def test_scp02_draws_official_prose_verbs_and_the_purpose_formula_and_each_is_reported() -> None:
    document = standard(POST_SCOPE)
    found = instances("SCP-02", document, seeds=80)
    forms = Counter(i.provenance.form for i in found)
    assert {"提出了", "明确了", "旨在规范"} <= set(forms), forms
    assert max(forms.values()) <= 0.4 * len(found), forms
    for instance in found:
        assert shows(instance, document), instance.description
    purpose = standard(POST_SCOPE.replace("本文件规定了", "本文件旨在规范"))
    assert any("旨在" in v.message for v in lint(purpose, ["SCP-02"]))


# --- SCP-05: a dropped qualifier only where the boundary really widens --------------------------------------

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
    document = standard(WIDE_SCOPE, title=WIDE_TITLE)
    cases = _qualifier_cases(document)
    assert ("住宅小区内设置的", "文件名称“住宅小区 充电桩管理终端 技术要求”仍限于“住宅小区”", None) in cases
    found = [i for i in instances("SCP-05", document) if not added(i)]
    assert found and all(i.provenance.form == "删去限定语" for i in found)
    for instance in found:
        assert "住宅小区内设置的" not in instance.corrupted_section.text


def test_scp05_refuses_a_qualifier_that_a_defined_term_still_says() -> None:
    terms = (
        "下列术语和定义适用于本文件。\n3.1\n交流充电桩管理终端 terminal\n"
        "设置在住宅小区内，管理交流充电桩的终端设备。"
    )
    document = standard(WIDE_SCOPE, title=WIDE_TITLE, terms=terms)
    assert [b for _, _, b in _qualifier_cases(document)] == ["术语“交流充电桩管理终端”"]
    assert not [i for i in instances("SCP-05", document) if not added(i)]


def test_scp05_refuses_a_qualifier_that_the_scopes_exclusion_or_short_name_still_says() -> None:
    excluded = standard(WIDE_SCOPE + "\n本文件不适用于住宅小区以外设置的充电设施。", title=WIDE_TITLE)
    assert any(b and b.startswith("排除陈述") for _, _, b in _qualifier_cases(excluded))
    assert not [i for i in instances("SCP-05", excluded) if i.provenance.form == "删去限定语"]
    short = standard(
        "本文件规定了住宅小区交流充电桩管理终端（以下简称管理终端）的功能要求。\n"
        "本文件适用于住宅小区内设置的管理终端的设计和验收。"
    )
    assert any(b == "简称“管理终端”" for _, _, b in _qualifier_cases(short))


def test_scp05_excludes_a_regulated_object_but_no_test_equipment() -> None:
    body = POST_BODY.replace(
        "4.2 显示\n显示屏应能显示充电电量和费用。", "4.2 显示屏\n显示屏应能显示充电电量和费用。"
    )
    body = body.replace("6.1 计量试验", "6.1 试验设备\n试验设备应经过校准。\n6.2 计量试验")
    document = standard(WIDE_SCOPE.replace("住宅小区内设置的", ""), body)
    found = [i for i in instances("SCP-05", document, seeds=24) if added(i)]
    assert found
    for instance in found:
        assert "显示屏" in added(instance) and "试验设备" not in added(instance)
        # a sentence of its own: a display screen is not a thing of the kind the boundary lists
        assert "除外" not in added(instance) and "不在此列" not in added(instance)
        assert "4.2" in instance.description  # the clause that regulates what the scope now excludes


# --- NREF: why a type has no site --------------------------------------------------------------------------


def test_nref_skip_reasons_name_the_list_state() -> None:
    context = InjectionContext()
    listed = "GB/T 2423.1—2008　电工电子产品环境试验　第2部分：试验方法　试验A：低温"
    clean = nref_documents.standard(listed, "传感器应按GB/T 2423.1—2008进行低温试验。")
    uncited = nref_documents.standard(listed, "传感器应进行低温试验。")
    assert injectors()["NREF-02"].no_site_reason(uncited, context) == "already_in_original"
    assert injectors()["NREF-03"].no_site_reason(clean, context) == "no_informative_citation"
    assert injectors()["NREF-04"].no_site_reason(clean, context) == "one_entry"
    no_list = standard(POST_SCOPE)
    assert injectors()["NREF-01"].no_site_reason(no_list, context) == "no_reference_list"
    assert injectors()["SCP-04"].no_site_reason(no_list, context) in ("no_untreated_aspect", "no_scope_list")


def test_nref05_takes_the_hyphen_no_more_often_than_its_other_forms() -> None:
    """Every dated citation is a hyphen site: five of them beside one undated normative citation gave the
    hyphen to nearly every instance; each form offers a few sites, spread through the document."""
    listed = "\n".join(
        (
            "GB/T 2423.1—2008　电工电子产品环境试验　第2部分：试验方法　试验A：低温",
            "GB/T 2423.2—2008　电工电子产品环境试验　第2部分：试验方法　试验B：高温",
            "GB/T 4208　外壳防护等级（IP代码）",
        )
    )
    body = (
        "传感器应按GB/T 2423.1—2008进行低温试验。传感器应按GB/T 2423.2—2008进行高温试验。\n"
        "低温试验的持续时间见GB/T 2423.1—2008。高温试验的持续时间见GB/T 2423.2—2008。\n"
        "外壳防护等级应符合GB 4208的规定。"
    ).replace("GB 4208", "GB/T 4208")
    document = nref_documents.standard(listed, body)
    injector = injectors()["NREF-05"]
    sites = list(injector.sites(document, InjectionContext()))
    kinds = Counter(s.detail[0] for s in sites)
    # the hyphen is one form among several: never most of the sites
    assert kinds["specific"] >= 1 and kinds["year"] >= 1 and kinds["dash"] <= sum(kinds.values()) / 2, kinds
    forms = Counter(i.provenance.form for i in instances("NREF-05", document, seeds=30))
    assert forms["dash"] <= 0.6 * sum(forms.values()) and len(forms) >= 2, forms
