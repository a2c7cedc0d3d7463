"""Punctuation and space widths: text an injector adds takes the style of the text around it.

Documents mix conventions (PDF extraction, authors who type ASCII commas, titles spaced with an ideographic
space), and an inserted "，" among "," or a "　" among " " is a give-away that has nothing to do with the
error. Injectors pass what they add through `match_style` with the surrounding text as the model.
"""

from __future__ import annotations

from collections import Counter

# full-width mark → its ASCII counterpart; only marks that both styles really use
PAIRS = {"，": ",", "；": ";", "：": ":", "（": "(", "）": ")", "？": "?", "！": "!"}
_TO_ASCII = str.maketrans(PAIRS)
_TO_FULL = str.maketrans({v: k for k, v in PAIRS.items()})
_ASCII_MARKS = frozenset(PAIRS.values())
_ALL_MARKS = frozenset(PAIRS) | _ASCII_MARKS
IDEOGRAPHIC_SPACE = "\u3000"


def prefers_ascii(context: str) -> bool | None:
    """True when the context writes these marks in ASCII, False when full-width, None when it has neither."""
    counts = Counter("ascii" if ch in _ASCII_MARKS else "full" for ch in context if ch in _ALL_MARKS)
    if not counts:
        return None
    return counts["ascii"] > counts["full"]


def space_style(context: str) -> str | None:
    """The space the context separates words with (" " or the ideographic space), None when it has none."""
    ascii_spaces, wide = context.count(" "), context.count(IDEOGRAPHIC_SPACE)
    if not ascii_spaces and not wide:
        return None
    return " " if ascii_spaces >= wide else IDEOGRAPHIC_SPACE


def match_style(added: str, context: str) -> str:
    """`added` in the context's punctuation and space widths (unchanged where the context is silent)."""
    ascii_marks = prefers_ascii(context)
    if ascii_marks is True:
        added = added.translate(_TO_ASCII)
    elif ascii_marks is False:
        added = added.translate(_TO_FULL)
    space = space_style(context)
    if space is not None:
        other = IDEOGRAPHIC_SPACE if space == " " else " "
        added = added.replace(other, space)
    return added


def join_series(items: list[str]) -> str:
    """Items of an enumeration joined with 、 (Chinese lists) — never a comma left before it."""
    cleaned = [item.strip().rstrip(",，;；、") for item in items]
    return "、".join(c for c in cleaned if c)
