"""What in a document makes a changed modal verb detectable, for NMS-01 (应 → 宜) and NMS-02 (宜 → 应).

A modal verb changed on an ordinary clause reads as a plausible provision: nobody given only the corrupted
document could tell. A change is detectable when the document itself says how strong the provision must be:

- the clause is a pass/fail item of the inspection rules (检验规则, 判定, a table of 检验项目 names it or
  its sub-chapter);
- a test method presupposes it (the 试验方法 chapter refers to the clause itself, not its sub-chapter, and
  not as a test's conditions, or tests what it is about);
- it carries a limit value (不大于 5 mm, ≤ 0.5 ℃, 30 min 内 …) or a safety consequence (防止触电 …);
- a sibling of the same list or sentence keeps the modal verb and binds the same actor to the same object
  (`same_provision`), for a requirement as for a recommendation: two subjects or two objects may
  legitimately carry different strengths ("a) 开启角度应…；b) 柜门宜…" is a plausible list);
- the document states the same provision again elsewhere (the same whole sentence, under the same
  headings but for a grade) with the modal verb kept (`restatement`). For a recommendation only a later
  statement counts, for a requirement only an earlier one: a document that states one provision grade by
  grade ("第二级…可…", "第三级…可…") may require at a higher grade what a lower one only recommends,
  never the other way round;
- a lead-in binds the clause's actor to every item of its list as a requirement ("柜门应符合下列要求："
  before its items, "必须满足以下各项要求。" closing the parent of its sub-clauses; not "下列规定", which
  may permit too, nor where another item recommends): a weakened item contradicts it (`lead_in`);
- a permission to set something (可自定义, 可设置, 可调整 …) whose value the document gives a default for
  elsewhere (缺省超时, 默认值): a required setting has no default;
- for a recommendation, the document's explanation of the clause (a 条文说明 section titled by the
  clause's number, "5.1.1条") recommends or permits the same act on the same object ("推荐…采用X",
  "也可以采用其他…"): the drafter's own reading of the clause. Not where the clause lists options
  ("宜采用A、B、C等"): recommending one of them says nothing of whether choosing among them is required;
- for a recommendation, its own sentence (or the next one) offers an alternative (也可 …) or hedges it
  (条件允许时, 如有可能), or a later sentence of the clause presupposes that the option may not be taken
  ("可设置旁路阀。设置旁路阀时，……": once it is required, the condition is empty). "优先" and "尽可能"
  are no evidence: "应优先采用",
  "应尽可能减少" are ordinary requirements. A sibling is evidence for a recommendation only when it has the
  same actor and the same object (`same_provision`): two subjects or two objects may legitimately carry
  different strengths ("下级平台应通过主链路…，上级平台可以通过从链路…", "正常信息应采用…，变化信息宜采用…").

- the document itself declares the clause's object optional (for a recommendation or permission) or
  mandatory (for a requirement) (`declared`): a table row naming the object in full marks it in a
  column that says whether an item must be given (必选/可选, 是否必填, 约束 M/O: "可选", "O", "否";
  "必选", "M", "是"), or a sentence says so ("抓拍图片编号为可选项", "卡片序列号（必填）"). Only the
  object as the clause names it (the same words, at least three characters): a row for another field or
  for a longer name holding it ("图片编号长度") is none; nor is M/O in a column that is no necessity
  column (a code column "数据来源代码 | M"), nor an object listed with options ("可附加A或B"), nor a
  name the document marks both ways.

Each finder returns `Evidence` (its kind, the document's own words, where they stand) that the description
names; a site without evidence is no site.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.language.modals import (
    PERMISSION,
    RECOMMENDATION,
    REQUIREMENT,
    Modal,
    clause_span,
    lexicon,
    modal_verbs,
    next_word,
    sentence_span,
)
from injectors.language.patterns import HAN_WORD
from injectors.language.quotes import shorten
from injectors.types.nms.analysis import is_table_row
from parsers.model import Document, Section

FALLBACK = "fallback"
PRESUPPOSED = "presupposed"
INSPECTION, TEST_METHOD, LIMIT, SAFETY, SIBLING, ALTERNATIVE, HEDGE, RESTATED, DEFAULT, COMMENTARY = (
    "inspection",
    "test_method",
    "limit",
    "safety",
    "sibling",
    "alternative",
    "hedge",
    "restated",
    "default",
    "commentary",
)
LEAD_IN = "lead_in"
DECLARED = "declared"

_INSPECTION_TITLE = regex.compile(r"检验规则|判定|检验项目|出厂检验|型式检验|交收检验|验收规则|抽样")
_TEST_TITLE = regex.compile(r"试验方法|检验方法|测试方法|检测方法|测量方法|试验$|测试$|检测$|检查$")
_GENERIC_TITLES = frozenset(
    lexicon(
        "要求 一般要求 基本要求 通用要求 总体要求 技术要求 总则 概述 其他 其他要求 一般规定 基本规定 通则"
    )
)
_UNITS = lexicon(
    "mm cm km m² m³ m/s² m/s m kg g mg ℃ °C K % ms s min h d kV mV V mA A kW W Hz kHz MHz GHz"
    " MPa kPa Pa lx dB dBm"
    " Mbit/s kbit/s bit MB GB KB N kN mL L r/min μm 个月 个 年 次 台 天 小时 分钟 秒 倍 级 位 字 条 块"
)
_UNIT = "(?:" + "|".join(regex.escape(u) for u in sorted(_UNITS, key=len, reverse=True)) + ")(?![A-Za-z])"
_NUMBER = r"[-+]?(?:\d{1,3}(?: \d{3})+(?![\d.])|\d+(?:\.\d+)?)"
_LIMIT = regex.compile(
    r"(?:不大于|不小于|不超过|不低于|不高于|不少于|不多于|不得超过|大于|小于|低于|高于|少于|多于|超过|≤|≥|＜|＞|<|>)"
    rf"\s*{_NUMBER}\s*{_UNIT}?"
    rf"|{_NUMBER}\s*{_UNIT}\s*(?:[～~至\-]\s*{_NUMBER}\s*{_UNIT})?\s*(?:以内|以上|以下|内|之内)"
    rf"|{_NUMBER}\s*{_UNIT}\s*[～~至]\s*{_NUMBER}\s*{_UNIT}"
)
_HAZARD = (
    r"(?:伤害|伤亡|人身|触电|电击|火灾|起火|着火|燃烧|爆炸|烫伤|灼伤|夹伤|割伤|划伤|砸伤|中毒|窒息|感染|漏电|"
    r"短路|危险|事故|坠落|倾倒|倾覆)"
)
_SAFETY = regex.compile(rf"(?:防止|避免|以免|以防|防范|杜绝|减少)[^，,；;。]{{0,16}}?{_HAZARD}")
_ALTERNATIVE = regex.compile(r"也可以|也可|亦可|或可|还可以|还可|也宜")
# a hedge that contradicts a requirement; not 优先 / 尽可能 ("应优先采用", "应尽可能减少" are requirements)
_HEDGE = regex.compile(r"在条件允许|条件允许时|条件具备时|有条件的|如有可能|如果可能")
_FALLBACK = regex.compile(
    r"(?:无法|不能|难以|未能|不)(?:满足|达到|实现|做到)(?:时|的)|(?:超过|超出|低于|高于|大于|小于|不足)(?:时|的情况下)"
    r"|确有困难|条件不具备"
)
_EXAMPLES = regex.compile(r"(?:^|[，,：:（(、])(?:例如|比如|如)(?![果何下图表此])")
_LIST_ITEM = regex.compile(r"^\s*(?:[a-z]\)|[a-z]）|\d{1,2}\)|\d{1,2}）|——|—)")


@dataclass(frozen=True)
class Evidence:
    """Why a change of this modal verb is detectable: a kind, the document's own words, where they stand."""

    kind: str
    words: str
    where: str  # 本条, 第7.2条, 附录A …
    mark: str = ""  # for DECLARED from a table: the cell that marks the item (可选, O, 否 …)


