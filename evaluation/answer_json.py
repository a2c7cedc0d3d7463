"""The JSON answer inside a chat model's review text, read in bounded time, with what it could not read.

Models wrap the answer in prose, cite `[1]` before it, mix full-width and ASCII punctuation, leave trailing
commas, quote with “”, write Python literals or get cut off by the token limit. One linear pass maps the
full-width structure to ASCII outside strings and finds every top-level bracketed span; each span is decoded
strictly, else repaired by `json_repair`, and the span holding the most error objects is the answer, joined
by any lone error objects outside it (one object per line). So a citation never hides the answer and a
repair never stops at the first value that happens to decode. `items_seen` counts the error keys of the
text, so that a reader of the scores learns when fewer errors were recovered than the answer shows.

Bounds, so that no answer can stall a scoring run: answers over MAX_ANSWER_CHARS are not read, nesting
deeper than MAX_DEPTH is refused before any recursive decoder sees it, at most MAX_SPANS spans are decoded,
and the repairer (whose time grows faster than linearly on garbage) gets at most REPAIR_BUDGET characters
in REPAIR_CALLS calls per answer.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import json_repair

MAX_ANSWER_CHARS = 256 * 1024  # a review of a few hundred errors is far below this
MAX_DEPTH = 64  # a review answer needs three levels ({"errors": [{...}]})
REPAIR_BUDGET = 64 * 1024  # characters, and at most REPAIR_CALLS calls
REPAIR_CALLS = 64
MAX_SPANS = 1000  # bracketed spans decoded per answer, the largest first

MISSING: Any = object()
LIST_KEYS = ("errors", "predictions", "items", "results", "错误")
FIELDS = {
    "location": ("location", "section_number", "section", "位置", "章条编号"),
    "dimension": ("dimension", "维度"),
    "error_type": ("error_type", "type", "错误类型"),
    "description": ("description", "error_description", "reason", "描述"),
}
_KNOWN_KEYS = frozenset(k for keys in FIELDS.values() for k in keys)
_FULL_WIDTH = {"［": "[", "］": "]", "｛": "{", "｝": "}", "：": ":", "，": ","}
_CURLY_OPEN = frozenset("“＂")
_CURLY_CLOSE = frozenset("”＂")


def _key_pattern(keys: tuple[str, ...]) -> re.Pattern[str]:
    words = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z0-9_])(?:{words})(?![A-Za-z0-9_])[\"'”]?\s*:", re.I)


_TYPE_KEYS = _key_pattern(FIELDS["error_type"])
_LOCATION_KEYS = _key_pattern(FIELDS["location"])


@dataclass(frozen=True)
class Reading:
    """The decoded answer (MISSING when none), how many error items the text shows, and why not all."""

    value: Any
    seen: int = 0
    note: str = ""


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    opener: str
    closed: bool
    cut: int = 0  # for an answer cut off before its closing bracket: the end of its last complete item


class _TooDeep(ValueError):
    pass


def _scan(text: str) -> tuple[str, list[_Span]]:
    """Full-width structure and curly delimiters mapped to ASCII outside strings (same length, so spans
    index both), and the top-level bracketed spans. Linear; raises _TooDeep past MAX_DEPTH."""
    out: list[str] = []
    spans: list[_Span] = []
    stack: list[str] = []
    start = 0
    item_end = [0, 0, 0]  # by depth after a close: where the last complete item ended
    closer = ""  # the quote that ends the current string; "" outside strings
    escaped = False
    for index, char in enumerate(text):
        if closer:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == closer or (closer == "”" and char in _CURLY_CLOSE):
                closer = ""
                char = '"'
            out.append(char)
            continue
        char = _FULL_WIDTH.get(char, char)
        if char == '"':
            closer = '"'
        elif char in _CURLY_OPEN:
            closer, char = "”", '"'
        elif char in "[{":
            if not stack:
                start, item_end = index, [0, 0, 0]
            stack.append(char)
            if len(stack) > MAX_DEPTH:
                raise _TooDeep
        elif char in "]}" and stack:
            stack.pop()
            if not stack:
                spans.append(_Span(start, index + 1, out[start], closed=True))
            elif len(stack) <= 2:
                item_end[len(stack)] = index + 1
        out.append(char)
    if stack:  # cut off: keep what was complete (items close to depth 1 in a list, 2 in {"errors": [...]})
        opener = out[start]
        cut = item_end[1] if opener == "[" else item_end[2]
        spans.append(_Span(start, len(text), opener, closed=False, cut=cut))
    return "".join(out), spans


def _lower_keys(item: Mapping[Any, Any]) -> dict[str, Any]:
    return {str(k).strip().lower(): v for k, v in item.items()}


def error_items(value: Any) -> list[dict[str, Any]] | None:
    """The error objects of a decoded answer (keys lower-cased), or None when the value is no answer: a
    list with objects (or an empty list), an object holding one under errors/predictions/…, or one error."""
    if isinstance(value, dict):
        lowered = _lower_keys(value)
        inner = next((lowered[k] for k in LIST_KEYS if isinstance(lowered.get(k), list)), None)
        if inner is not None:
            value = inner
        elif _KNOWN_KEYS & set(lowered):
            return [lowered]
        else:
            return None
    if not isinstance(value, list) or (value and not any(isinstance(v, dict) for v in value)):
        return None  # a list of numbers is a citation ("[1]"), not an answer
    return [_lower_keys(v) for v in value if isinstance(v, dict)]


def _is_error_object(value: Any) -> bool:
    if not isinstance(value, dict):
        return False
    keys = set(_lower_keys(value))
    return bool(_KNOWN_KEYS & keys) and not keys & set(LIST_KEYS)


_TRAILING_COMMA = re.compile(r",\s*([\]}])")


def _decode(text: str, budget: list[int]) -> Any:
    """Strictly, then without trailing commas (linear, any length), then repaired within the budget."""
    for candidate in (text, _TRAILING_COMMA.sub(r"\1", text)):
        try:
            return json.loads(candidate)
        except (json.JSONDecodeError, RecursionError):
            pass
    if len(text) > budget[0] or budget[1] <= 0:
        return MISSING
    budget[0] -= len(text)
    budget[1] -= 1
    try:
        value = json_repair.loads(text)
    except (ValueError, RecursionError):
        return MISSING
    return MISSING if value in ("", None) else value


def _rank(value: Any) -> tuple[int, int] | None:
    """(error-like objects, objects) of an answer value; None for what is not an answer."""
    items = error_items(value)
    if items is None:
        return None
    return sum(1 for item in items if _KNOWN_KEYS & set(item)), len(items)


def items_seen(text: str) -> int:
    """How many error items the text shows: its type keys, or its location keys when it has more."""
    return max(len(_TYPE_KEYS.findall(text)), len(_LOCATION_KEYS.findall(text)))


def _ranked_spans(
    normal: str, spans: list[_Span], budget: list[int]
) -> list[tuple[tuple[int, int], int, Any]]:
    """(rank, position among the spans, value) of every bracketed span that reads as an answer."""
    ranked: list[tuple[tuple[int, int], int, Any]] = []
    # the largest spans are repaired first: when the budget runs out, it is spent on likely answers
    largest = sorted(enumerate(spans), key=lambda s: s[1].start - s[1].end)[:MAX_SPANS]
    for order, span in largest:
        value = MISSING
        if not span.closed and span.cut:  # the complete items only, not a half-written last one
            closing = "]" if span.opener == "[" else "]}"
            value = _decode(normal[span.start : span.cut] + closing, budget)
        if value is MISSING:
            value = _decode(normal[span.start : span.end], budget)
        rank = None if value is MISSING else _rank(value)
        if rank is not None:
            ranked.append((rank, order, value))
    return ranked


def read_answer(raw: str, *, _nested: bool = False) -> Reading:
    """The answer in a model's text: JSON `null` is None; MISSING (with a note) when there is none."""
    text = raw.strip().removeprefix("\ufeff").strip()
    if len(text) > MAX_ANSWER_CHARS:
        return Reading(
            MISSING, note=f"answer of {len(text):,} characters, over the {MAX_ANSWER_CHARS:,} read"
        )
    try:
        normal, spans = _scan(text)
    except _TooDeep:
        return Reading(MISSING, note=f"nested deeper than {MAX_DEPTH} levels: not read")
    seen = items_seen(normal)
    try:
        whole = json.loads(normal)
    except (json.JSONDecodeError, RecursionError):
        whole = MISSING
    if isinstance(whole, str) and not _nested and whole.strip()[:1] in ("[", "{"):
        return read_answer(whole, _nested=True)  # the answer sent as a JSON string
    if whole is None or _rank(whole) is not None:
        return Reading(whole, seen)
    budget = [REPAIR_BUDGET, REPAIR_CALLS]
    ranked = _ranked_spans(normal, spans, budget)
    if not ranked:
        value = _decode(normal, budget) if not spans else MISSING  # quotes left open before any bracket
        if value is None or _rank(value) is not None:
            return Reading(value, seen)
        return Reading(MISSING, seen, "no JSON answer found")
    _, best_order, best = max(ranked, key=lambda r: (r[0], r[1]))  # ties: the later span, the final answer
    items = error_items(best) or []
    for _, order, value in sorted(ranked, key=lambda r: r[1]):
        if order == best_order:
            continue
        others = error_items(value) or []
        if _is_error_object(value) and others[0] not in items:  # one error object per line, no list
            items.append(others[0])
        elif all(item in items for item in others):  # a draft the answer repeats: its items are not new
            span = spans[order]
            seen -= items_seen(normal[span.start : span.end])
    return Reading(items, max(seen, 0))
