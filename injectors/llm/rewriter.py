"""The LLM rewriter: a semantic error written by a model, validated, retried with feedback, or replaced.

For a site and the rule template proposed there, the model rewrites the target section (prompts.py); every
answer goes through the constraint validator (injectors/llm/constraints.py) and the injector's own
verification. A failed answer is sent back with the reasons, up to `max_attempts` answers; then the rule
template is used (provenance says so and why), or, when no template fits the site, the candidate is
flagged for review and never shipped as gold. An accepted answer becomes a minimal Edit (difflib over the
section text), so instances of both paths look the same downstream.
"""

from __future__ import annotations

import difflib
import hashlib
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from injectors.base import Injector, Original, Proposal, RewriteOutcome, Site
from injectors.context import InjectionContext
from injectors.edit import Edit, EditConflict, Replacement, apply_replacements, overlaps
from injectors.instance import FlaggedCandidate, InjectionProvenance, LLMTrace
from injectors.language.quotes import whole_quotes
from injectors.llm.cache import LLMCache
from injectors.llm.client import ChatRequest, LLMClient, LLMError, LLMStats, endpoint
from injectors.llm.config import LLMConfig
from injectors.llm.constraints import Answer, Failure, RewriteCase, feedback, validate
from injectors.llm.health import stage_health
from injectors.llm.options import DEFAULT_MAX_ATTEMPTS, default_cache_path, parse_llm_mode, parse_llm_types
from injectors.llm.prompts import ANSWER_SCHEMA, Prompt, PromptInput, PromptSpec, build_prompt
from injectors.registry import llm_specs
from parsers.model import Section

_MERGE_GAP = 2  # diff pieces this close together become one replacement (a reviewer reads one change)


def _prompts() -> dict[str, PromptSpec]:
    return {t: spec.prompt for t, spec in llm_specs().items()}


@dataclass(frozen=True)
class RewriteRecord:
    """One site's conversation with the model, for the per-build report and the token benchmark."""

    doc_id: str
    error_type: str
    location: str
    outcome: str  # accepted | fallback | flagged
    attempts: int
    prompt_tokens: int
    completion_tokens: int
    cache_key: str | None


def place(section: Section) -> str:
    """How a description names the target: 第5章, 第5.2条, 前言, 附录A."""
    if section.number[:1].isdigit():
        return f"第{section.number}章" if section.level == 1 else f"第{section.number}条"
    return section.number


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def diff_replacements(before: str, after: str) -> tuple[Replacement, ...]:
    """The minimal replacements turning `before` into `after` (offsets into `before`), close pieces merged."""
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    pieces = [(i1, i2, j1, j2) for op, i1, i2, j1, j2 in matcher.get_opcodes() if op != "equal"]
    merged: list[list[int]] = []
    for i1, i2, j1, j2 in pieces:
        if merged and i1 - merged[-1][1] <= _MERGE_GAP and j1 - merged[-1][3] <= _MERGE_GAP:
            merged[-1][1], merged[-1][3] = i2, j2
        else:
            merged.append([i1, i2, j1, j2])
    return tuple(Replacement("text", i1, before[i1:i2], after[j1:j2]) for i1, i2, j1, j2 in merged)


@dataclass
class _Conversation:
    """One site's exchange with the model so far: messages, what failed, the last answer, the tokens."""

    messages: list[dict[str, str]]
    failures: list[str] = field(
        default_factory=list
    )  # every answer's failed constraints and transport faults
    answer_codes: list[str] = field(default_factory=list)  # the answers' failed constraints alone
    last_key: str | None = None
    last_answer: Answer | None = None
    attempts: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    transport: str | None = None  # why the endpoint gave no answer, when it gave none

    def fallback_reason(self) -> str:
        if self.transport is not None:
            return f"transport:{self.transport}"
        return "constraints:" + "+".join(dict.fromkeys(self.answer_codes))