def place(number: str) -> str:
    if number[:1].isdigit():
        return f"第{number}章" if "." not in number else f"第{number}条"
    return number


# --- the document's inspection rules and test methods --------------------------------------------------
@dataclass(frozen=True)
class Referrer:
    """A section of the inspection rules or the test methods, with the titles above it."""

    kind: str  # INSPECTION | TEST_METHOD
    section: Section
    titles: str  # its own title and its ancestors', joined


@lru_cache(maxsize=256)
def referrers(document: Document) -> tuple[Referrer, ...]:
    """The sections that can make a clause a pass/fail item or presuppose it: inspection rules, tests."""
    out: list[Referrer] = []
    chain: list[Section] = []
    for section in document.sections:
        if section.kind not in ("clause", "annex"):
            continue
        chain = [s for s in chain if s.level < section.level] + [section]
        titles = " ".join(s.title for s in chain)
        if _INSPECTION_TITLE.search(titles):
            out.append(Referrer(INSPECTION, section, titles))
        elif any(_TEST_TITLE.search(s.title) for s in chain):
            out.append(Referrer(TEST_METHOD, section, titles))
    return tuple(out)


@lru_cache(maxsize=4096)
def _number_pattern(number: str) -> regex.Pattern[str]:
    return regex.compile(rf"(?<![\d.]){regex.escape(number)}(?![\d]|\.\d)")


def _mentions_number(text: str, number: str) -> regex.Match[str] | None:
    return _number_pattern(number).search(text) if number in text else None


@lru_cache(maxsize=4096)
def _item_pattern(title: str) -> regex.Pattern[str]:
    """The title as an item of an inspection list (between list punctuation or conjunctions)."""
    return regex.compile(
        rf"(?:^|(?<=[、，,：:|为和及与 ])){regex.escape(title)}(?=$|[、，,；;。|和及与等 ])", regex.M
    )


def _line_at(text: str, at: int) -> str:
    a = text.rfind("\n", 0, at) + 1
    b = text.find("\n", at)
    return text[a : b if b >= 0 else len(text)]


def _excerpt(line: str, at: int, end: int, avoid: Modal | None = None) -> str:
    """The comma-delimited phrase of `line` around [at, end), whole words, shortened when long; never
    holding `avoid` (the modal verb an error changes: its sibling is quoted as the corrupted text reads,
    not "并列的“可采用A或可采用B”" where the first 可 became 应)."""
    a = at
    while a > 0 and line[a - 1] not in "，,；;。：:|":
        a -= 1
    b = end
    while b < len(line) and line[b] not in "，,；;。|":
        b += 1
    if avoid is not None and a <= avoid.start < b:
        a, b = (max(a, avoid.end), b) if avoid.start < at else (a, min(b, avoid.start))
        a = max(a, at) if avoid.start < at else a
    phrase = line[a:b].strip().rstrip("或和及与、并且而也还")
    return phrase if len(phrase) <= 30 else shorten(phrase, 30)


def _owners(document: Document, position: int) -> list[Section]:
    """The clause at `position` and its ancestors below chapter level (5.4.1, 5.4), nearest first."""
    section = document.sections[position]
    out = [section]
    level = section.level
    for s in reversed(document.sections[:position]):
        if s.level < level and s.level >= 2 and s.kind == section.kind:
            out.append(s)
            level = s.level
        if s.level <= 1:
            break
    return out


# "在7.1的试验条件下", "按5.2规定的条件": the mention takes the clause as the conditions of a test, which
# says nothing about whether the clause is a requirement
_AS_CONDITIONS = regex.compile(r"\s*(?:[中的所]|规定的|给出的){0,2}\s*(?:试验|测试|检验|环境|工作)?条件")


