"""Traceability checks and expectation suites: critical failures fail the build, the rest flag instances."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pyarrow as pa
import pytest

from injectors.planner import InjectionResult
from parsers.model import Section
from release.tables import INSTANCES_SCHEMA, build_tables
from tests.support.release_data import injected, text_instance, with_added_text, with_unreplayable
from validation.suites import ExpectationOutcome, SuiteResult, validate_release
from validation.traceability import (
    ENGLISH_PROSE,
    LEAKED_HEADING,
    REFUSAL,
    REPLAY_MISMATCH,
    check_result,
    check_results,
    text_flags,
)

ORIGINAL = Section("5.2", "安全距离", "机器人与人员之间的距离应不小于0.5 m。", 2, "clause")


def codes(text: str) -> list[str]:
    return [f.code for f in text_flags(Section("5.2", "安全距离", text, 2, "clause"), ORIGINAL)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("【5.2 安全距离】机器人与人员之间的距离宜不小于0.5 m。", [LEAKED_HEADING]),
        ("5.2.1 机器人与人员之间的距离宜不小于0.5 m。", [LEAKED_HEADING]),
        ("[5.1] 机器人与人员之间的距离宜不小于0.5 m。", [LEAKED_HEADING]),
        ("抱歉，我无法完成该请求。", [REFUSAL]),
        ("作为一个AI，我不能修改标准。", [REFUSAL]),
        ("I'm sorry, but I cannot rewrite this section.", [ENGLISH_PROSE, REFUSAL]),
        ("机器人与人员 The distance between robot and person shall be large 之间", [ENGLISH_PROSE]),
        ("机器人与人员之间的距离宜不小于0.5 m。", []),
        ("GB/T 15706—2012 Safety of machinery general principles for design risk assessment", []),
        ("[1] ISO 10218-2:2011 Robots and robotic devices safety requirements for industrial robots", []),
    ],
)
def test_text_checks_catch_llm_artefacts_but_not_reference_titles(text: str, expected: list[str]) -> None:
    assert sorted(codes(text)) == sorted(expected)


def test_text_checks_count_only_what_the_corrupted_section_adds() -> None:
    original = Section("2", "规范性引用文件", "【注】见下表。", 1, "normative_references")
    corrupted = Section(
        "2", "规范性引用文件", "【注】见下表。本文件没有规范性引用文件。", 1, "normative_references"
    )
    assert text_flags(corrupted, original) == []


def test_injected_corpus_documents_pass_every_traceability_check() -> None:
    flags = check_results(injected())
    assert flags and all(not f for f in flags.values())
    assert len(flags) == sum(len(r.instances) for r in injected())


def test_an_added_refusal_and_a_leaked_heading_are_flagged() -> None:
    result = injected()[0]
    victim = text_instance(result)
    spoiled = with_added_text(result, victim, "抱歉，我无法完成这个请求。")
    flags = check_result(spoiled)
    assert [f.code for f in flags[victim.instance_id]] == [REFUSAL]
    other = text_instance(spoiled, start_free=True, skip=1)
    leaked = with_added_text(spoiled, other, "【5.2.2.5 提示及引导】", at_start=True)
    assert [f.code for f in check_result(leaked)[other.instance_id]] == [LEAKED_HEADING]


def test_a_corrupted_section_that_does_not_replay_is_reported() -> None:
    result = injected()[0]
    victim = text_instance(result)
    flags = check_result(with_unreplayable(result, victim))
    assert [f.code for f in flags[victim.instance_id]] == [REPLAY_MISMATCH]


@pytest.fixture(scope="module")
def clean(tmp_path_factory: pytest.TempPathFactory) -> tuple[SuiteResult, Path]:
    results = injected()
    checks = check_results(results)
    tables = build_tables(results, checks)
    out = tmp_path_factory.mktemp("validation")
    return validate_release(
        tables.documents, tables.instances, checks, min_errors=10, max_errors=18, out_dir=out
    ), out


def spoiled_results() -> tuple[list[InjectionResult], dict[str, str]]:
    """Three documents with one problem each kind: the ids of the instances that carry them."""
    first, second, third = injected()
    refusal = text_instance(first)
    first = with_added_text(first, refusal, "抱歉，我无法完成这个请求。")
    english = text_instance(first, skip=1)
    first = with_added_text(first, english, " The requirement shall apply to every robot cell in service.")
    unreplayable = text_instance(second)
    second = with_unreplayable(second, unreplayable)
    ids = {"refusal": refusal.instance_id, "english": english.instance_id, "replay": unreplayable.instance_id}
    return [first, second, third], ids


@pytest.fixture(scope="module")
def spoiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[SuiteResult, dict[str, str], list[str]]:
    results, ids = spoiled_results()
    checks = check_results(results)
    tables = build_tables(results, checks)
    rows = tables.instances.to_pylist()
    free = [n for n, r in enumerate(rows) if r["instance_id"] not in ids.values()]
    duplicate, mismatch, description = (rows[n] for n in free[:3])
    ids["duplicate"] = duplicate["instance_id"]
    rows.append(dict(duplicate))  # a duplicate id
    ids["mismatch"] = mismatch["instance_id"]
    mismatch["dimension"] = "TER" if mismatch["dimension"] != "TER" else "STR"  # type and dimension disagree
    ids["description"] = description["instance_id"]
    description["description"] = "Error: the requirement was weakened; fix: restore it."
    instances = pa.Table.from_pylist(rows, schema=INSTANCES_SCHEMA)
    low = min(len(r.instances) for r in results)  # the range low..low: the other documents are out of it
    over = sorted(r.original.doc_id for r in results if len(r.instances) > low)
    assert over, "the three documents should not all have the same number of errors"
    out = tmp_path_factory.mktemp("validation_bad")
    result = validate_release(
        tables.documents, instances, checks, min_errors=low, max_errors=low, out_dir=out
    )
    return result, ids, over


def outcome(result: SuiteResult, name: str) -> ExpectationOutcome:
    return next(o for o in result.outcomes if o.name == name)


def test_clean_release_passes_every_expectation(clean: tuple[SuiteResult, Path]) -> None:
    result, out = clean
    assert result.success and not result.non_critical_failures
    assert {o.table for o in result.outcomes} == {"documents", "instances"}
    assert result.flags() == {}
    saved = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert saved["success"] is True and len(saved["expectations"]) == len(result.outcomes)
    assert (out / "gx_results.json").is_file()
    assert (out / "data_docs" / "index.html").is_file()


def test_critical_failures_name_the_failing_rows(
    spoiled: tuple[SuiteResult, dict[str, str], list[str]],
) -> None:
    result, ids, over = spoiled
    assert not result.success
    critical = {o.name for o in result.critical_failures}
    assert critical == {
        "instance_id_unique",
        "type_matches_dimension",
        REPLAY_MISMATCH,
        "errors_per_document",
    }
    assert outcome(result, "instance_id_unique").failing_ids == (ids["duplicate"],)
    assert outcome(result, "type_matches_dimension").failing_ids == (ids["mismatch"],)
    assert outcome(result, REPLAY_MISMATCH).failing_ids == (ids["replay"],)
    assert list(outcome(result, "errors_per_document").failing_ids) == over


def test_non_critical_failures_flag_instances(spoiled: tuple[SuiteResult, dict[str, str], list[str]]) -> None:
    result, ids, _ = spoiled
    assert outcome(result, REFUSAL).critical is False
    assert outcome(result, REFUSAL).failing_ids == (ids["refusal"],)
    assert outcome(result, ENGLISH_PROSE).failing_ids == (ids["english"],)
    assert ids["description"] in outcome(result, "description_chinese").failing_ids
    flags = result.flags()
    assert [f.code for f in flags[ids["refusal"]]] == [REFUSAL]
    assert "description_chinese" in [f.code for f in flags[ids["description"]]]
    assert REPLAY_MISMATCH not in [
        f.code for fs in flags.values() for f in fs
    ]  # critical ones gate, not flag


def test_great_expectations_prints_no_progress_bars(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], clean: tuple[SuiteResult, Path]
) -> None:
    results = injected()
    checks = check_results(results)
    tables = build_tables(results, checks)
    capfd.readouterr()
    validate_release(tables.documents, tables.instances, checks, min_errors=10, max_errors=18)
    captured = capfd.readouterr()
    assert "Calculating Metrics" not in captured.err + captured.out
    assert "%|" not in captured.err


def _pages(site: Path) -> dict[str, str]:
    """A Data Docs site's pages by path, with what differs from run to run (time stamps in paths and
    pages, the random ids of page elements) made equal."""
    stamp = re.compile(
        r"\d{8}T\d{6}\.\d{6}Z|\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?|'_run_time_sort': [\d.]+"
        r"|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    )
    return {
        stamp.sub("T", str(p.relative_to(site))): stamp.sub("T", p.read_text(encoding="utf-8"))
        for p in site.rglob("*.html")
    }


def test_data_docs_templates_are_compiled_once_per_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GX makes a jinja environment per page, and jinja compiled every template again for each: the Data
    Docs views share their compiled templates, and render the pages GX's default views render."""
    import jinja2

    from validation.data_docs_view import TEMPLATES

    TEMPLATES.clear()  # as in a process that has built no site yet
    compiled: list[str | None] = []
    compile_template = jinja2.Environment.compile

    def counted(self: jinja2.Environment, source: str, name: str | None = None, *args: object) -> object:
        compiled.append(name)
        return compile_template(self, source, name, *args)

    monkeypatch.setattr(jinja2.Environment, "compile", counted)
    results = injected()
    checks = check_results(results)
    tables = build_tables(results, checks)
    sites = []
    for run in ("first", "second"):
        compiled.clear()
        validate_release(
            tables.documents, tables.instances, checks, min_errors=10, max_errors=18, out_dir=tmp_path / run
        )
        sites.append((tmp_path / run / "data_docs", len(compiled)))
    (first, first_compiled), (second, second_compiled) = sites
    assert first_compiled > 10 and second_compiled == 0
    pages = _pages(first)
    assert "index.html" in pages and any(p.startswith("validations/") for p in pages)
    assert _pages(second) == pages
    monkeypatch.setattr("validation.suites._view", lambda name: {"class_name": f"DefaultJinja{name}"})
    TEMPLATES.clear()
    validate_release(
        tables.documents, tables.instances, checks, min_errors=10, max_errors=18, out_dir=tmp_path / "gx"
    )
    assert _pages(tmp_path / "gx" / "data_docs") == pages  # GX's own views, compiling as they always did
