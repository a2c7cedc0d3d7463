"""Modal verbs (GB/T 1.1—2020 annex C): the standard forms 应/宜/可/不必 with the force of the provision
they make, the non-standard forms (必须, 应当, 不得 …) and hedges (原则上, 尽量 …), told apart from the
compounds that merely contain them (响应, 适宜, 可能, 不可或缺 …).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

from injectors.language.cache_sizes import LINE_CACHE
from injectors.language.patterns import HAN
from injectors.language.quotes import quote_after
from injectors.language.words import first_tagged, tagged


def lexicon(words: str) -> tuple[str, ...]:
    """A word list written as one space-separated string (keeps long lexicons readable)."""
    return tuple(words.split())


REQUIREMENT, RECOMMENDATION, PERMISSION = "requirement", "recommendation", "permission"


FORCE_ZH = {REQUIREMENT: "要求", RECOMMENDATION: "推荐", PERMISSION: "允许"}


# --- what surrounds a modal character and makes it part of another word --------------------------------
# 应 preceded by one of these is the second character of 响应, 相应, 反应 …
_YING_BEFORE = frozenset("响相反适供对回感呼效答照顺报策因")


# 应 followed by these starts 应用, 应答, 应急 … (应对, 应变, 应当, 应有 are decided separately)
_YING_AFTER = frozenset("用答急力收付届聘邀征激酬验景声运试援战召诉")


# 应对 is "shall + 对" (应对数据进行加密) unless it is the verb "cope with" (以应对风险, 应对措施)
_YING_DUI_BEFORE = lexicon("、 以 来 于 为 和 与 及 或 能 地 有效 积极 妥善 如何 共同 快速")


_YING_DUI_NOUNS = lexicon("措施 方案 策略 机制 能力 计划 预案 突发 风险 挑战 危机 处置")


_YING_DANG_NOUN = frozenset("前日天年月场面即时地")  # 应当前 = 应 + 当前, not 应当


_YI_BEFORE = frozenset("适便事相权合咸得")
# 时宜 only in 不合时宜 / 因时制宜-like idioms: "安装时宜采用" is 时 + the modal 宜
_SHIYI_BEFORE = ("合时", "因时", "失时")


YI_COMPOUND_NEXT = ("居", "人", "昌", "宾", "兴", "春", "州", "良", "川", "阳", "都", "家", "于")


_KE_BEFORE = frozenset("认许宁无不即尚")


# 可 followed by these is 可能, 可靠, 可信 … (可行驶, 可用于 are decided separately)
KE_COMPOUND_NEXT = frozenset("能信靠惜是谓观怕爱口乐疑否贵恶耻笑望取言汗怜见视燃溶逆塑比控知达及供变溯")


KE_COMPOUND_NEXT_WORDS = lexicon("持续 再生 穿戴 降解 回收 选项 行性 用性 用的 读性 编程")


_KE_DISCOURSE = ("以说", "以看出", "以认为", "以看到", "以理解为")


_QUOTES = "“”‘’\"'「」『』《》"


# --- non-standard modal wording (NMS-03) and vague wording (NMS-04) ---------------------------------
NONSTANDARD_WORDS = ("必须", "应当", "务必", "严禁", "禁止", "不得", "不可", "须")  # 必须 before 须


_BUDE_BEFORE = frozenset("舍恨怪巴记顾免了要动少由见认晓使怨值说")


_BUKE_AFTER = frozenset("用见信靠行逆视读写变控知测分少比思议言缺或抗能替避的")


_BUKE_BEFORE = frozenset("且而、并和或均都是为成得应宜能")


_JINZHI_NOUN = frozenset("标区状位令性期时线带的")


_XU_BEFORE = frozenset("必无毋莫胡触根虎龙花所")


_XU_AFTER = frozenset("知臾眉发根弥须的")


VAGUE_WORDS = ("原则上", "尽量", "最好", "一般", "适当")
_VAGUE = regex.compile("|".join(VAGUE_WORDS))
_NONSTANDARD = regex.compile("|".join(NONSTANDARD_WORDS))
_MODAL_VERB = regex.compile(r"不必|[应宜可]")
_WORD_CHARACTER = regex.compile(r"[\p{Han}A-Za-z0-9]")
_PURPOSE = regex.compile(r"确保|保证|使|令|以便|从而")


YIBAN_NEXT = regex.compile(
    r"^(?:采用|使用|选用|设置|设在|设于|安装|配置|布置|布设|选取|控制在|保持|进行|按照|按"
    r"|不(?:超过|大于|小于|低于|高于|少于|多于|早于|晚于|短于|长于))"
)


SHIDANG_NEXT = regex.compile(
    r"^地?(?:增加|减少|缩短|延长|提高|降低|调整|放宽|加大|减小|增大|扩大|缩小|加强|补充|增设|调低|调高|放大)"
)


COMPARATIVES = regex.compile(
    r"^(?:大于|小于|低于|高于|少于|多于|超过|早于|晚于|短于|长于|宽于|窄于|劣于|优于)"
)


_CLAUSE_DELIMITERS = "，,；;。！？!?：:\n"


_SENTENCE_END = "。；;！？!?\n"


@dataclass(frozen=True)
class Modal:
    """A modal verb at [start, end) of a text: its form and what kind of provision it makes."""

    start: int
    end: int
    word: str
    force: str  # requirement | recommendation | permission
    negative: bool = False


@dataclass(frozen=True)
class Hit:
    """A flagged word at [start, end) of a text."""

    start: int
    end: int
    word: str


# --- the modal-verb finder ---------------------------------------------------------------------------
def _quoted(text: str, start: int, end: int) -> bool:
    return start > 0 and end < len(text) and text[start - 1] in _QUOTES and text[end] in _QUOTES


def _clause_rest(text: str, start: int) -> str:
    end = start
    while end < len(text) and text[end] not in _CLAUSE_DELIMITERS:
        end += 1
    return text[start:end]


def _ying_is_modal(text: str, i: int) -> bool:
    prev = text[i - 1] if i else ""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    after = text[i + 1 : i + 4]
    if prev in _YING_BEFORE:
        return False
    if nxt in _YING_AFTER:
        return False
    if nxt == "变":
        return after.startswith("变更")
    if nxt == "有":
        return not (after.startswith("有的") or after.startswith("有尽有"))
    if nxt == "对":
        if prev == "不":
            return True  # 不应对……造成影响
        before = text[max(0, i - 2) : i]
        # 以应对风险, 应对措施: the verb 应对 (cope with)
        return not (before.endswith(_YING_DUI_BEFORE) or text[i + 2 :].startswith(_YING_DUI_NOUNS))
    return True


@lru_cache(maxsize=LINE_CACHE)
def modal_verbs(text: str) -> tuple[Modal, ...]:
    """The standard modal verbs of a text (应, 不应, 应该, 宜, 不宜, 可, 可以, 不必), compounds excluded.

    应当 is not here: it is a non-standard form (see `nonstandard_modals`), as are 不可 and 不得.
    """
    out: list[Modal] = []
    for m in _MODAL_VERB.finditer(text):
        i = m.start()
        ch = m.group()
        neg = i > 0 and text[i - 1] == "不"
        start = i - 1 if neg else i
        if ch == "不必":
            if _quoted(text, i, i + 2) or text[i + 2 : i + 3] in ("要", "须"):
                continue
            out.append(Modal(i, i + 2, "不必", PERMISSION, True))
            continue
        if ch == "应":
            if not _ying_is_modal(text, i):
                continue
            if text[i + 1 : i + 2] == "当" and text[i + 2 : i + 3] not in _YING_DANG_NOUN:
                continue  # 应当: non-standard
            end = i + 2 if text[i + 1 : i + 2] == "该" else i + 1
            if _quoted(text, start, end):
                continue
            out.append(Modal(start, end, text[start:end], REQUIREMENT, neg))
        elif ch == "宜":
            if (i and text[i - 1] in _YI_BEFORE) or text[i + 1 : i + 2] in YI_COMPOUND_NEXT:
                continue
            if text[max(0, i - 2) : i] in _SHIYI_BEFORE:
                continue
            if _quoted(text, start, i + 1):
                continue
            out.append(Modal(start, i + 1, text[start : i + 1], RECOMMENDATION, neg))
        else:
            if _ke_is_modal(text, i):
                end = i + 2 if text[i + 1 : i + 2] == "以" else i + 1
                if not _quoted(text, i, end):
                    out.append(Modal(i, end, text[i:end], PERMISSION))
    return tuple(out)


def _ke_is_modal(text: str, i: int) -> bool:
    prev = text[i - 1] if i else ""
    nxt = text[i + 1 : i + 2]
    rest = text[i + 1 : i + 6]
    if prev and (prev in _KE_BEFORE or prev in "应宜能须是为很较更最、到得成于的"):
        return False  # 应可追溯, 可审计、可追溯, 做到可审计, 对于可独立运行的: adjectives
    if text[max(0, i - 2) : i] in ("采用", "使用", "选用", "利用", "应用"):
        return False  # 采用可调电源
    if nxt == "以":
        return not rest.startswith(_KE_DISCOURSE) and not rest.startswith("以是")
    if nxt == "行":
        return rest.startswith(("行驶", "行走", "行进", "行使"))
    if nxt == "用":
        return rest.startswith(("用于", "用来", "用作"))
    if rest.startswith(("视为", "视作")):
        return True
    if nxt in KE_COMPOUND_NEXT or rest.startswith(KE_COMPOUND_NEXT_WORDS):
        return False
    if not nxt or not _WORD_CHARACTER.match(nxt):
        return False  # 可 at the end of a clause: "……均可。" reads as a statement
    word = next_word(text, i + 1)
    follow = text[i + 1 + len(word) : i + 2 + len(word)]
    if text[i + 1 + len(word) : i + 3 + len(word)] == "、可":
        return False  # 可读、可写
    return follow not in ("性", "的")  # 可扩展的, 可追溯性: adjectives


def next_word(text: str, start: int) -> str:
    """The jieba word that begins at `start` (within its clause)."""
    rest = _clause_rest(text, start)
    if not rest:
        return ""
    return first_tagged(rest, hmm=True)[0]


def next_word_tag(text: str, start: int) -> tuple[str, str]:
    rest = _clause_rest(text, start)
    if not rest:
        return "", ""
    return first_tagged(rest, hmm=True)


def clause_span(text: str, start: int, end: int) -> tuple[int, int]:
    """The comma-delimited clause around [start, end)."""
    a = start
    while a > 0 and text[a - 1] not in _CLAUSE_DELIMITERS:
        a -= 1
    b = end
    while b < len(text) and text[b] not in _CLAUSE_DELIMITERS:
        b += 1
    return a, b


def sentence_span(text: str, start: int, end: int) -> tuple[int, int]:
    a = start
    while a > 0 and text[a - 1] not in _SENTENCE_END:
        a -= 1
    b = end
    while b < len(text) and text[b] not in _SENTENCE_END:
        b += 1
    if b < len(text) and text[b] != "\n":
        b += 1
    return a, b


def snippet(text: str, start: int, end: int, after: int = 8) -> str:
    """The flagged words and a few words after them, within the clause, for a message."""
    return quote_after(text, start, end, after)


# --- non-standard and vague wording ------------------------------------------------------------------
@lru_cache(maxsize=LINE_CACHE)
def nonstandard_modals(text: str) -> tuple[Hit, ...]:
    """必须, 应当, 务必, 须, 不得, 不可, 禁止, 严禁 as modal verbs (callers filter 不得 by generation)."""
    out: list[Hit] = []
    modals = modal_verbs(text)
    for m in _NONSTANDARD.finditer(text):
        word, i, j = m.group(), m.start(), m.end()
        prev = text[i - 1] if i else ""
        nxt = text[j : j + 1]
        if _quoted(text, i, j):
            continue
        if word in ("务必", "须", "必须") and not _token_starts(text, i):
            continue  # 业务必需, 所须
        if word == "应当":
            if prev in _YING_BEFORE or nxt in _YING_DANG_NOUN:
                continue
        elif word == "须":
            if prev in _XU_BEFORE or nxt in _XU_AFTER or not HAN.match(nxt or " "):
                continue
        elif word == "不得":
            if prev in _BUDE_BEFORE or nxt in ("不", "已", "而", "要", "了"):
                continue
        elif word == "不可":
            if not _buke_is_modal(text, i, j, modals):
                continue
        elif word in ("禁止", "严禁"):
            if not HAN.match(nxt or " ") or nxt in _JINZHI_NOUN:
                continue
            a, _ = clause_span(text, i, j)
            if any(a <= mv.start < i for mv in modals) or text[a:i].endswith(("予以", "被", "要")):
                continue
        out.append(Hit(i, j, word))
    return tuple(out)


def _buke_is_modal(text: str, i: int, j: int, modals: tuple[Modal, ...]) -> bool:
    """不可 as a prohibition ("不可兼任"), not as 不可用, 不可否认性, "不可被篡改", "不可更改的日志"."""
    prev = text[i - 1] if i else ""
    nxt = text[j : j + 1]
    if prev in _BUKE_BEFORE or prev == "非" or nxt in _BUKE_AFTER or nxt == "被":
        return False
    if not HAN.match(nxt or " "):
        return False
    word = next_word(text, j)
    follow = text[j + len(word) : j + len(word) + 1]
    if follow in ("的", "性", "和", "与", "及", "等", "、", "并", "且", "而"):
        return False
    a, _ = clause_span(text, i, j)
    if _PURPOSE.search(text[a:i]):
        return False  # 确保……不可更改: a property, not a prohibition
    return not any(a <= mv.start < i for mv in modals)


def _token_starts(text: str, i: int) -> bool:
    """Whether jieba starts a word at `i` (业务必需 has no word starting at 务)."""
    a, b = clause_span(text, i, i + 1)
    position = a
    for word, _ in tagged(text[a:b], hmm=True):
        if position == i:
            return True
        if position > i:
            return False
        position += len(word)
    return False


@lru_cache(maxsize=LINE_CACHE)
def vague_words(text: str) -> tuple[Hit, ...]:
    """尽量, 最好, 一般, 原则上, 适当 standing where a modal verb should be (no modal in the clause)."""
    out: list[Hit] = []
    modals = modal_verbs(text)
    strong = nonstandard_modals(text)
    for m in _VAGUE.finditer(text):
        word, i, j = m.group(), m.start(), m.end()
        a, b = clause_span(text, i, j)
        if any(a <= x.start < b for x in modals) or any(a <= x.start < b for x in strong):
            continue
        rest = text[j:b]
        if word == "尽量":
            ok = bool(rest) and HAN.match(rest[0]) is not None
        elif word == "最好":
            ok = bool(rest) and rest[0] != "的" and next_word_tag(text, j)[1][:1] in ("v", "p", "d")
        elif word == "一般":
            ok = YIBAN_NEXT.match(rest) is not None and text[max(0, i - 1) : i] not in ("的",)
        elif word == "原则上":
            ok = not (i and text[i - 1] in "的此该这其")
        else:
            ok = SHIDANG_NEXT.match(rest) is not None
        if ok and not _quoted(text, i, j):
            out.append(Hit(i, j, word))
    return tuple(out)


@lru_cache(maxsize=LINE_CACHE)
def provision_words(text: str) -> tuple[Hit, ...]:
    """Every word that makes a sentence a provision, standard (应, 宜, 可 …) or not (必须, 应当, 不得 …),
    in text order: the one answer to "does this sentence require, recommend or permit something?"."""
    found = [Hit(m.start, m.end, m.word) for m in modal_verbs(text)] + list(nonstandard_modals(text))
    return tuple(sorted(set(found), key=lambda h: (h.start, h.end)))


def modal_cores(text: str) -> list[tuple[int, str]]:
    """Offsets and characters of the 应 / 宜 / 可 that carry the standard modal verbs of a text."""
    out = []
    for m in modal_verbs(text):
        core = next((i for i, ch in enumerate(m.word) if ch in "应宜可"), None)
        if core is not None:
            out.append((m.start + core, m.word[core]))
    return out


def has_soft_modal(text: str) -> bool:
    """A recommendation or permission (宜, 不宜, 可, 可以, 不必) and no requirement in `text`."""
    return any(m.force != REQUIREMENT for m in modal_verbs(text))


def has_requirement(text: str) -> bool:
    """A requirement, in the standard form (应, 不应) or a non-standard one (必须, 须, 不得 …)."""
    return any(m.force == REQUIREMENT for m in modal_verbs(text)) or bool(nonstandard_modals(text))


# After 可, a passive, a classification or a result: "可被访问" says what can happen to a thing, "可分为…" how
# a thing divides, "依据表2可得到保护等级" what a lookup gives; none is the permission 可 of GB/T 1.1, so
# no provision is there to write as a note or blur.
_DESCRIBING = ("被", "分为", "分成", "划分为", "归纳为", "概括为", "理解为", "称为", "看作", "视为", "得到")


def describes(text: str, modal: Modal) -> bool:
    """Whether a 可 describes rather than permits (see `_DESCRIBING`)."""
    return modal.word == "可" and text[modal.end :].startswith(_DESCRIBING)