def _as_conditions(text: str, end: int) -> bool:
    return _AS_CONDITIONS.match(text, end) is not None


def referenced_by(document: Document, position: int) -> list[Evidence]:
    """The inspection rules or test methods that name this clause (or, for the inspection rules, its
    sub-chapter) by number or title. A test method that names the sub-chapter tests something of it, not
    necessarily this clause ("在7.1的试验条件下" checks repeatability, not 7.1.7's markings); a mention
    that takes the clause as a test's conditions tests nothing of it."""
    own_chapter = document.sections[position].number.split(".")[0]
    out: list[Evidence] = []
    for depth, owner in enumerate(_owners(document, position)):
        title = owner.title.strip()
        named = len(title) >= 2 and title not in _GENERIC_TITLES and title != owner.number
        for ref in referrers(document):
            if ref.section.number.split(".")[0] == own_chapter:
                continue
            if depth and ref.kind != INSPECTION:
                continue
            hit = _mentions_number(ref.section.text, owner.number)
            if hit is not None and _as_conditions(ref.section.text, hit.end()):
                continue
            if hit is not None:
                line = _line_at(ref.section.text, hit.start())
                offset = hit.start() - (ref.section.text.rfind("\n", 0, hit.start()) + 1)
                words = _excerpt(line, offset, offset + len(owner.number))
                out.append(Evidence(ref.kind, words, place(ref.section.number)))
            elif named and ref.kind == TEST_METHOD and title in ref.section.title:
                out.append(Evidence(TEST_METHOD, ref.section.heading, place(ref.section.number)))
            elif named and ref.kind == INSPECTION:
                item = _item_pattern(title).search(ref.section.text) if title in ref.section.text else None
                at = item.start() if item is not None else -1
                if at >= 0 and regex.search(r"项目|\|", _line_at(ref.section.text, at)):
                    line = _line_at(ref.section.text, at)
                    offset = at - (ref.section.text.rfind("\n", 0, at) + 1)
                    out.append(
                        Evidence(
                            INSPECTION, _excerpt(line, offset, offset + len(title)), place(ref.section.number)
                        )
                    )
    return out


# --- the clause's own sentence and list ------------------------------------------------------------------
def _provision_after(line: str, modal: Modal) -> str:
    """What the modal verb governs: its comma clause after it, up to the next modal verb."""
    _, b = clause_span(line, modal.start, modal.end)
    following = [m.start for m in modal_verbs(line) if m.start >= modal.end]
    return line[modal.end : min([b, *following])]


def _sentence_after(line: str, modal: Modal) -> str:
    _, b = sentence_span(line, modal.start, modal.end)
    return line[modal.end : b]


def limit_value(line: str, modal: Modal) -> list[Evidence]:
    """A limit value in the provision the modal verb makes (数值 + 单位, 不大于/不少于/≤ …)."""
    rest = _provision_after(line, modal)
    found = _LIMIT.search(rest)
    if found is None:
        return []
    words = found.group().strip()
    if modal.negative and found.start() == 0:
        words = regex.sub(r"^\D+", "", words)  # 不应低于98%: the limit is "98%"
    return [Evidence(LIMIT, words, "本条")] if words else []


def safety_consequence(line: str, modal: Modal) -> list[Evidence]:
    """A safety purpose in the same sentence (防止触电, 避免夹伤人员 …)."""
    a, b = sentence_span(line, modal.start, modal.end)
    found = _SAFETY.search(line[a:b])
    return [Evidence(SAFETY, found.group(), "本条")] if found else []


def _actor(line: str, modal: Modal) -> str:
    """Who the provision binds: the words before the modal verb in its clause ("" when the clause has
    none of its own and inherits the sentence's or the list's subject)."""
    a, _ = clause_span(line, modal.start, modal.end)
    before = _LIST_ITEM.sub("", line[a : modal.start]) if a == 0 else line[a : modal.start]
    return before.strip(" \t，,：:；;")


def _object(line: str, modal: Modal) -> str:
    """What the provision acts on: its clause after the modal verb and the verb that follows it."""
    verb = next_word(line, modal.end)
    return _provision_after(line, modal)[len(verb) :].strip(" \t，,。；;")


def same_provision(line: str, modal: Modal, other_line: str, other: Modal) -> bool:
    """Whether two modal verbs bind the same actor to the same object (a subject left out is the
    sentence's or the list lead's, and so the same): only then does the other one's strength say what this
    one's must be."""
    if _actor(line, modal) != _actor(other_line, other):
        return False
    mine, theirs = _object(line, modal), _object(other_line, other)
    return bool(mine) and mine == theirs


def list_siblings(
    section: Section, line_offset: int, force: str, modal: Modal | None = None
) -> list[Evidence]:
    """Items of the same list (a) b) c), ——) that keep a modal verb of `force` (given `modal`, only those
    that bind its actor to its object: `same_provision`)."""
    lines = section.text.split("\n")
    at = section.text.count("\n", 0, line_offset)
    if not _LIST_ITEM.match(lines[at]):
        return []
    first, last = at, at
    while first > 0 and _LIST_ITEM.match(lines[first - 1]):
        first -= 1
    while last + 1 < len(lines) and _LIST_ITEM.match(lines[last + 1]):
        last += 1
    out = []
    for i in range(first, last + 1):
        if i == at:
            continue
        found = next((m for m in modal_verbs(lines[i]) if m.force == force), None)
        if found is None or not _heads_its_item(lines[i], found):
            continue
        if modal is not None and not same_provision(lines[at], modal, lines[i], found):
            continue
        out.append(Evidence(SIBLING, _excerpt(lines[i], found.start, found.end), "同一列项"))
    return out


