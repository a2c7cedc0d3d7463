"""The LLM path end to end: the production client and rewriter against a scripted chat-completions server.

Every behaviour of the test server goes through `inject_document` (or `Injector.inject`): the build
completes, no answer that breaks a constraint reaches an instance, and retries, fallbacks and flags are
counted and written into provenance. Also: the cache makes a second run request-free and identical, the
API key appears nowhere. The settings and the `--llm` command-line option are tested in test_llm_options.py.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import replace
from pathlib import Path

import pytest

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.edit import apply_replacements
from injectors.llm.client import LLMClient
from injectors.llm.config import LLMConfig
from injectors.llm.settings import supported_types
from injectors.planner import slot_rng
from injectors.registry import injectors
from parsers.model import Document
from tests.servers.chat_completions import Behaviour, ChatCompletionsServer, Rule
from tests.support.llm_run import SENTINEL, assert_clean, make_rewriter, only, run


@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)


@pytest.fixture(scope="module")
def battery(corpus_documents: list[Document]) -> Document:
    """A corpus standard with sites for every scope, modality and terminology type the LLM rewrites."""
    return next(d for d in corpus_documents if "battery-storage" in d.source)


# --- correct answers ---------------------------------------------------------------------------------------
def test_correct_rewrites_become_llm_instances(battery: Document, context: InjectionContext) -> None:
    with ChatCompletionsServer() as server:
        result, rewriter = run(battery, context, server, supported_types())
    llm = [i for i in result.instances if i.provenance.generator == "llm"]
    # the server's descriptions quote whole sentences: where two errors share a sentence, the one whose
    # quote the other changed no longer holds on the assembled document and is replaced
    assert len(llm) >= 6, [(i.error_type, i.provenance.generator) for i in result.instances]
    assert len({i.error_type for i in llm}) >= 6
    for i in llm:
        p = i.provenance
        assert p.model == "scripted-model" and p.prompt_id.startswith(i.error_type + "@")
        assert re.fullmatch(r"[0-9a-f]{64}", p.cache_key or "")
        assert p.llm_attempts == 1 and p.llm_failures == () and p.fallback_reason is None
        assert i.description.startswith("错误：") and "修改建议：" in i.description
        if i.edit.op == "modify" and not i.edit.renames:
            assert (
                apply_replacements(i.original_section, i.edit.replacements).text == i.corrupted_section.text
            )
    assert_clean(result)
    assert {r.response_format for r in server.requests} == {"json_schema"}
    assert all(r.seed is not None for r in server.requests)
    assert rewriter.stats["accepted"] >= len(llm)


def test_every_supported_type_can_be_written_by_the_llm(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    from tests.injectors.types.ter.ter_documents import llm_writable_cases

    available = injectors()
    accepted: set[str] = set()
    # TER-01/TER-02 take entries out or rename them on the corpus (nothing to write): their written forms
    # come from documents the TER tests write
    cases = [*((doc, context) for doc in corpus_documents), *llm_writable_cases()]
    with ChatCompletionsServer() as server, make_rewriter(server) as rewriter:
        for error_type in supported_types():
            for doc, known in cases:
                attempt = available[error_type].inject(
                    Baseline(doc), slot_rng(0, doc.doc_id, error_type), known, rewriter=rewriter
                )
                if attempt.instance is not None and attempt.instance.provenance.generator == "llm":
                    accepted.add(error_type)
                    break
    assert accepted == set(supported_types())


def test_a_rewrite_other_than_the_template_is_validated_and_minimal(
    battery: Document, context: InjectionContext
) -> None:
    """The server's own NMS-01 edit (the first 应 of the section → 宜) ships as a one-character edit."""
    with ChatCompletionsServer(default=Behaviour("own")) as server:
        result, _ = run(battery, context, server, ("NMS-01",))
    (instance,) = only(result, "NMS-01")
    assert instance.provenance.generator == "llm"
    (replacement,) = instance.edit.replacements
    assert (replacement.old, replacement.new) == ("应", "宜")


