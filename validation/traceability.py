"""Per-instance traceability checks: can each gold error be replayed, found and trusted as written?

The expectation suites (validation/suites.py) gate a release on these results; this module only looks at
one InjectionResult at a time and says, per instance, what is wrong with it as short machine codes plus a
message a reviewer can act on. Text checks (leaked headings, refusals, English prose) count only what the
corrupted section adds to the original one: a real standard may legitimately contain an English
reference title, and that is not something an injector wrote.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import regex

from injectors.edit import EditConflict, followed_renames, replay
from injectors.instance import ErrorInstance
from injectors.language.patterns import REFUSAL as REFUSAL_PATTERN
from injectors.planner import InjectionResult
from parsers.model import Section

# Codes of the checks below; the suites turn each into an expectation.
REPLAY_MISMATCH = "replay_mismatch"
LOCATION_MISSING = "location_missing"
UNCHANGED = "unchanged"
LEAKED_HEADING = "leaked_heading"
REFUSAL = "refusal"
ENGLISH_PROSE = "english_prose"

_BRACKETED_HEADING = regex.compile(r"【[^】\n]{1,80}】")
# A clause number opening the text: "5.2.1 ", "[5.1]", "（A.2）", "第5章"; "[1]" of a bibliography is not one.
_LEADING_NUMBER = regex.compile(
    r"^\s*(?:[\[［(（]\s*(?:\d+(?:\.\d+)+|[A-Z](?:\.\d+)+)\s*[\]］)）]"
    r"|(?:\d+(?:\.\d+)+|[A-Z](?:\.\d+)+)(?=[\s　]|[\p{Han}])"
    r"|第\d+章)"
)
_ENGLISH_RUN = regex.compile(r"[A-Za-z][A-Za-z'’]*(?:[\s,;:()\-—/&]+[A-Za-z][A-Za-z'’]*){5,}")
# A line listing a document: "GB/T 1.1—2020 …", "ISO/TS 15066:2016 …", "[3] IEC 62443-3-3 …".
_REFERENCE_LINE = regex.compile(r"^\s*(?:\[\d+\]\s*)?[A-Z][A-Z/\-]*\s?[A-Z]?\s?\d")


@dataclass(frozen=True, order=True)
class Flag:
    """Why an instance needs a human look: a short machine code and a message for the reviewer."""

    code: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "message": self.message}


def _new_matches(pattern: regex.Pattern[str], corrupted: str, original: str) -> list[str]:
    """Matches in the corrupted text beyond those already in the original (a multiset difference)."""
    before = Counter(m.group(0) for m in pattern.finditer(original))
    added = []
    for match in pattern.finditer(corrupted):
        text = match.group(0)
        if before[text]:
            before[text] -= 1
        else:
            added.append(text)
    return added


def _prose_lines(text: str) -> str:
    """The text without lines that list a document by its number (their English titles are legitimate)."""
    return "\n".join(line for line in text.split("\n") if not _REFERENCE_LINE.match(line))


def text_flags(corrupted: Section, original: Section | None) -> list[Flag]:
    """Leaked headings, refusals and English prose that the corrupted section adds to the original."""
    flags: list[Flag] = []
    before_text = original.text if original is not None else ""
    before_title = original.title if original is not None else ""
    leaks = _new_matches(_BRACKETED_HEADING, corrupted.text, before_text)
    leaks += _new_matches(_BRACKETED_HEADING, corrupted.title, before_title)
    opening = _LEADING_NUMBER.match(corrupted.text)
    if opening and not _LEADING_NUMBER.match(before_text):
        leaks.append(opening.group(0).strip())
    elif corrupted.text.startswith(corrupted.heading) and not before_text.startswith(corrupted.heading):
        leaks.append(corrupted.heading)
    if leaks:
        flags.append(Flag(LEAKED_HEADING, f"{corrupted.number}: text carries a heading: {leaks[0]!r}"))
    refusals = _new_matches(
        REFUSAL_PATTERN, f"{corrupted.title}\n{corrupted.text}", f"{before_title}\n{before_text}"
    )
    if refusals:
        flags.append(Flag(REFUSAL, f"{corrupted.number}: refusal or apology in the text: {refusals[0]!r}"))
    prose = _new_matches(_ENGLISH_RUN, _prose_lines(corrupted.text), _prose_lines(before_text))
    if prose:
        flags.append(Flag(ENGLISH_PROSE, f"{corrupted.number}: English prose in the text: {prose[0][:60]!r}"))
    return flags


def check_instance(
    instance: ErrorInstance,
    renames: Sequence[tuple[str, str]],
    numbers: Collection[str],
    followed: Sequence[tuple[str, str]] | None = None,
) -> tuple[Flag, ...]:
    """One instance against its document: `renames` are the other instances' renumberings (`followed`
    those that references follow, `injectors.edit.followed_renames`), `numbers` the section numbers of
    the corrupted document."""
    flags: list[Flag] = []
    op = instance.edit.op
    try:
        expected = replay(instance.edit, instance.original_section, renames, followed)
    except (EditConflict, AssertionError, StopIteration) as exc:
        flags.append(Flag(REPLAY_MISMATCH, f"the edit does not apply to the original section: {exc}"))
    else:
        if expected != instance.corrupted_section:
            flags.append(
                Flag(
                    REPLAY_MISMATCH,
                    "replaying the edit on the original section does not give the corrupted one",
                )
            )
    if op != "remove" and instance.location not in numbers:
        flags.append(
            Flag(LOCATION_MISSING, f"location {instance.location!r} is not a section of the document")
        )
    if op not in ("remove", "move") and instance.original_section == instance.corrupted_section:
        flags.append(Flag(UNCHANGED, f"{instance.location}: the corrupted section equals the original"))
    if instance.corrupted_section is not None:
        flags.extend(text_flags(instance.corrupted_section, instance.original_section))
    return tuple(sorted(flags))


def check_result(result: InjectionResult) -> dict[str, tuple[Flag, ...]]:
    """Flags per instance_id for one document (instances without a problem map to an empty tuple)."""
    numbers = frozenset(s.number for s in result.corrupted.sections)
    out: dict[str, tuple[Flag, ...]] = {}
    for instance in result.instances:
        others = [r for other in result.instances if other is not instance for r in other.edit.renames]
        followed = followed_renames(other.edit for other in result.instances if other is not instance)
        flags = check_instance(instance, others, numbers, followed)
        out[instance.instance_id] = merge_flags(out.get(instance.instance_id, ()), flags)
    return out


def check_results(results: Iterable[InjectionResult]) -> dict[str, tuple[Flag, ...]]:
    """Flags per instance_id for a whole build."""
    out: dict[str, tuple[Flag, ...]] = {}
    for result in results:
        for instance_id, flags in check_result(result).items():
            out[instance_id] = merge_flags(out.get(instance_id, ()), flags)
    return out


def as_flag(value: Any) -> Flag:
    """A flag from elsewhere (an injector's `flags`, a suite): a Flag, a code string or a code/message."""
    if isinstance(value, Flag):
        return value
    if isinstance(value, str):
        return Flag(value, "")
    if isinstance(value, Mapping):
        return Flag(str(value.get("code", "")), str(value.get("message", "")))
    return Flag(str(getattr(value, "code", value)), str(getattr(value, "message", "")))


def merge_flags(*groups: Iterable[Any]) -> tuple[Flag, ...]:
    """One flag per code (the first message wins), sorted by code so the order never depends on the source."""
    by_code: dict[str, Flag] = {}
    for group in groups:
        for value in group:
            flag = as_flag(value)
            by_code.setdefault(flag.code, flag)
    return tuple(by_code[code] for code in sorted(by_code))