def sentence_siblings(
    line: str, modal: Modal, same_verb: bool = True, same_actor: bool = False
) -> list[Evidence]:
    """Parallel clauses of the same sentence keeping the same modal verb ("长度宜为…，宽度宜为…",
    "箱体不应破裂，盖体不应脱开"): a list written in one sentence (with `same_actor`, only clauses that
    bind the same actor to the same object: `same_provision`)."""
    a, b = sentence_span(line, modal.start, modal.end)
    if _EXAMPLES.search(line[a:b]):
        return []  # "如按钮可点击、复选框可改变状态": examples, not a list of provisions
    nxt = next_word(line, modal.end)
    out = []
    for other in modal_verbs(line[:b]):
        if other.start < a or other.start == modal.start or other.word != modal.word:
            continue
        if line[other.start - 1 : other.start] == "除":
            continue  # "除应由厂商进行的操作外": names the exception, no parallel provision
        if same_actor and not same_provision(line, modal, line, other):
            continue
        if modal.negative or not same_verb or next_word(line, other.end) == nxt:
            out.append(Evidence(SIBLING, _excerpt(line, other.start, other.end, avoid=modal), "同一句"))
    return out


# --- the same provision stated again elsewhere ------------------------------------------------------------
_KEY_NOISE = regex.compile(r"[\s\p{P}\p{S}]+")
_MIN_KEY_HAN = 12  # "宜采用A" alone recurs by chance; a whole sentence with its actor and object does not


def _restatement_key(section: Section, line: str, modal: Modal) -> str | None:
    """The provision a modal verb makes, as the same wording would read anywhere else: its whole sentence
    (condition, actor, object, less a list marker) without the modal verb itself, and for a list item the
    list's lead-in (which gives the items their actor); full-width forms and punctuation folded. None when
    too short to be told apart."""
    a, b = sentence_span(line, modal.start, modal.end)
    before = _LIST_ITEM.sub("", line[a : modal.start])
    after = line[modal.end : b]
    if len(regex.findall(r"\p{Han}", after)) < 3:
        return None
    key = _fold(before) + "|" + _fold(after)
    if len(regex.findall(r"\p{Han}", key)) < _MIN_KEY_HAN:
        return None
    return _fold(_lead_in(section, line)) + "|" + key if _LIST_ITEM.match(line) else key


def _fold(text: str) -> str:
    return _KEY_NOISE.sub("", unicodedata.normalize("NFKC", text))


def _lead_in(section: Section, line: str) -> str:
    """The line that introduces the list `line` is an item of ("" when there is none)."""
    lines = section.text.split("\n")
    at = lines.index(line) if line in lines else 0
    while at > 0 and (_LIST_ITEM.match(lines[at]) or not lines[at].strip()):
        at -= 1
    return "" if _LIST_ITEM.match(lines[at]) else lines[at]


@dataclass(frozen=True)
class Statement:
    """A provision as the document states it: where (its section's position), the line, the modal verb."""

    position: int
    number: str
    line: str
    modal: Modal


@lru_cache(maxsize=64)
def _statements(document: Document) -> dict[str, tuple[Statement, ...]]:
    """Every provision of the document by its `_restatement_key` (body, notes, annexes; no table rows)."""
    out: dict[str, list[Statement]] = {}
    for position, section in enumerate(document.sections):
        for line in section.text.split("\n"):
            if not line.strip() or is_table_row(line):
                continue
            for modal in modal_verbs(line):
                key = _restatement_key(section, line, modal)
                if key is not None:
                    out.setdefault(key, []).append(Statement(position, section.number, line, modal))
    return {k: tuple(v) for k, v in out.items()}


def restatement(document: Document, position: int, line: str, modal: Modal, later: bool) -> list[Evidence]:
    """The same provision stated in another section with the same force, after this one (`later`) or
    before it: changed here, the document states one provision two ways. Never a statement of the same
    section (a line a parser repeated is no second statement)."""
    key = _restatement_key(document.sections[position], line, modal)
    if key is None:
        return []
    number = document.sections[position].number
    for other in _statements(document).get(key, ()):
        if other.modal.force != modal.force or other.modal.negative != modal.negative:
            continue
        if (other.position > position) != later or other.number == number:
            continue
        if _context(document, other.position) != _context(document, position):
            continue
        words = _quotable(other.line, other.modal)
        if words:
            return [Evidence(RESTATED, words, place(other.number))]
    return []


_SETTING_VERBS = frozenset(lexicon("自定义 自行定义 设置 设定 修改 调整 配置 扩充 扩展 更改"))


def default_value(document: Document, position: int, line: str, modal: Modal) -> list[Evidence]:
    """A permission to set what the document gives a default for ("超时时间…可自定义" and "缺省超时及重发次数
    定义如表1"): where a default stands, not setting it is an option, so a required setting contradicts it.
    The default must name the provision's own actor (its first word)."""
    if modal.force != PERMISSION or next_word(line, modal.end) not in _SETTING_VERBS:
        return []
    actor = _actor(line, modal)
    first = regex.search(r"\p{Han}", actor)  # past a bullet a PDF kept ("\uf06c 超时时间…")
    head = next_word(actor, first.start()) if first is not None else ""
    if len(head) < 2 or not HAN_WORD.fullmatch(head):
        return []
    pattern = regex.compile(rf"(?:缺省|默认)(?:的|值)?{regex.escape(head)}")
    for other in document.sections:
        for other_line in other.text.split("\n"):
            found = pattern.search(other_line) if head in other_line and other_line != line else None
            if found is not None:
                words = _excerpt(other_line, found.start(), found.end())
                words = regex.split(r"[“”\"「」‘’《》（(]", words)[0].strip()
                if len(words) >= 4:
                    return [Evidence(DEFAULT, words, place(other.number))]
    return []


_RECOMMENDING = regex.compile(r"(?<!不)(?:推荐|建议)")
_DISCOURAGING = regex.compile(r"不推荐|不建议")
# "编码格式", "通信协议" are anyone's; "紧凑二进制", "RS-485", "Modbus-RTU" name the object
_MIN_SHARED, _MIN_SHARED_LATIN = 5, 4


