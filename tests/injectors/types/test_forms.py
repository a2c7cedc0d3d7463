"""Instances record which of their type's forms they take; a release keeps it and the audit reads it."""

from __future__ import annotations

import random
from pathlib import Path

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import Edit
from injectors.instance import InjectionProvenance
from injectors.registry import injectors
from parsers.text import parse_text
from release.structs import provenance_row
from validation.audit.forms import GOAL, audit_forms, type_forms
from validation.audit.release import AuditInstance, Release, _form

SAMPLE = """GB/T 99991—2025
示例烘干机 技术要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
本文件由示例标准化技术委员会提出并归口。
1 范围
本文件规定了示例烘干机的技术要求。
本文件适用于家用示例烘干机。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
4 技术要求
4.1 外观
机身表面应平整，无划痕。
4.2 噪声
运行噪声应不大于60 dB。
"""


def test_release_row_keeps_the_form() -> None:
    row = provenance_row(InjectionProvenance("rule", "1", 0, form="前言"))
    assert row["form"] == "前言"
    assert provenance_row(InjectionProvenance("rule", "1", 0))["form"] is None


def test_the_audit_reads_the_form_from_a_struct_or_an_old_json_string() -> None:
    assert _form({"generator": "rule", "form": "范围"}) == "范围"
    assert _form('{"generator": "rule"}') is None
    assert _form(None) is None


def test_share_of_the_most_frequent_form_and_when_the_goal_applies() -> None:
    monotone = type_forms("STR-01", ["前言"] * 10, declared=("前言", "范围", "术语和定义"))
    assert (monotone.top, monotone.top_share, monotone.forms) == ("前言", 1.0, 3)
    assert monotone.passed is False  # declared forms count: one form seen is no excuse
    varied = type_forms("STR-01", ["前言", "范围", "术语和定义", "前言", "范围"])
    assert varied.top_share == GOAL and varied.passed is True
    assert type_forms("TER-02", ["a", "b"] * 5).passed is None  # two forms: no goal
    assert type_forms("NMS-04", ["一般", "最好", "尽量"]).passed is None  # too few instances to judge


def _instance(error_type: str, form: str | None) -> AuditInstance:
    return AuditInstance("id", "doc", error_type, "1", None, None, Edit("modify", 0), form=form)


def test_audit_counts_forms_per_type() -> None:
    release = Release(
        Path("."),
        (),
        tuple(_instance("STR-01", f) for f in ["前言", "前言", "范围", None]),
    )
    found = audit_forms(release, ["STR-01", "STR-02"], {"STR-01": ("前言", "范围", "术语和定义")})
    assert found["STR-01"].instances == 3 and found["STR-01"].top == "前言"
    assert found["STR-01"].top_share == round(2 / 3, 3)
    assert found["STR-02"].instances == 0 and found["STR-02"].passed is None


def test_an_injected_instance_records_its_form() -> None:
    document = parse_text(Path("sample.txt"), SAMPLE.encode())
    injector = injectors()["STR-01"]
    seen = set()
    for seed in range(12):
        attempt = injector.inject(Baseline(document), random.Random(seed), InjectionContext(), seed=seed)
        assert attempt.instance is not None
        seen.add(attempt.instance.provenance.form)
    assert seen <= set(injector.forms) and len(seen) >= 2


def test_the_planner_takes_the_form_earlier_documents_took_least() -> None:
    """Of a type's candidates in a document, the corpus-wide choice prefers the one whose form earlier
    documents took least: a type's forms take turns instead of the first alternative always winning."""
    from collections import Counter

    from injectors.planner import PlanConfig, candidate_instances, choose, form_key

    document = parse_text(Path("sample.txt"), SAMPLE.encode())
    config = PlanConfig(min_errors=1, max_errors=1, types=("STR-01",))
    candidates = candidate_instances(document, 3, InjectionContext(), config)
    first, second, *rest = candidates.instances
    assert first.provenance.form != second.provenance.form
    assert choose(candidates, 3, config, said=Counter()) == [first]
    said = Counter({form_key(first): 2, form_key(second): 1} | {form_key(i): 2 for i in rest})
    assert choose(candidates, 3, config, said=said) == [second]
