"""Descriptions as the assembled document reads: rendered after all of a document's errors are applied.

Each instance's description is written when it is verified alone. Assembled, another error may renumber
the heading it names (STR-04, STR-01), delete the scope sentence it quotes (SCP-02), change the sibling
clause it calls as evidence, or add and remove entries of the list whose order it states. So, on the final
document:

- section numbers a description cites follow the renumbering the other errors made;
- a type whose description reads text other errors may change renders it again from the final document
  (`TypeDefinition.redescribe`, e.g. NREF-04 states the order of the list as it finally reads);
- every quote of the error part must stand in the final document, or in the text this instance itself
  replaced (what the section said before this error: "原为…"); a quote the description places in another
  section ("第9.1.1.3条…“…”") must stand in that section; a description that quotes anything else is
  stale, and `injectors.joint` drops the instance as one that no longer holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import regex

from injectors.edit import Applied, Edit, apply_edits, footprint, rename_all
from injectors.instance import ErrorInstance, describe
from injectors.language.quotes import aligned, as_written
from injectors.registry import definition
from parsers.model import Document, Section

_NUMBER = r"\d+(?:\.\d+)*|[A-Z](?:\.\d+)+"
_QUOTED_NUMBER = regex.compile(rf"(?<=第|“)({_NUMBER})(?=条|章|”)")
_QUOTED_HEADING = regex.compile(rf"(?<=“)({_NUMBER})[ \u3000]+([^”]+)(?=”)")
# the places a description lists in brackets: "正文多处（8.3、8.4、8.5等）", "正文（如6.2）"
_LISTED = regex.compile(rf"(?<=（(?:如)?)(?:{_NUMBER})(?:、(?:{_NUMBER}))*(?=(?:等)?）)")
QUOTE = regex.compile(r"“([^“”]+)”")
# a quote that is a section number or a caption number is no text: "缺少“5.1.5”", "应编为“表A.1”"
_NUMBER_ONLY = regex.compile(r"(?:第|表|图|公式)?\(?[A-Z]?\d*(?:\.\d+)*\)?(?:章|条)?")
_ELLIPSIS = regex.compile(r"…+|\.{3,}")


def renumbered(description: str, renames: Sequence[tuple[str, str]], original: Document | None = None) -> str:
    """Section numbers quoted in a description ("第10.8条", "“10.8 差错处理测试”": a heading of the
    original document, "（8.3、8.4等）": the places it lists) follow the renumbering other errors made."""
    if not renames:
        return description
    moved = list(renames)

    def heading(m: regex.Match[str]) -> str:
        section = original.section(m.group(1)) if original is not None else None
        if section is None or not section.title or not m.group(2).startswith(section.title[:8]):
            return m.group()  # "“5 个字节”": a quantity, not a heading
        return rename_all(m.group(1), moved) + m.group()[len(m.group(1)) :]

    description = _QUOTED_HEADING.sub(heading, description)
    description = _LISTED.sub(
        lambda m: "、".join(rename_all(n, moved) for n in m.group().split("、")), description
    )
    return _QUOTED_NUMBER.sub(lambda m: rename_all(m.group(1), moved), description)


def rendered(
    instance: ErrorInstance, original: Document, final: Document, renames: Sequence[tuple[str, str]]
) -> str:
    """The instance's description on its final document (`instance.location` is its final location)."""
    redescribe = definition(instance.error_type).redescribe
    if redescribe is not None:
        told = redescribe(instance, original, final)
        if told is not None:
            error, fix = told
            rule = instance.description.rsplit("；依据：", 1)[1]
            return describe(error, fix, rule)
    # the chapters as the final document numbers them: this instance's own renumbering too (a deleted
    # chapter's description names it under its old number, which the next chapter now holds)
    every = [*renames, *instance.edit.renames]
    return retitled(renumbered(instance.description, renames, original), original, final, every)


_CHAPTER_TITLE = regex.compile(r"第(\d+)章“([^“”]+)”")