def _commentaries(document: Document, position: int) -> list[Section]:
    """The sections that explain this clause by naming its number as their title ("5.1.1条", "第5.1.1条",
    "6.2.2 报文帧控制字符定义" in a 条文说明): never the clause itself or a clause under it."""
    number = document.sections[position].number
    if not number[:1].isdigit() or "." not in number:
        return []
    titled = regex.compile(rf"^第?{regex.escape(number)}(?:条|[ \u3000]|$)")
    return [
        s
        for i, s in enumerate(document.sections)
        if i != position
        and s.number != number
        and not s.number.startswith(number + ".")
        and titled.match(s.title.strip())
    ]


def _shared(a: str, b: str) -> bool:
    """Whether two texts share a name: a run of `_MIN_SHARED` characters, or `_MIN_SHARED_LATIN` holding
    a Latin letter or digit (spaces and punctuation folded)."""
    a, b = _fold(a), _fold(b)
    for size in (_MIN_SHARED_LATIN, _MIN_SHARED):
        runs = (a[i : i + size] for i in range(len(a) - size + 1))
        if any(r in b and (size == _MIN_SHARED or regex.search(r"[A-Za-z0-9]", r)) for r in runs):
            return True
    return False


def _recommending(sentence: str, negative: bool) -> list[int]:
    """Where a sentence recommends or permits (推荐, 建议, 宜, 可, 可以; 不推荐, 不建议, 不宜 for a
    negative provision)."""
    words = _DISCOURAGING if negative else _RECOMMENDING
    found = [m.start() for m in words.finditer(sentence)]
    found += [
        m.start
        for m in modal_verbs(sentence)
        if m.force in (RECOMMENDATION, PERMISSION) and m.negative == negative and m.word != "不必"
    ]
    return sorted(found)


def commentary(document: Document, position: int, line: str, modal: Modal) -> list[Evidence]:
    """The document's explanation of this clause recommends or permits what the clause provides: the same
    verb after 推荐/建议/宜/可 in one sentence, on an object sharing a name with the clause's ("且推荐传感器
    采用RS-485接口" for "传感器宜采用RS-485接口"). Strengthened, the clause requires what its own
    explanation only recommends."""
    verb = next_word(line, modal.end)
    if len(verb) < 2 or not HAN_WORD.fullmatch(verb):
        return []
    thing = _provision_after(line, modal)[len(verb) :]
    if _OPTIONS.search(thing) or "等" in thing or len(_fold(thing)) < _MIN_SHARED:
        return []  # "宜采用A、B或C等": a commentary preferring A leaves the choice among them open
    out = []
    for other in _commentaries(document, position):
        for found in regex.finditer(r"[^。；;\n]+", other.text):
            sentence = found.group()
            for at in _recommending(sentence, modal.negative):
                act = sentence.find(verb, at)
                if act < 0 or act - at > 16 or not _shared(thing, sentence[act + len(verb) :]):
                    continue
                _, b = clause_span(sentence, act, act + len(verb))
                while b < len(sentence) and not _shared(thing, sentence[act + len(verb) : b]):
                    _, b = clause_span(sentence, b + 1, b + 1)
                words = shorten(sentence[at:b].strip(), 40)
                out.append(Evidence(COMMENTARY, words, place(other.number)))
                break
    # a sentence that names the recommendation (推荐, 建议) says more than one that permits (可以)
    out.sort(key=lambda e: _RECOMMENDING.match(e.words) is None and _DISCOURAGING.match(e.words) is None)
    return out[:1]


_GRADE = regex.compile(r"第?[一二三四五六七八九十\d]+级")


def _context(document: Document, position: int) -> tuple[str, ...]:
    """What a section is about: its own title and its ancestors', a grade ("第三级") left out. The same
    sentence under "取水口信息编码" and under "排水口信息编码" binds two subjects; under "第二级安全要求"
    and "第三级安全要求" it binds one subject at two grades."""
    section = document.sections[position]
    chain = [section.title]
    level = section.level
    for s in reversed(document.sections[:position]):
        if s.level < level:
            chain.append(s.title)
            level = s.level
        if level <= 1:
            break
    return tuple(_GRADE.sub("", t).strip() for t in chain)


def _quotable(line: str, modal: Modal) -> str:
    """The other statement's words around its modal verb, up to a quotation mark (a description's quote
    holds none): the phrase of `_excerpt`, or from the clause before it when the phrase is too short."""
    stop = regex.search(r"[“”\"「」‘’]", line[modal.end :])
    end = modal.end + stop.start() if stop else len(line)
    words = _excerpt(line[:end], modal.start, modal.end).strip()
    if len(words) >= 6:
        return words
    a, _ = clause_span(line, modal.start, modal.end)
    a, _ = clause_span(line, a - 1, a - 1) if a > 0 else (a, a)
    words = line[a:end].strip().rstrip("，,")
    return words if 6 <= len(words) <= 40 else ""


_NOT_HEADING = regex.compile(r"保证|确保|使|以便|即|才|从而|是指|表示|意味")


def _heads_its_item(line: str, modal: Modal) -> bool:
    """The modal verb makes the item's provision: not "……才可发送", "保证客户可以……", "即用户可……"."""
    before = line[: modal.start]
    if before[-1:] in ("才", "方", "均", "都", "也", "亦", "即"):
        return False
    return _NOT_HEADING.search(before) is None


# "应符合下列要求：", "必须满足以下各项要求。": a lead-in that makes every item after it a requirement. Not
# "应符合下列规定" (a 规定 may permit as well as require: its items say "可用于…" beside "应…"), nor
# "一般应符合下列要求", which leaves room for exceptions.
_REQUIRED_ITEMS = regex.compile(
    r"(?<!一般|原则上|通常|一般情况下)(?:应|必须|须)(?:分别|同时|全部)?(?:符合|满足|遵守|遵循|达到)"
    r"(?:下列|以下|如下)(?:各项|所有|全部)?(?:要求|条件)[：:。]?\s*$"
)