# --- bad answers: retried with feedback, never shipped ----------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "code"),
    [
        ("malformed", "json"),
        ("refusal", "refusal"),
        ("leaked_heading", "leaked_heading"),
        ("unchanged", "unchanged"),
    ],
)
def test_a_bad_answer_is_retried_with_feedback(
    battery: Document, context: InjectionContext, kind: str, code: str
) -> None:
    rules = [Rule(Behaviour(kind), error_type="NMS-01", retry=False)]  # every first answer is bad
    with ChatCompletionsServer(rules) as server:
        result, rewriter = run(battery, context, server, ("NMS-01",))
    (instance,) = only(result, "NMS-01")
    assert instance.provenance.generator == "llm"
    assert instance.provenance.llm_attempts == 2 and instance.provenance.llm_failures[0] == code
    assert rewriter.stats.failures[code] >= 1
    retries = [r for r in server.requests if r.retry]
    assert retries and all(r.kind == "rewrite" for r in retries)
    assert_clean(result)


def test_feedback_names_the_failed_constraint(battery: Document, context: InjectionContext) -> None:
    seen: list[str] = []

    class Recording(ChatCompletionsServer):
        def handle(self, handler, body, messages):  # type: ignore[no-untyped-def]
            if len(messages) > 2:
                seen.append(messages[-1]["content"])
            super().handle(handler, body, messages)

    with Recording([Rule(Behaviour("leaked_heading"), error_type="NMS-01", retry=False)]) as server:
        run(battery, context, server, ("NMS-01",))
    assert seen and "未通过检查" in seen[0] and "标题" in seen[0] and "leading" not in seen[0]


def test_an_edit_outside_the_target_section_is_refused(battery: Document, context: InjectionContext) -> None:
    """SCP-03 shows the scope as context; an answer that edits the scope instead never ships."""
    rules = [Rule(Behaviour("outside_target"), error_type="SCP-03", retry=False)]
    with ChatCompletionsServer(rules) as server:
        result, rewriter = run(battery, context, server, ("SCP-03",))
    (instance,) = only(result, "SCP-03")
    assert "outside_target" in instance.provenance.llm_failures
    assert instance.provenance.generator == "llm" and instance.provenance.llm_attempts == 2
    scope = next(s for s in battery.sections if s.kind == "scope")
    assert result.corrupted.section(scope.number).text == scope.text
    assert rewriter.stats.failures["outside_target"] >= 1
    assert_clean(result)


def test_answers_that_always_fail_fall_back_to_the_rule_template(
    battery: Document, context: InjectionContext
) -> None:
    with ChatCompletionsServer([Rule(Behaviour("leaked_heading"), error_type="NMS-01")]) as server:
        result, rewriter = run(battery, context, server, ("NMS-01",))
    (instance,) = only(result, "NMS-01")
    p = instance.provenance
    assert p.generator == "rule-template" and p.fallback_reason == "constraints:leaked_heading"
    assert p.llm_attempts == 3 and p.llm_failures == ("leaked_heading",) * 3
    assert p.model == "scripted-model" and p.cache_key is not None
    fallbacks = rewriter.stats["fallbacks"]
    assert fallbacks >= 1 and rewriter.stats.failures["leaked_heading"] == 3 * fallbacks
    assert_clean(result)


