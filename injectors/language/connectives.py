"""Sentence-initial connectives: words that tie a sentence to the one before it.

A sentence moved out of its paragraph (a body requirement restated in the scope) cannot keep "其中，" or
"此外，": they point at neighbours it no longer has. The mover drops them, or rejects the sentence when
dropping would leave it without a subject.
"""

from __future__ import annotations

import regex

# Longest first, so that 另外 is not read as 另 + 外…; the one-character ones only before a comma.
_LEADING = regex.compile(
    r"^(?:(?:其中|此外|另外|同时|因此|为此|所以|从而|然而|但是|并且|而且|而|此时|对此|据此|否则|另|并|且|故|但|则)"
    r"[，,]\s*|(?:其中|此外|另外|同时|因此|为此|所以|从而|然而|但是|并且|而且|此时|对此|据此|否则))"
)


def leading_connective(sentence: str) -> str:
    """The connective (with its comma) a sentence opens with, or ""."""
    m = _LEADING.match(sentence)
    return m.group(0) if m else ""


def without_leading_connective(sentence: str) -> str:
    """The sentence without the connective it opens with ("其中，X应……" → "X应……")."""
    return sentence[len(leading_connective(sentence)) :]