def retitled(
    description: str, original: Document, final: Document, renames: Sequence[tuple[str, str]] = ()
) -> str:
    """A chapter a description names by its title ("第1章“范围”") under the title the final document gives
    it: another error may have renamed it (STR-03: 适用范围). Only a quote that was that chapter's title in
    the original document is replaced."""
    back = {new: old for old, new in renames}

    def title(m: regex.Match[str]) -> str:
        now = final.section(m.group(1))
        was = original.section(back.get(m.group(1), m.group(1)))
        if now is None or was is None or was.title != m.group(2) or not now.title or now.title == was.title:
            return m.group()
        return f"第{m.group(1)}章“{now.title}”"

    return _CHAPTER_TITLE.sub(title, description)


def section_texts(section: Section | None) -> str:
    """What of a section a quote may come from: its heading, title, annex marker and text."""
    if section is None:
        return ""
    return "\n".join((section.heading, section.title, section.annex_marker or "", section.text))


def document_text(document: Document) -> str:
    return "\n".join([document.title, document.standard_id, *(section_texts(s) for s in document.sections)])


def _as_found(quotes: Sequence[str], texts: Sequence[str]) -> list[str]:
    """Each quote as the texts write it: with its single marks (`nested`) put back to double ones when
    only that form is there."""
    out = []
    for quote in quotes:
        written = as_written(quote)
        if written != quote and not any(_in_order(_pieces(quote), t) for t in texts):
            quote = written
        out.append(quote)
    return out


def _pieces(quote: str) -> list[str]:
    return [p for p in _ELLIPSIS.split(quote) if p.strip()]


def stale_quotes(description: str, *texts: str) -> list[str]:
    """Quotes of the error part found in none of `texts` (a quote shortened with "……" counts when each
    of its pieces is found, in order)."""
    error = description.split("；修改建议：", 1)[0]
    out = []
    for quote in _as_found(QUOTE.findall(error), texts):
        if _NUMBER_ONLY.fullmatch(quote.strip()):
            continue
        pieces = _pieces(quote)
        if pieces and not any(_in_order(pieces, text) for text in texts):
            out.append(quote)
    return out


def clipped_quotes(description: str, texts: Sequence[str], whole: frozenset[str] = frozenset()) -> list[str]:
    """Quotes of the error part that `texts` hold only as a cut through a word or a standard number
    (`whole`: words the edit itself put in or took out, whole by construction: a quote may begin or end
    with them)."""
    error = description.split("；修改建议：", 1)[0]
    out = []
    for quote in _as_found(QUOTE.findall(error), texts):
        if quote.strip() in whole or _NUMBER_ONLY.fullmatch(quote.strip()):
            continue
        pieces = [p.strip() for p in _ELLIPSIS.split(quote) if p.strip()]
        found = [[p for text in texts for p in _places(piece, text)] for piece in pieces]
        if all(found) and not all(any(_whole(p, whole) for p in places) for places in found):
            out.append(quote)
    return out


def _whole(place: tuple[str, int, int], words: frozenset[str]) -> bool:
    line, start, end = place
    loose = [start for w in words if w and line.startswith(w, start)]
    loose += [end for w in words if w and line.endswith(w, 0, end)]
    return aligned(line, start, end, tuple(loose))


def _places(piece: str, text: str, most: int = 20) -> list[tuple[str, int, int]]:
    """Where `piece` stands in `text`: (its line, start, end), at most `most` of them."""
    out: list[tuple[str, int, int]] = []
    at = text.find(piece)
    while at >= 0 and len(out) < most:
        a = text.rfind("\n", 0, at) + 1
        b = text.find("\n", at + len(piece))
        out.append((text[a : b if b >= 0 else len(text)], at - a, at - a + len(piece)))
        at = text.find(piece, at + 1)
    return out


def _in_order(pieces: Sequence[str], text: str) -> bool:
    at = 0
    for piece in pieces:
        found = text.find(piece, at)
        if found < 0:
            return False
        at = found + len(piece)
    return True


def misquoted(
    description: str, whole: str, edit: Edit, own: Section | None, original: Section | None
) -> str | None:
    """Why a description does not hold on a final document whose text is `whole` (None: it holds): a
    quote neither there nor in `own` (what the instance's section said without this instance), or one cut
    through a word or a standard number there or in `original` (its section before the edit)."""
    stale = stale_quotes(description, whole, section_texts(own))
    if stale:
        return f"its description quotes “{stale[0]}”, which the document no longer says"
    own_words = frozenset(t.strip() for r in edit.replacements for t in (r.old, r.new))
    cut = clipped_quotes(description, (whole, section_texts(original)), own_words)
    if cut:
        return f"its description quotes “{cut[0]}”, cut through a word or a standard number"
    return None