def lead_in(document: Document, position: int, line: str, modal: Modal) -> list[Evidence]:
    """The lead-in that binds this item's actor to every item of its list ("柜门应符合下列要求：" before
    "b) 柜门应能自动锁闭", or a sub-clause under "7.1 … 必须满足以下各项要求。"): the same actor bound to
    this very provision as a requirement, so a weakened item contradicts it. Unless another item already
    recommends (宜): then the document's own list shows that the lead-in is not meant for every item."""
    section = document.sections[position]
    if _LIST_ITEM.match(line):
        if not _heads_its_item(line, modal):
            return []
        lead = _lead_in(section, line).strip()
        found = _REQUIRED_ITEMS.search(lead)
        if found is None or _recommends(_list_of(section.text.split("\n"), line)):
            return []
        return [Evidence(LEAD_IN, _lead_words(lead, found.start()), "本条")]
    parent = next((s for s in reversed(document.sections[:position]) if s.level < section.level), None)
    if parent is None or parent.level != section.level - 1 or parent.kind != section.kind:
        return []
    last = next((x.strip() for x in reversed(parent.text.split("\n")) if x.strip()), "")
    found = _REQUIRED_ITEMS.search(last)
    if found is None or _recommends(_sub_clauses(document, document.sections.index(parent))):
        return []
    return [Evidence(LEAD_IN, _lead_words(last, found.start()), place(parent.number))]


def _list_of(lines: list[str], line: str) -> list[str]:
    """The items of the list `line` belongs to (consecutive list-item lines around it)."""
    at = lines.index(line) if line in lines else 0
    first, last = at, at
    while first > 0 and _LIST_ITEM.match(lines[first - 1]):
        first -= 1
    while last + 1 < len(lines) and _LIST_ITEM.match(lines[last + 1]):
        last += 1
    return lines[first : last + 1]


def _sub_clauses(document: Document, parent: int) -> list[str]:
    """The text of every clause directly or indirectly under the section at `parent`."""
    level = document.sections[parent].level
    out = []
    for s in document.sections[parent + 1 :]:
        if s.level <= level:
            break
        out.extend(s.text.split("\n"))
    return out


def _recommends(lines: list[str]) -> bool:
    return any(m.force == RECOMMENDATION for x in lines for m in modal_verbs(x))


def _lead_words(line: str, at: int) -> str:
    """The lead-in's own clause, from its subject to 要求 ("柜门应符合下列要求")."""
    a = at
    while a > 0 and line[a - 1] not in "，,；;。：:":
        a -= 1
    words = line[a:].rstrip("：:。 ")
    return words if len(words) <= 30 else shorten(words, 30)


# --- what the document declares optional or mandatory ----------------------------------------------------
# the header of a column saying whether an item must be given; "是否必填" columns hold 是 / 否
_NECESSITY_HEADER = regex.compile(r"必选|可选(?![值范参内])|是否必|必填|选填|必备|约束|M/O|强制")
_OPTIONAL_MARKS = frozenset(lexicon("可选 O 选填 选配 非必填 非必选 可选项"))
_MANDATORY_MARKS = frozenset(lexicon("必选 M 必填 必备 必选项"))
_SAID = {
    False: regex.compile(
        r"(?:为|是|属于)(?:可选|选配|选装|选填|非必(?:选|需|须|填))|[（(](?:可选|选配|选填)[）)]"
    ),
    True: regex.compile(r"(?:为|是|属于)(?:必选|必填|必备)|[（(](?:必选|必填)[）)]"),
}
_TABLE_TITLE = regex.compile(r"^(表\s*[A-Z]?\.?\d+(?:[.-]\d+)?)(?:\s|$)")
_NAME_BOUNDARY = "的个种项类条组"  # "一个或多个扩展参数" names 扩展参数; "系统扩展参数" names another thing


@dataclass(frozen=True)
class Marked:
    """A table row that marks an item in a necessity column: the item's name, the mark, where."""

    name: str
    mark: str
    mandatory: bool
    where: str  # 表3“是否必填”栏 (第4.1条的表… when the table has no title)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


@lru_cache(maxsize=64)
def _marked_rows(document: Document) -> tuple[Marked, ...]:
    """Every table row that marks an item as optional or mandatory in a necessity column (the column the
    header of its table names 必选/可选, 是否必填, 约束 …); HTML tables are left alone."""
    out: list[Marked] = []
    for section in document.sections:
        header: list[str] | None = None
        where = f"{place(section.number)}的表"
        for line in section.text.split("\n"):
            if not is_table_row(line) or "<t" in line:
                header = None
                caption = _TABLE_TITLE.match(line.strip())
                where = caption.group(1).replace(" ", "") if caption else f"{place(section.number)}的表"
                continue
            cells = _cells(line)
            if header is None:
                header = cells
                continue
            for j, title in enumerate(header):
                if j >= len(cells) or not _NECESSITY_HEADER.search(title):
                    continue
                mark = cells[j]
                yes_no = "是否" in title and mark in ("是", "否")
                if mark not in _OPTIONAL_MARKS and mark not in _MANDATORY_MARKS and not yes_no:
                    continue
                mandatory = mark == "是" if yes_no else mark in _MANDATORY_MARKS
                out.extend(
                    Marked(cell, mark, mandatory, f"{where}“{title}”栏")
                    for k, cell in enumerate(cells)
                    if k != j and len(_fold(cell)) >= 3
                )
    return tuple(out)


def _names(thing: str, name: str) -> bool:
    """Whether `name` names the object `thing` in full: the same words, or its head after a modifier."""
    thing, name = _fold(thing), _fold(name)
    if len(name) < 3 or not thing.endswith(name):
        return False
    return len(thing) == len(name) or thing[-len(name) - 1] in _NAME_BOUNDARY