class LLMRewriter:
    """Implements `injectors.base.Rewriter`; thread-safe (the client, the stats and the records are)."""

    def __init__(
        self,
        client: LLMClient,
        *,
        types: Iterable[str] | None = None,
        max_attempts: int = DEFAULT_MAX_ATTEMPTS,
        owns_client: bool = False,
    ) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        self.client = client
        self.stats: LLMStats = client.stats
        self.types = parse_llm_types(types)
        self.max_attempts = max_attempts
        self.concurrency = client.config.max_concurrency  # sites the planner may rewrite at once
        self._owns_client = owns_client
        self._lock = threading.Lock()
        self.records: list[RewriteRecord] = []

    # --- the Rewriter protocol ------------------------------------------------------------------------
    def handles(self, error_type: str) -> bool:
        return error_type in self.types

    def works_without_template(self, error_type: str) -> bool:
        return _prompts()[error_type].works_without_template

    def rewrite(
        self,
        injector: Injector,
        baseline: Original,
        site: Site,
        template: Proposal | None,
        context: InjectionContext,
        taken: Sequence[Edit],
        seed: int,
    ) -> RewriteOutcome:
        """The model's rewrite when an answer passes every constraint; else the template, else a flag."""
        error_type = injector.error_type
        document = baseline.document
        llm = llm_specs()[error_type]
        data = PromptInput(document, site, template, context)
        prompt = build_prompt(llm.prompt, data, injector.spec.name_zh)
        if prompt is None:  # the type's material is not at this site: the template stands as it is
            self.stats.add("no_prompt")
            return RewriteOutcome(template)
        case = RewriteCase(
            error_type,
            document,
            prompt.position,
            prompt.section,
            prompt.material,
            prompt.context_texts,
            inserted=template is not None and template.edit.op == "insert",
            budget=llm.budget,
            condition=llm.condition,
        )
        digest = hashlib.sha256(f"{seed}:{document.doc_id}:{error_type}:{site.target}".encode()).hexdigest()
        talk = _Conversation(list(prompt.messages))
        answer = self._converse(
            talk,
            prompt,
            case,
            int(digest[:8], 16),
            lambda a: self._confirm(injector, baseline, case, a, taken, seed, template),
        )
        model = self.client.config.model
        if answer is not None:
            trace = LLMTrace(model, prompt.prompt_id, talk.last_key, talk.attempts, tuple(talk.failures))
            self._record(document.doc_id, error_type, case, "accepted", talk)
            self.stats.add("accepted")
            self.stats.add(f"accepted:{error_type}")
            return RewriteOutcome(self._proposal(case, answer, trace, template))
        trace = LLMTrace(
            model,
            prompt.prompt_id,
            talk.last_key,
            talk.attempts,
            tuple(talk.failures),
            fallback_reason=talk.fallback_reason(),
        )
        if template is not None:
            self.stats.add("fallbacks")
            self.stats.add(f"fallback:{error_type}")
            self._record(document.doc_id, error_type, case, "fallback", talk)
            return RewriteOutcome(replace(template, generator="rule-template", llm=trace))
        self.stats.add("flagged")
        candidate = None
        if talk.last_answer is not None and talk.last_answer.rewritten_text.strip():
            candidate = replace(case.section, text=talk.last_answer.rewritten_text)
        flagged = FlaggedCandidate(
            doc_id=document.doc_id,
            error_type=error_type,
            location=case.section.number,
            original_section=case.section,
            candidate_section=candidate,
            reasons=tuple(dict.fromkeys(talk.failures)),
            provenance=InjectionProvenance("llm", injector.version, seed, **trace.provenance_fields()),
        )
        self._record(document.doc_id, error_type, case, "flagged", talk)
        return RewriteOutcome(None, flagged)

    def _converse(
        self,
        talk: _Conversation,
        prompt: Prompt,
        case: RewriteCase,
        request_seed: int,
        confirm: Callable[[Answer], list[Failure]],
    ) -> Answer | None:
        """Ask, validate, and send the failures back, up to `max_attempts` answers: the first answer that
        passes every constraint, or None (`talk` then says why)."""
        for _ in range(self.max_attempts):
            request = ChatRequest(tuple(talk.messages), prompt.prompt_id, request_seed, ANSWER_SCHEMA)
            try:
                response = self.client.complete(request)
            except LLMError as exc:
                talk.transport = exc.reason
                talk.failures.append(f"transport:{exc.reason}")
                return None
            talk.attempts += 1
            talk.prompt_tokens += response.prompt_tokens
            talk.completion_tokens += response.completion_tokens
            talk.failures.extend(f"transport:{r}" for r in response.retried)
            talk.last_key = response.cache_key
            answer, failed = validate(case, response.content, confirm)
            if not failed:
                assert answer is not None
                return answer
            # an answer that failed is not reused from the cache: the next run asks again
            self.client.forget(response.cache_key)
            # a refusal is never kept, not even as a candidate for review
            talk.last_answer = answer if all(f.code != "refusal" for f in failed) else None
            for f in failed:
                talk.failures.append(f.code)
                talk.answer_codes.append(f.code)
                self.stats.fail(f.code)
            talk.messages.append({"role": "assistant", "content": response.content[:4000]})
            talk.messages.append({"role": "user", "content": feedback(failed)})
        return None

    # --- helpers -------------------------------------------------------------------------------------------
    def _record(
        self, doc_id: str, error_type: str, case: RewriteCase, outcome: str, talk: _Conversation
    ) -> None:
        record = RewriteRecord(
            doc_id,
            error_type,
            case.section.number,
            outcome,
            talk.attempts,
            talk.prompt_tokens,
            talk.completion_tokens,
            talk.last_key,
        )
        with self._lock:
            self.records.append(record)

    @staticmethod
    def _edit(case: RewriteCase, text: str, template: Proposal | None) -> Edit:
        """The rewrite as an Edit: the template's own edit when the model wrote exactly its result (a diff
        could align the same change differently), else the minimal diff."""
        if case.inserted:
            assert template is not None and template.edit.inserted is not None
            return replace(template.edit, inserted=replace(template.edit.inserted, text=text))
        same_kind = (
            template is not None
            and template.edit.op == "modify"
            and template.edit.target == case.position
            and not template.edit.renames
            and all(r.field == "text" for r in template.edit.replacements)
        )
        if same_kind and template is not None:
            try:
                if apply_replacements(case.section, template.edit.replacements).text == text:
                    return template.edit
            except EditConflict:
                pass
        return Edit("modify", case.position, diff_replacements(case.section.text, text))

    def _confirm(
        self,
        injector: Injector,
        baseline: Original,
        case: RewriteCase,
        answer: Answer,
        taken: Sequence[Edit],
        seed: int,
        template: Proposal | None,
    ) -> list[Failure]:
        """The last constraints: no overlap with other errors, the type's checker fires, nothing else does."""
        edit = self._edit(case, answer.rewritten_text, template)
        clashes = [other for other in taken if overlaps(edit, other)]
        if clashes:
            kept = [r.old or r.new for other in clashes for r in other.replacements if r.old or r.new]
            shown = "、".join(f"“{_short(k, 20)}”" for k in kept[:3])
            keep = f"（不要改动{shown}）" if shown else ""
            message = f"改动与文件中已引入的另一处错误位置重叠，请改动其他文字{keep}"
            return [Failure("overlap", message + "（the edit overlaps another injected error）")]
        verdict = injector.verify(baseline, Proposal(edit, "", "", "llm"), seed)
        spec = injector.spec
        if verdict.failure == "not_detected":
            return [
                Failure(
                    "not_detected",
                    f"确定性检查没有检出“{spec.name_zh}”错误，请按要求的方式改写"
                    "（the type's checker does not confirm it）",
                )
            ]
        if verdict.failure == "side_effect":
            named = "；".join(_short(v.message, 50) for v in verdict.side_effects[:3])
            return [
                Failure("side_effect", f"改动还引入了其他类型的错误：{named}（the edit causes other errors）")
            ]
        return []

    def _proposal(
        self, case: RewriteCase, answer: Answer, trace: LLMTrace, template: Proposal | None
    ) -> Proposal:
        """The accepted answer as a proposal: a minimal edit, the model's description, a fix from the span."""
        edit = self._edit(case, answer.rewritten_text, template)
        description = " ".join(answer.description.split()).replace("；", "，").rstrip("。")
        where = place(case.section)
        for lead in ("本条", "该条", "此处", "本章"):
            if description.startswith(lead):
                description = description[len(lead) :]
        if case.section.number not in description and not case.inserted:
            description = f"{where}{description}"
        if case.inserted:
            term = case.material.get("term", "")
            fix = f"删除术语条目“{term}”，或在正文中按界定的含义使用该术语"
        elif answer.original_span:
            fix = f"将“{_short(answer.rewritten_span)}”改回“{_short(answer.original_span)}”"
        else:
            fix = f"删除“{_short(answer.rewritten_span)}”"
        form = template.form if template is not None else ""
        # a model quotes spans as it cut them; the description quotes whole words of the section as it reads
        texts = (answer.rewritten_text, case.section.text)
        description, fix = whole_quotes(description, *texts), whole_quotes(fix, *texts)
        return Proposal(edit, description, fix, generator="llm", llm=trace, form=form)

    # --- lifetime ------------------------------------------------------------------------------------------
    def fingerprint(self) -> str:
        """What the rewriter's answers depend on (endpoint, model, prompt versions, parameters, attempts),
        for the build's per-document cache keys; the endpoint only hashed, never the key."""
        config = self.client.config
        parts = [
            hashlib.sha256(endpoint(config).encode()).hexdigest(),
            config.model,
            config.response_format,
            repr(config.temperature),
            str(config.max_tokens),
            str(self.max_attempts),
            *(_prompts()[t].prompt_id for t in self.types),
        ]
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]

    def summary(self) -> dict[str, object]:
        """Per-build figures for the manifest: calls, cache hits and misses, tokens, failures by reason."""
        with self._lock:
            outcomes = Counter(r.outcome for r in self.records)
        return {**self.stats.to_dict(), "outcomes": dict(sorted(outcomes.items())), **self.health()}

    def start_stage(self) -> None:
        """A new run's LLM stage: the breaker closed and the deadline counted afresh (a rewriter outlives
        one build in `serve`)."""
        self.client.breaker.reset()
        self.client.deadline.restart()

    def health(self) -> dict[str, object]:
        """Why calls stopped (endpoint down, deadline) and what the cache had to repair; empty when fine."""
        return stage_health(self.client)

    def close(self) -> None:
        if self._owns_client:
            self.client.close()
            if self.client.cache is not None:
                self.client.cache.close()

    def __enter__(self) -> LLMRewriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_rewriter(
    mode: str,
    *,
    types: Iterable[str] | str | None = None,
    cache_path: str | Path | None = None,
    config: LLMConfig | None = None,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
    env: Mapping[str, str] | None = None,
) -> LLMRewriter | None:
    """The rewriter a command or a build asked for (None for --llm none); close it when done.

    Configuration comes from `config`, else from GBTBENCH_LLM_* (see LLMConfig.from_env); answers are
    cached in `cache_path`, else GBTBENCH_LLM_CACHE, else outputs/llm-cache.sqlite.
    """
    if parse_llm_mode(mode) == "none":
        return None
    config = config if config is not None else LLMConfig.from_env(env)
    cache = LLMCache(cache_path if cache_path is not None else default_cache_path(env))
    client = LLMClient(config, cache)
    return LLMRewriter(client, types=parse_llm_types(types), max_attempts=max_attempts, owns_client=True)


__all__ = [
    "LLMRewriter",
    "Prompt",
    "RewriteRecord",
    "default_cache_path",
    "diff_replacements",
    "open_rewriter",
    "parse_llm_mode",
    "parse_llm_types",
]