def test_no_template_and_no_valid_answer_is_flagged_not_shipped(
    battery: Document, context: InjectionContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    injector = injectors()["NMS-01"]
    monkeypatch.setattr(type(injector), "propose", lambda self, *args: None)
    with ChatCompletionsServer([Rule(Behaviour("refusal"), error_type="NMS-01")]) as server:
        result, rewriter = run(battery, context, server, ("NMS-01",))
    assert not only(result, "NMS-01")
    assert result.flagged and all(f.error_type == "NMS-01" for f in result.flagged)
    assert "refusal" in result.flagged[0].reasons and result.flagged[0].candidate_section is None
    assert result.to_dict()["flagged"][0]["provenance"]["generator"] == "llm"
    assert rewriter.stats["flagged"] == len(result.flagged)
    # without a template a valid answer still ships (the server's own edit)
    with ChatCompletionsServer() as server:
        result, _ = run(battery, context, server, ("NMS-01",))
    (instance,) = only(result, "NMS-01")
    assert instance.provenance.generator == "llm" and not result.flagged


# --- transport failures: retried by the client, counted, recorded ------------------------------------------
@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("rate_limit", "rate_limited"),
        ("server_error", "server_error"),
        ("hang", "timeout"),
        ("malformed_body", "bad_response"),
    ],
)
def test_transport_failures_are_retried(
    battery: Document, context: InjectionContext, kind: str, reason: str
) -> None:
    # each NMS-01 site's first request fails once (the type offers several candidates, one of them ships)
    rules = [Rule(Behaviour(kind, retry_after=0.4, hang=10.0), error_type="NMS-01", once_per_prompt=True)]
    timeout = 1.0 if kind == "hang" else 10.0  # short only where the hang must outlast it
    with ChatCompletionsServer(rules) as server:
        result, rewriter = run(battery, context, server, ("NMS-01",), timeout=timeout)
    (instance,) = only(result, "NMS-01")
    assert instance.provenance.generator == "llm"
    assert instance.provenance.llm_failures == (f"transport:{reason}",)
    assert rewriter.stats.failures[reason] == rewriter.stats["retries"] >= 1
    if kind == "rate_limit":  # Retry-After honoured
        first, second = server.requests[:2]
        assert second.started - first.started >= 0.38
    if kind == "hang":  # the client gave up at its own timeout, long before the server's 10 s (the margin
        first, second = server.requests[:2]  # is for a busy CI machine; the server stops hanging at exit)
        assert 0.95 <= second.started - first.started < 8.0


def test_a_server_that_keeps_failing_leads_to_the_template(
    battery: Document, context: InjectionContext
) -> None:
    with ChatCompletionsServer(default=Behaviour("server_error")) as server:
        # a breaker past every site's failures: this test is about retries, not the breaker
        result, rewriter = run(battery, context, server, ("NMS-01",), max_retries=1, breaker_failures=100)
    (instance,) = only(result, "NMS-01")
    assert instance.provenance.generator == "rule-template"
    assert instance.provenance.fallback_reason == "transport:server_error"
    requests = rewriter.stats["requests"]  # max_retries=1: two requests per site, then the template
    assert requests == 2 * rewriter.stats["fallbacks"] == rewriter.stats.failures["server_error"] > 0


def test_latency_is_only_slower(battery: Document, context: InjectionContext) -> None:
    with ChatCompletionsServer(default=Behaviour("rewrite", latency=0.05)) as server:
        result, _ = run(battery, context, server, ("NMS-02",))
    (instance,) = only(result, "NMS-02")
    assert instance.provenance.generator == "llm"


def test_json_schema_refused_steps_down_to_json_object(battery: Document, context: InjectionContext) -> None:
    with ChatCompletionsServer(json_schema=False) as server:
        result, rewriter = run(battery, context, server, ("NMS-01",))
    assert only(result, "NMS-01")[0].provenance.generator == "llm"
    assert [r.response_format for r in server.requests[:2]] == ["json_schema", "json_object"]
    assert rewriter.stats["response_format_downgrades"] == 1