# a section a description names just before a quote, as where the quote stands: "第9.1.1.3条对同一事项的
# 相同规定“…”", "H.3.1对本条的说明称“…”", "附录A中的“…”"
_CITED = regex.compile(r"第([A-Z]?\d+(?:\.\d+)*)(?:条|章)|附录([A-Z])|(?<![A-Za-z0-9.])([A-Z](?:\.\d+)+)")
_NEAR = 20  # characters between the section named and the quote it introduces


def misattributed(description: str, final: Document, location: str) -> str | None:
    """Why a description does not hold (None: it holds): a quote it places in another section than the
    instance's own, which that section (with its subdivisions) of the final document no longer says. The
    whole document may still say it elsewhere: two errors of one document may each have changed the
    clause the other calls as evidence ("第8.1.1.3条对同一事项的相同规定“…可…”" where 8.1.1.3 now says 应)."""
    error = description.split("；修改建议：", 1)[0]
    quotes = list(QUOTE.finditer(error))
    before = 0
    for quote in quotes:
        window = error[max(before, quote.start() - _NEAR) : quote.start()]
        before = quote.end()
        cited = list(_CITED.finditer(window))
        if not cited or any(mark in window[cited[-1].end() :] for mark in "。；“”"):
            continue
        number = next(g for g in cited[-1].groups() if g)
        if cited[-1].group(0).endswith("章") and cited[-1].end() == len(window):
            # "第1章“范围”" names the chapter by its title: the title the final document gives it, even
            # for the instance's own chapter (another error may have renamed it: 适用范围)
            chapter = final.section(number)
            if chapter is not None and chapter.title and quote.group(1).strip() != chapter.title.strip():
                return (
                    f"its description names chapter {number} “{quote.group(1)}”, now titled “{chapter.title}”"
                )
            continue
        if number == location or _NUMBER_ONLY.fullmatch(quote.group(1).strip()):
            continue  # the instance's own section: what it replaced, or what it wrote
        head = f"附录{number}" if len(number) == 1 and number.isalpha() else number
        stem = number + "."
        texts = [
            section_texts(s)
            for s in final.sections
            if s.number in (head, number) or s.number.startswith(stem)
        ]
        if not texts:
            continue  # a section the description names but the outline does not hold (a table, a figure)
        text = "\n".join(texts)
        (said,) = _as_found([quote.group(1)], [text])
        if not _in_order(_pieces(said), text):
            return f"its description quotes “{said}” from {head}, which {head} no longer says"
    return None


def finalized(
    original: Document, instances: Sequence[ErrorInstance], applied: Applied
) -> tuple[list[ErrorInstance], list[str | None]]:
    """Each instance with its location and description on the assembled document, and why its
    description does not hold there (None: it holds)."""
    final = applied.document
    whole = document_text(final)
    prints = [footprint(i.edit) for i in instances]
    out: list[ErrorInstance] = []
    why: list[str | None] = []
    for k, (instance, location) in enumerate(zip(instances, applied.locations, strict=True)):
        others = [r for i in instances if i is not instance for r in i.edit.renames]
        placed = replace(instance, location=location)
        description = rendered(placed, original, final, others)
        out.append(replace(placed, description=description))
        stale = stale_quotes(description, whole)
        if stale:
            # what this error itself replaced, as the other errors left that section
            shared = any(prints[k].sections & p.sections for j, p in enumerate(prints) if j != k)
            own = instance.original_section
            if shared and instance.edit.op == "modify":
                rest = apply_edits(original, [i.edit for j, i in enumerate(instances) if j != k])
                number = rest.numbers.get(original.sections[instance.edit.target].number)
                own = rest.document.section(number) if number is not None else None
        else:
            own = instance.original_section
        why.append(
            misquoted(description, whole, instance.edit, own, instance.original_section)
            or misattributed(description, final, location)
        )
    return out, why