@dataclass(frozen=True)
class Declaration:
    """A sentence that calls an item optional or mandatory ("抓拍图片编号为可选项"): the item's name, the
    words to quote, which way, where, and the line (never evidence for a clause of its own line)."""

    name: str
    words: str
    mandatory: bool
    where: str
    line: str


@lru_cache(maxsize=64)
def _declarations(document: Document) -> tuple[Declaration, ...]:
    """Every sentence of the document (no table rows) that calls an item optional or mandatory; not a list
    of the values a field may take ("为必选/可选项")."""
    out = []
    for section in document.sections:
        for line in section.text.split("\n"):
            if is_table_row(line) or ("选" not in line and "必" not in line):
                continue
            for mandatory, said in _SAID.items():
                for found in said.finditer(line):
                    if regex.match(r"项?\s*[/／或、]", line[found.end() :]):
                        continue  # "为必选/可选项": the values a field may take, not a mark on one
                    name = regex.split(r"[，,；;。：:、\s]", line[: found.start()])[-1]
                    if len(_fold(name)) >= 3:
                        words = _excerpt(line, found.start() - len(name), found.end())
                        out.append(Declaration(name, words, mandatory, place(section.number), line))
    return tuple(out)


def declared(document: Document, position: int, line: str, modal: Modal, mandatory: bool) -> list[Evidence]:
    """The document marks the clause's object optional (`mandatory` False: evidence for 宜/可) or
    mandatory (True: evidence for 应): a row of a necessity column, or a sentence ("…为可选项",
    "…（必填）"). None where the document marks the same name both ways."""
    thing = _object(line, modal)
    if not thing or _OPTIONS.search(thing) or "等" in thing or regex.search(r"[，,；;：:]", thing):
        return []
    rows = [r for r in _marked_rows(document) if _names(thing, r.name)]
    said = [x for x in _declarations(document) if x.line != line and _names(thing, x.name)]
    if any(r.mandatory != mandatory for r in rows) or any(x.mandatory != mandatory for x in said):
        return []  # the document marks it both ways: no telling which the clause means
    out = [Evidence(DECLARED, r.name, r.where, r.mark) for r in rows]
    out += [Evidence(DECLARED, x.words, x.where) for x in said]
    return out[:1]


def requirement_evidence(
    document: Document, position: int, line_offset: int, line: str, modal: Modal
) -> list[Evidence]:
    """Why 应 must stay 应 here (NMS-01), strongest first; empty when a weakened clause would go unnoticed."""
    section = document.sections[position]
    return (
        referenced_by(document, position)
        + limit_value(line, modal)
        + safety_consequence(line, modal)
        + list_siblings(section, line_offset, REQUIREMENT, modal)
        + sentence_siblings(line, modal, same_actor=True)
        + restatement(document, position, line, modal, later=False)
        + lead_in(document, position, line, modal)
        + declared(document, position, line, modal, mandatory=True)
    )


def recommendation_evidence(
    document: Document, position: int, line_offset: int, line: str, modal: Modal
) -> list[Evidence]:
    """Why 宜/可 must stay optional here (NMS-02): an alternative or a hedge in its own sentence, or list
    siblings that keep the recommendation; empty when a strengthened clause would read as plausible."""
    section = document.sections[position]
    rest = _sentence_after(line, modal)
    out = [Evidence(ALTERNATIVE, m.group(), "本条") for m in _ALTERNATIVE.finditer(rest)][:1]
    _, end = sentence_span(line, modal.start, modal.end)
    nxt = _ALTERNATIVE.match(line, end) if not out else None
    if nxt is not None and next_word(line, nxt.end()) == next_word(line, modal.end):
        out.append(Evidence(ALTERNATIVE, line[nxt.start() : nxt.end()], "本条"))  # "可A。也可采用B。"
    _, end = sentence_span(line, end, end) if end < len(line) else (end, end)  # and the next sentence
    fallback = _FALLBACK.search(line, modal.end, end)
    if fallback is not None:
        out.append(Evidence(FALLBACK, fallback.group(), "本条"))
    a, b = sentence_span(line, modal.start, modal.end)
    hedge = _HEDGE.search(line[a:b])
    if hedge is not None:
        out.append(Evidence(HEDGE, hedge.group(), "本条"))
    out.extend(presupposed_option(section, line_offset, line, modal))
    out.extend(foreseen_alternative(section, line_offset, line, modal))
    force = modal.force if modal.force in (RECOMMENDATION, PERMISSION) else RECOMMENDATION
    # siblings count only where they bind the same actor to the same object: two different recommendations
    # in one sentence or list ("宜使用…，分类宜采用…", "下级平台应…，上级平台可以…") are common, and
    # strengthening one of them is plausible
    parallel = sentence_siblings(line, modal, same_verb=True, same_actor=True)
    restated = restatement(document, position, line, modal, later=True)
    defaults = default_value(document, position, line, modal)
    explained = commentary(document, position, line, modal)
    siblings = list_siblings(section, line_offset, force, modal)
    marked = declared(document, position, line, modal, mandatory=False)
    return out + siblings + parallel + restated + defaults + explained + marked


_OPTIONS = regex.compile(r"[、或]")  # "A、B或C": options listed after the verb
_CONDITION_OPENER = r"(?:当|如|若|如果|如需|对于|对)"
_CONDITION_CLOSER = r"(?:时|的情况下|后)[，,]"