def test_mixed_bad_behaviour_never_reaches_an_instance(battery: Document, context: InjectionContext) -> None:
    """Every other request misbehaves in turn; whatever ships passed every constraint."""
    kinds = ["refusal", "leaked_heading", "malformed", "unchanged", "outside_target", "server_error"]
    rules = [Rule(Behaviour(k), requests=range(i, 400, 2 * len(kinds))) for i, k in enumerate(kinds)]
    with ChatCompletionsServer(rules) as server:
        result, rewriter = run(battery, context, server, supported_types())
    assert result.instances
    assert_clean(result)
    served = {r.kind for r in server.requests}
    assert {"refusal", "leaked_heading", "malformed", "server_error"} <= served
    assert {"refusal", "leaked_heading", "json"} <= set(rewriter.stats.failures)
    retried = [i for i in result.instances if i.provenance.generator == "llm" and i.provenance.llm_failures]
    assert retried  # some instances shipped after a bad first answer, with the failures in provenance


# --- cache -------------------------------------------------------------------------------------------------
def test_second_run_asks_only_for_refused_answers_and_gives_identical_instances(
    battery: Document, context: InjectionContext, tmp_path: Path
) -> None:
    cache = tmp_path / "llm.sqlite"
    types = ("SCP-03", "NMS-01", "TER-03", "TER-04")
    rules = [
        Rule(Behaviour("refusal"), error_type="TER-04", retry=False),
        Rule(Behaviour("rate_limit", retry_after=0.05), times=1),
    ]
    with ChatCompletionsServer(rules) as server:
        first, one = run(battery, context, server, types, cache)
        requests, refused = server.count(), server.count("refusal")
        second, two = run(battery, context, server, types, cache)
        # only the refusals are asked again (an answer that failed its constraints is not kept); the
        # feedback round after each is answered from the cache, so the instances are the same
        assert (
            refused >= 1 and server.count() == requests + refused == requests + server.count("refusal") // 2
        )
    assert [i.to_dict() for i in first.instances] == [i.to_dict() for i in second.instances]
    assert two.stats["requests"] == two.stats["cache_misses"] == refused
    assert two.stats["cache_hits"] == one.stats["calls"] - refused
    # a request the first run made twice (two candidates of one section) was answered from its cache too
    assert one.stats["calls"] == one.stats["cache_misses"] + one.stats["cache_hits"]
    assert 0 < two.stats["cached_prompt_tokens"] < one.stats["prompt_tokens"]


