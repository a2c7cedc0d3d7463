"""NREF-02 列出但未引用 (Listed but never cited)."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache

import regex

from injectors.authoring import (
    CorpusReference,
    Document,
    Edit,
    ErrorType,
    InjectionContext,
    Injector,
    Proposal,
    Site,
    TypeDefinition,
    Violation,
    field_of,
    same_field,
)
from injectors.language.citations import Cited
from injectors.language.patterns import HAN_WORD
from injectors.language.punctuation import match_style
from injectors.language.words import words as segment
from injectors.types.nref.analysis import Analysis, ListItem, analyse, excluded, place_name
from injectors.types.nref.editing import Candidate, inserted_entry, list_reason, parsed
from parsers.entries import ReferenceEntry

ERROR_TYPE = ErrorType(
    "NREF-02",
    "NREF",
    "列出但未引用",
    "Listed but never cited",
    "GB/T 1.1—2020 8.6",
    "GB/T 1.1—2009 6.2.3",
    "R",
    "D",
    ("E-R-02",),
)


def listed_but_not_cited(document: Document) -> list[Violation]:
    """Every listed document must be cited in the text (one in 参考文献 is NREF-03's business)."""
    a = analyse(document)
    if a.list_target is None:
        return []
    location = document.sections[a.list_target].number
    return [
        Violation(location, "NREF-02", f"规范性引用文件清单中的“{item.cited.ident}”在正文中未被引用")
        for item in a.items
        if not a.uses_of(item.cited) and not a.in_bibliography(item.cited) and not excluded(item.cited, a.own)
    ]


MAX_CANDIDATES = 8  # real numbers offered per document for NREF-02: the best-fitting ones


# Words of standard titles too general to say that two documents are about the same thing.
_GENERIC = regex.compile(
    r"^(?:技术|要求|方法|规范|规程|通用|部分|基本|条件|规则|指南|系统|产品|设备|装置|标准|术语|定义|总则|通则|分类|代码|"
    r"信息|管理|应用|测定|试验|性能|相关|等级|及其|使用|导则|程序|质量|设计|测量|数据|安全|环境|评价|检验|"
    r"控制|工程|第一|国家标准|行业标准|基于|实施|评估)$"
)


@lru_cache(maxsize=4096)
def _title_words(title: str) -> tuple[str, ...]:
    """Distinct content words of a standard title (Chinese, two characters or more, not generic)."""
    words = segment(title, hmm=True)
    return tuple(
        dict.fromkeys(w for w in words if len(w) >= 2 and HAN_WORD.fullmatch(w) and not _GENERIC.match(w))
    )


def _affinity(title: str, topic: str, body: str, rarity: dict[str, float]) -> float:
    """How specifically a candidate's title words are this document's words: each shared word weighs by
    its rarity among the corpus's reference titles; words of the title or scope count fully, words found
    only deeper in the text a quarter."""
    words = [w for w in _title_words(title) if w in body]
    return sum(rarity.get(w, 0.0) * (1.0 if w in topic else 0.25) for w in words)


FULL, NEAR = "full", "near"  # how far another document's field is known to be this one's (`_field_match`)


def _fits(
    cited: Cited,
    title: str,
    field: str,
    series: set[tuple[str, int]],
    body: str,
    kin: str,
    shared: bool = False,
) -> bool:
    """Whether a reference another corpus document lists belongs in this document's list: of a series this
    list already draws on (GB/T 2423.2 beside GB/T 2423.1); else listed by a document of this document's
    field, or on this document's own subject, and one a drafter of it would plausibly list.

    Plausible: listed by a document whose field is this one's on both covers' codes (ICS group and CCS
    category, `FULL`), a standard that documents of several fields list (`shared`: 环境试验, 外壳防护等级,
    包装储运图示标志 serve every field), or of the field this document and the documents it already lists
    are in (`_kin`: the first content word of a title names its field, and it is found in their titles).
    A field known by
    half (an ICS group alone: ICS 35 holds cryptography and materials data alike) or a body's words alone
    are no kinship: a vehicle terminal's protocol says 密码, 模块 and 检测 without its drafter ever
    listing 密码模块安全检测要求, and "密码应用标识规范" shares only 标识 with "材料数据标识".

    Of its subject: of the same field with half its title's words in this document, of any other with all.
    Anything else is another field's material and would give the error away."""
    if (cited.family, cited.parts[0]) in series:
        return True
    words = _title_words(title)
    if not words:  # a title with no words to compare (an English one): only the field can tell
        return field == FULL
    if field != FULL and not shared and words[0] not in kin:
        return False
    used = sum(w in body for w in words)
    return 2 * used >= len(words) if field else used == len(words)


def _field_match(mine: tuple[str, str], theirs: tuple[str, str]) -> str:
    """FULL where both covers give ICS group and CCS category and they agree, NEAR where what both give
    agrees, "" otherwise."""
    if not same_field(mine, theirs):
        return ""
    return FULL if all(mine) and all(theirs) else NEAR


_SPACES = regex.compile(r"[ \t\u3000]+")


_CHINESE_GAP = regex.compile(r"(?<=[^\x00-\x7f])[ \t\u3000]+(?=[^\x00-\x7f])")  # not between English words


def _title_gap(items: Sequence[ListItem]) -> str | None:
    """The space this list writes between the parts of a title ("信息技术 开放系统互连", or four spaces,
    or an ideographic one): the most frequent run inside its titles, None when no title has one."""
    runs = Counter(m.group(0) for item in items for m in _CHINESE_GAP.finditer(item.title))
    return runs.most_common(1)[0][0] if runs else None


def _spaced(title: str, gap: str | None) -> str:
    """A borrowed title with the list's own space between its parts (mixed widths and runs
    of spaces give an inserted entry away)."""
    return title if gap is None else _CHINESE_GAP.sub(gap, title)


def _corpus_candidates(document: Document, a: Analysis, context: InjectionContext) -> list[Candidate]:
    """Real numbers from the lists of other corpus documents that fit this one (`_fits`): the same
    field first, then those of the families this list already uses (GB/T, JT/T …) and whose titles share
    the most specific words with this document, then the most widely cited. The title takes the list's
    own space and punctuation widths."""
    if a.list_target is None:
        return []
    style = document.sections[a.list_target].text
    body = "\n".join(
        s.title + "\n" + s.text
        for s in document.sections
        if s.kind not in ("normative_references", "bibliography")
    )
    topic = document.title + "".join(s.text for s in document.sections if s.kind == "scope")
    families = {item.cited.family for item in a.items}
    gap = _title_gap(a.items)
    series = {(item.cited.family, item.cited.parts[0]) for item in a.items}
    kin = _kin(document, a)
    field = field_of(document.cover.ics, document.cover.ccs)
    references = context.references_for(document)
    shared = _shared(references)
    titles = list(dict.fromkeys(r.entry.title for r in references))
    frequency = Counter(w for t in titles for w in _title_words(t))
    rarity = {w: math.log((1 + len(titles)) / n) for w, n in frequency.items() if 2 * n <= len(titles)}
    ranked: dict[str, tuple[bool, bool, float, int, Candidate]] = {}
    popularity: Counter[str] = Counter()
    fitting: dict[tuple[ReferenceEntry, str], Cited | None] = {}  # many documents list one standard alike
    for order, ref in enumerate(references):
        match = _field_match(field, field_of(ref.ics, ref.ccs))
        near = bool(match)
        if (ref.entry, match) not in fitting:
            fitting[(ref.entry, match)] = _fitting(
                ref.entry, match, a, series, body, kin, _series(ref.entry.number) in shared
            )
        cited = fitting[(ref.entry, match)]
        if cited is None:
            continue
        key = f"{cited.family} {cited.number}"
        popularity[key] += 1
        if key not in ranked:
            affinity = _affinity(ref.entry.title, topic, body, rarity)
            title = _spaced(match_style(ref.entry.title, style), gap)
            ranked[key] = (near, cited.family in families, affinity, order, Candidate(cited, title))
    ranking = sorted(
        ranked,
        key=lambda k: (not ranked[k][0], not ranked[k][1], -ranked[k][2], -popularity[k], ranked[k][3]),
    )
    return [ranked[k][4] for k in ranking]


def _fitting(
    entry: ReferenceEntry,
    field: str,
    a: Analysis,
    series: set[tuple[str, int]],
    body: str,
    kin: str,
    shared: bool,
) -> Cited | None:
    """The entry's standard when this document may list it: never mentioned here, not published after it
    (a list of 2020 holding "GB/T 98765—2028" gives itself away), and fitting (`_fits`)."""
    cited = parsed(entry.line, entry.number, entry.year)
    if cited is None or not entry.title or a.mentioned(cited) or excluded(cited, a.own):
        return None
    if a.impossible(cited):
        return None
    return cited if _fits(cited, entry.title, field, series, body, kin, shared) else None


def _series(number: str) -> str:
    """ "GB/T 2423" of "GB/T 2423.3": the series a part belongs to."""
    return number.split(".")[0]


def _shared(references: Sequence[CorpusReference]) -> frozenset[str]:
    """The series that documents of two ICS groups or more list: standards every field draws on (GB/T 2423
    environmental testing, GB 4208 enclosure protection), any part of them."""
    groups: dict[str, set[str]] = {}
    for ref in references:
        group = ref.ics.strip().split(".")[0]
        if group:
            groups.setdefault(_series(ref.entry.number), set()).add(group)
    return frozenset(n for n, g in groups.items() if len(g) >= 2)


def _kin(document: Document, a: Analysis) -> str:
    """What a drafter of this document draws references from: its own title and the titles of the documents
    it lists or gives in its bibliography (the field of its citations, in their own words)."""
    titles = [document.title, *(i.title for i in a.items), *(e.title for _, e in a.bibliography)]
    return "\n".join(titles)


class UncitedReferenceListed(Injector):
    """NREF-02: add to the list a real standard of the same field that the document cites nowhere.

    Why: the list holds only documents the text cites normatively; an extra entry misleads users about
    what the provisions depend on. The number and title are real, taken from the list of another corpus
    document: of this list's own series, or one a drafter of this document would plausibly list, its title
    sharing a content word with this document's title or its listed and bibliography titles and speaking of
    what this document speaks of (`_fits`; none: no site); the entry goes where the list order stays as it
    was.
    """

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "5c478ade1123fe1e"

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        a = analyse(document)
        return list_reason(document, a, bool(listed_but_not_cited(document)), "no_fitting_reference")

    def sites(self, document: Document, context: InjectionContext) -> Iterator[Site]:
        a = analyse(document)
        if a.list_target is None or not a.items or listed_but_not_cited(document):
            return
        for candidate in _corpus_candidates(document, a, context)[:MAX_CANDIDATES]:
            yield Site(a.list_target, candidate)

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        inserted = inserted_entry(document, site)
        if inserted is None:
            return None
        section, replacement, entry = inserted
        return Proposal(
            Edit("modify", site.target, (replacement,)),
            error=f"{place_name(section.number)}规范性引用文件清单中列出了“{entry}”，但正文中没有任何条款引用该文件",
            fix=f"删除“{entry}”，或在需要引用该文件的条款中规范性地引用它",
        )


DEFINITION = TypeDefinition(ERROR_TYPE, UncitedReferenceListed, checks=(listed_but_not_cited,))