@lru_cache(maxsize=1024)
def _condition_on(verb: str, thing: str) -> regex.Pattern[str]:
    """A condition made of doing `verb` … `thing` ("设置防雷装置时，", "当采用…时，")."""
    act = rf"{regex.escape(verb)}[^。；;，,\n]{{0,6}}?{regex.escape(thing)}"
    return regex.compile(
        rf"{_CONDITION_OPENER}[^。；;，,\n]{{0,8}}?{act}[^。；;，,\n]{{0,10}}?{_CONDITION_CLOSER}"
        rf"|(?:^|[。；;\n]){act}[^。；;，,\n]{{0,10}}?{_CONDITION_CLOSER}"
    )


def presupposed_option(section: Section, line_offset: int, line: str, modal: Modal) -> list[Evidence]:
    """A later sentence of the same clause made conditional on doing what the modal only recommends or
    permits ("宜设置防雷装置。……设置防雷装置时，应……"): strengthened, the condition no longer selects."""
    verb = next_word(line, modal.end)
    if len(verb) < 2 or not HAN_WORD.fullmatch(verb):
        return []
    thing = next_word(line, modal.end + len(verb))
    if len(thing) < 2 or not HAN_WORD.fullmatch(thing):
        return []
    _, end = sentence_span(line, modal.start, modal.end)
    if _OPTIONS.search(line[modal.end : end]):
        return []  # "宜采用A、B或C。采用A时，……": the condition chooses among the options, still needed
    later = section.text[line_offset + end :]
    if verb not in later or thing not in later:  # both are in any condition that repeats the act
        return []
    found = _condition_on(verb, thing).search(later)
    if found is None:
        return []
    words = found.group().lstrip("。；;\n").rstrip("，,")
    return [Evidence(PRESUPPOSED, words, "本条")]


@lru_cache(maxsize=1024)
def _other_way(verb: str) -> regex.Pattern[str]:
    """A condition made of doing `verb` another way ("设置在舱内时，", "当采用有线方式时，")."""
    return regex.compile(
        rf"(?:^|[。；;，,\n]){_CONDITION_OPENER}?[^。；;，,\n]{{0,8}}?{regex.escape(verb)}"
        rf"(?P<how>[在于为成用][^。；;，,\n]{{1,20}}?){_CONDITION_CLOSER}"
    )


def foreseen_alternative(section: Section, line_offset: int, line: str, modal: Modal) -> list[Evidence]:
    """A later sentence of the clause says what applies when the recommended way is not taken ("宜设置
    在舱外控制柜中；设置在舱内时，应……"): the document foresees the other way, so it was an option."""
    verb = next_word(line, modal.end)
    if len(verb) < 2 or not HAN_WORD.fullmatch(verb):
        return []
    _, end = sentence_span(line, modal.start, modal.end)
    mine = line[modal.end + len(verb) : end]
    later = section.text[line_offset + end :]
    found = _other_way(verb).search(later) if verb in later else None
    if found is None or found.group("how") in mine:
        return []  # the same way again is a condition on the option itself (`presupposed_option`)
    return [Evidence(FALLBACK, found.group().lstrip("。；;，,\n").rstrip("，,"), "本条")]


def _conditional(line: str, modal: Modal) -> bool:
    """A clause under a condition ("……时，宜……"): its modal answers the condition, not a list."""
    a, b = sentence_span(line, modal.start, modal.end)
    return regex.search(r"时[，,]|如果|若|除.*外", line[a:b]) is not None


# --- naming the evidence in a description -----------------------------------------------------------------
def _named_declaration(evidence: Evidence, force_kept: str) -> str:
    what = "该项必须提供，弱化后" if force_kept == "要求" else "该项本可不提供，强化为要求后"
    if evidence.mark:
        return f"{evidence.where}将“{evidence.words}”标为“{evidence.mark}”，{what}与表中的标注矛盾"
    return f"{evidence.where}称“{evidence.words}”，{what}与之矛盾"


def named(evidence: Evidence, force_kept: str = "") -> str:
    """The clause of a description that shows the reviewer where the document reveals the change."""
    w, where = evidence.words, evidence.where
    if evidence.kind == INSPECTION:
        return f"{where}把该条列为检验项目（“{w}”），检验据此判定合格与否，该条必须是要求"
    if evidence.kind == TEST_METHOD:
        return f"{where}规定了检验该条的试验（“{w}”），试验方法以该条为必须满足的要求"
    if evidence.kind == LIMIT:
        return f"该条给出的限值“{w}”是判定合格与否的界限，只能是要求"
    if evidence.kind == SAFETY:
        return f"该条的目的是“{w}”，涉及安全的规定必须是要求"
    if evidence.kind == ALTERNATIVE:
        return f"同一句随后以“{w}”给出其他做法，说明该做法本是可选的，强化后前后矛盾"
    if evidence.kind == FALLBACK:
        return f"该条随后规定了“{w}”的做法，说明本条允许例外，强化为要求后前后矛盾"
    if evidence.kind == PRESUPPOSED:
        return f"该条随后以“{w}”为条件另作规定，说明该做法本可不采用，强化为要求后该条件失去意义"
    if evidence.kind == HEDGE:
        return f"句中“{w}”表明这只是推荐，与要求相矛盾"
    if evidence.kind == DEFAULT:
        return f"{where}给出了“{w}”，既有缺省值，该项本可不另行设定，强化为要求后前后矛盾"
    if evidence.kind == LEAD_IN:
        return f"{where}以“{w}”引出所列各项，各项都是要求，该项却被单独弱化，与引导语矛盾"
    if evidence.kind == COMMENTARY:
        return f"{where}对本条的说明称“{w}”，该做法本是{force_kept}，强化为要求后与说明矛盾"
    if evidence.kind == DECLARED:
        return _named_declaration(evidence, force_kept)
    if evidence.kind == RESTATED:
        return f"{where}对同一事项的相同规定“{w}”仍为{force_kept}，两处规定前后矛盾"
    if where == "同一句":
        return f"同一句中并列的“{w}”仍为{force_kept}，该项却被单独改变"
    return f"同一列项中的“{w}”仍为{force_kept}，与之并列的该项却被单独改变"
