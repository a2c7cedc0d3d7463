"""Which modal verbs an edit replaced, and with what force: the diff rules that tell a weakened provision
(NMS-01) from a strengthened one (NMS-02), for the checkers and for the LLM answers' constraints."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from functools import lru_cache

from injectors.language.modals import PERMISSION, RECOMMENDATION, REQUIREMENT, modal_verbs, nonstandard_modals

STRENGTH = {REQUIREMENT: 3, RECOMMENDATION: 2, PERMISSION: 1}


def _forces(text: str) -> list[tuple[int, int, str, str]]:
    """(start, end, word, force) of every modal verb, standard or not."""
    found = [(m.start, m.end, m.word, m.force) for m in modal_verbs(text)]
    found += [(h.start, h.end, h.word, REQUIREMENT) for h in nonstandard_modals(text)]
    return sorted(found)


def modal_changes(before: str, after: str) -> Iterator[tuple[str, str, str, str, int]]:
    """(old word, old force, new word, new force, offset in `after`) for each modal replaced by another."""
    return iter(_modal_changes(before, after))


def _common_start(a: str, b: str) -> int:
    return next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


@lru_cache(maxsize=4096)
def _modal_changes(before: str, after: str) -> tuple[tuple[str, str, str, str, int], ...]:
    """Cached: a character diff of two sections is slow, and the planner re-checks the same pairs."""
    old_forces, new_forces = _forces(before), _forces(after)
    # an edit changes a few words of a long section: the matcher (quadratic in what it compares) reads
    # only what lies between the common start and the common end
    head = _common_start(before, after)
    tail = _common_start(before[head:][::-1], after[head:][::-1])
    matcher = difflib.SequenceMatcher(
        None, before[head : len(before) - tail], after[head : len(after) - tail], False
    )
    out = []
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        i1, i2, j1, j2 = i1 + head, i2 + head, j1 + head, j2 + head
        old = [f for f in old_forces if f[0] < max(i2, i1 + 1) and f[1] > i1]
        new = [f for f in new_forces if f[0] < max(j2, j1 + 1) and f[1] > j1]
        if old and new:
            out.append((old[0][2], old[0][3], new[0][2], new[0][3], new[0][0]))
    return tuple(out)