# --- the API key -------------------------------------------------------------------------------------------
def test_the_api_key_never_leaks(
    battery: Document, context: InjectionContext, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    cache = tmp_path / "llm.sqlite"
    rules = [
        Rule(Behaviour("unauthorized"), error_type="NMS-02"),  # echoes the key it received, like some vendors
        Rule(Behaviour("server_error"), times=2),
        Rule(Behaviour("leaked_heading"), error_type="NMS-01", retry=False),
    ]
    with ChatCompletionsServer(rules, api_key=SENTINEL) as server:
        result, rewriter = run(battery, context, server, ("NMS-01", "NMS-02", "TER-04"), cache)
        assert all(r.authorized for r in server.requests)
        config = LLMConfig(model="m", base_url=server.base_url, api_key=SENTINEL, timeout=1, max_retries=0)
        with LLMClient(config) as client:
            from injectors.llm.client import ChatRequest, LLMError

            with pytest.raises(LLMError) as failure:
                client.complete(ChatRequest(({"role": "user", "content": "错误类型：NMS-02"},), "p", 0))
    assert failure.value.reason == "auth"
    assert only(result, "NMS-02")[0].provenance.fallback_reason == "transport:auth"
    texts = [
        caplog.text,
        str(failure.value),
        repr(failure.value),
        repr(config),
        str(config),
        json.dumps(config.to_dict()),
        json.dumps(result.to_dict(), ensure_ascii=False),
        json.dumps(rewriter.summary()),
    ]
    for text in texts:
        assert SENTINEL not in text and SENTINEL[3:15] not in text
    for path in tmp_path.iterdir():  # the cache and its WAL
        data = path.read_bytes()
        assert SENTINEL.encode() not in data and SENTINEL[3:15].encode() not in data


# --- the validator on its own ------------------------------------------------------------------------------
def test_validator_names_each_broken_constraint(battery: Document) -> None:
    from injectors.llm.constraints import RewriteCase, validate
    from injectors.registry import llm_specs

    position, section = next(
        (i, s) for i, s in enumerate(battery.sections) if s.kind == "clause" and "应" in s.text
    )
    spec = llm_specs()["NMS-01"]  # its budget and condition, as the rewriter hands them to the validator
    case = RewriteCase(
        "NMS-01",
        battery,
        position,
        section,
        {},
        ("范围之外的参考文字。",),
        budget=spec.budget,
        condition=spec.condition,
    )
    text = section.text
    at = text.index("应")
    weakened = text[:at] + "宜" + text[at + 1 :]
    span = text[max(0, at - 3) : at + 3]
    new_span = weakened[max(0, at - 3) : at + 3]

    def codes(rewritten: str, original: str = span, new: str = new_span, description: str = "") -> list[str]:
        answer = {
            "rewritten_text": rewritten,
            "changed_span": {"original": original, "rewritten": new},
            "description": description or f"将“{span}”改为“{new_span}”，要求被弱化",
        }
        return [f.code for f in validate(case, json.dumps(answer, ensure_ascii=False))[1]]

    assert codes(weakened) == []
    assert "leaked_heading" in codes(f"【{section.heading}】{weakened}")
    assert "leaked_heading" in codes(f"{section.number} {section.title}\n{weakened}")
    assert "leaked_heading" in codes(weakened, new=f"【{section.number}】{new_span}")
    assert "refusal" in codes(weakened, description="抱歉，我无法完成这个改写。")
    assert codes(text) == ["unchanged"]
    assert codes(weakened, original="范围之外的参考文字。") == ["outside_target"]
    assert codes(weakened + "。") == ["span_mismatch"]  # a second change, outside the declared span
    assert "span_mismatch" in codes(weakened + "另外增加一句不相干的话。")
    assert "budget" in codes(weakened[:at] + "宜" * 40)
    assert codes(weakened, description="The requirement was weakened on purpose.") == ["description"]
    assert codes(weakened.replace("宜", "应", 1).replace("应", "应当", 1)) != []  # not a weakening
    assert validate(case, "not json")[1][0].code == "json"
    assert validate(case, '{"rewritten_text": "x"}')[1][0].code == "schema"


def test_a_clause_s_own_wording_is_not_taken_for_a_refusal(battery: Document) -> None:
    """ "距离无法满足时应……" is how clauses talk: an answer that keeps it (or quotes it) has not refused,
    while an apology the clause does not say still is one."""
    from injectors.llm.constraints import RewriteCase, validate
    from injectors.registry import llm_specs

    position, section = next(
        (i, s) for i, s in enumerate(battery.sections) if s.kind == "clause" and "不应" in s.text
    )
    own = section.text.replace("。", "，距离无法满足时应另行处理。", 1)
    clause = replace(section, text=own)
    spec = llm_specs()["NMS-01"]
    case = RewriteCase(
        "NMS-01", battery, position, clause, {}, (), budget=spec.budget, condition=spec.condition
    )
    at = own.index("不应")
    weakened = own[:at] + "不宜" + own[at + 2 :]
    line = weakened.split("\n")[0]

    def codes(description: str) -> list[str]:
        answer = {
            "rewritten_text": weakened,
            "changed_span": {"original": own[at : at + 4], "rewritten": weakened[at : at + 4]},
            "description": description,
        }
        return [f.code for f in validate(case, json.dumps(answer, ensure_ascii=False))[1]]

    assert (
        "无法满足" in line and codes(f"将“{own[at : at + 4]}”改为“{weakened[at : at + 4]}”，要求被弱化") == []
    )
    assert codes(f"将“{own[at : at + 4]}”改为“{weakened[at : at + 4]}”；{line[:20]}") == []
    assert "refusal" in codes("抱歉，我无法完成这个改写。")
