"""Tests of SCP-01 范围中含有要求 (Provision inside the Scope)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.instance import ErrorInstance
from injectors.registry import injectors
from parsers.model import Document
from tests.injectors.types.scp.scp_documents import (
    CABINET_BODY,
    CABINET_SCOPE,
    POST_SCOPE,
    added_text,
    charger_standard,
    corpus,
    corpus_instances,
    scope_findings,
    scope_standard,
    shows,
)


@pytest.mark.parametrize(
    "sentence",
    [
        "柜体的安装单位应每年检查一次门锁。",
        "使用本文件时，柜门宜朝向通道。",
        "在本文件的适用范围内，柜体可采用不锈钢制作。",
        "工具柜不应设置在消防通道内。",
        "柜体必须可靠接地。",
    ],
)
def test_provision_in_scope_is_reported(sentence: str) -> None:
    doc = scope_standard(
        f"本文件规定了社区共享工具柜的技术要求和试验方法。{sentence}\n本文件适用于社区内设置的共享工具柜。"
    )
    assert scope_findings(doc) == [("1", "SCP-01")]
    message = next(v.message for v in lint(doc, ["SCP-01"]))
    assert sentence.rstrip("。").split("，")[-1] in message


def test_prohibition_in_a_2009_scope_is_reported() -> None:
    doc = scope_standard(
        "本标准规定了社区共享工具柜的技术要求。扩展功能时不得改变柜体结构。\n本标准适用于社区内设置的共享工具柜。",
        generation=2009,
    )
    assert scope_findings(doc) == [("1", "SCP-01")]


def corpus_instances_by_seed(type_id: str, documents: list[Document], seeds: int = 3) -> list[ErrorInstance]:
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


def test_scp01_uses_the_short_name_and_the_bodys_chapters_where_no_requirement_names_the_object() -> None:
    documents = [charger_standard(POST_SCOPE, number=99961 + n) for n in range(10)]
    document = documents[0]
    found = corpus_instances_by_seed("SCP-01", documents)
    by_id = {d.doc_id: d for d in documents}
    assert len(found) >= 20
    body = "".join(s.text for s in document.sections if s.kind == "clause")
    for instance in found:
        assert instance.location == "1" and shows(instance, by_id[instance.doc_id])
        assert added_text(instance) not in body
    texts = "".join(added_text(i) for i in found)
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
    documents = [charger_standard(scope, body, number=99961 + n) for n in range(10)]
    found = corpus_instances_by_seed("SCP-01", documents)
    by_id = {d.doc_id: d for d in documents}
    assert len(found) >= 25
    for instance in found:
        assert instance.location == "1" and shows(instance, by_id[instance.doc_id])
        assert not added_text(instance).startswith("非"), added_text(instance)
    forms = Counter(i.provenance.form for i in found)
    assert len(forms) >= 3 and max(forms.values()) <= 0.4 * len(found), forms


def test_scp01_forms_take_turns_over_a_corpus_of_mixed_material() -> None:
    """Documents that allow different sets of forms (a scope naming only its object; one naming
    activities, with requirement and method chapters) still spread their forms over the release: a turn
    counted by each document's own number of forms gave one form to four of nine real scopes."""
    rich = [charger_standard(POST_SCOPE, number=99961 + n) for n in range(6)]
    scope = "本文件规定了停车场雨量传感器的选型方法。\n本文件适用于停车场雨量传感器。"
    plain = [charger_standard(scope, number=99971 + n, title="停车场 雨量传感器 选型") for n in range(6)]
    documents = [d for pair in zip(rich, plain, strict=True) for d in pair]
    forms = Counter(i.provenance.form for i in corpus_instances_by_seed("SCP-01", documents, seeds=1))
    assert sum(forms.values()) == len(documents)
    assert len(forms) >= 5 and max(forms.values()) <= 0.25 * len(documents), forms


def test_scp01_skip_reasons_say_why() -> None:
    injector = injectors()["SCP-01"]
    context = InjectionContext()
    ruled = charger_standard(POST_SCOPE + "\n终端应符合本文件的规定。")
    assert injector.no_site_reason(ruled, context) == "provision_already_in_scope"
    no_object = charger_standard("本文件规定了有关要求。\n本文件适用于有关工作。")
    assert list(injector.sites(no_object, context)) == []
    assert injector.no_site_reason(no_object, context) == "no_scope_object"


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
