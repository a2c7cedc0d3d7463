"""SCP-05 范围界限模糊或矛盾 (Scope boundary vague or contradicted)."""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Callable, Iterable, Mapping

from injectors.authoring import (
    Answer,
    Budget,
    Document,
    Edit,
    ErrorType,
    Failure,
    InjectionContext,
    Injector,
    LLMSpec,
    PromptInput,
    PromptSpec,
    Proposal,
    Replacement,
    RewriteCase,
    Section,
    Site,
    TypeDefinition,
    failure,
    new_sentences,
    text_replacement,
)
from injectors.language.novelty import stock_ngrams
from injectors.language.punctuation import match_style
from injectors.language.sentences import CLAUSE_SPLIT, provisions, sentences
from injectors.language.words import boundaries, words
from injectors.types.scp.analysis import (
    APPLICABILITY,
    EXCLUSION,
    scope_chapter,
    self_reference,
    statement_sentences,
)
from injectors.types.scp.editing import ALL_HAN, applicability_qualifiers, body_sections, cite, scope_name
from injectors.types.scp.kinds import same_kind
from injectors.types.scp.scope_objects import referred_objects, scope_objects
from injectors.types.scp.spread import place_in_release
from parsers.entries import split_term

ERROR_TYPE = ErrorType(
    "SCP-05",
    "SCP",
    "范围界限模糊或矛盾",
    "Scope boundary vague or contradicted",
    "GB/T 1.1—2020 8.5",
    "GB/T 1.1—2009 6.2.2",
    "L",
    "J",
    (),
)


# What a body title or term must end with to name an object (a thing the body regulates).
_OBJECT_SUFFIXES_TEXT = """
    设备 装置 系统 终端 容器 仪表 记录仪 探测器 传感器 控制器 显示屏 柜 箱 板 模块 单元
    接口 平台 软件 材料 标签 电池 主站 部件 组件 元件 线缆 电缆 管道 车辆 设施 车间
    场所 工具 机械 网关 集中器 报警器 面板 芯材 鲜叶 在制品 样品 数据库 证书 密钥 二维码 标识
    报文 数据帧 元数据
    """


_OBJECT_SUFFIXES = tuple(dict.fromkeys(_OBJECT_SUFFIXES_TEXT.split()))


# A protocol's clause titled "解析证书" or "导出密钥" specifies an operation on data, not a thing of its own
# that a scope could leave out ("解析证书未纳入本标准范围" reads as nonsense).
_OPERATION = re.compile(
    r"^(?:解析|验证|签发|生成|导出|导入|更新|吊销|注销|申请|获取|查询|删除|加密|解密|签名|传输|发送|接收|上报|下发)"
    r"(?:证书|密钥|报文|数据帧|元数据|二维码|标识)$"
)


# Modal verbs that only permit ("可配置以下附属装置"): a clause that lets a product have a thing does not
# regulate it, so a scope excluding the thing contradicts nothing.
_PERMITTING = frozenset(("可", "可以", "不必"))


def regulates(sentence: str, about: str = "") -> bool:
    """A requirement or recommendation (应, 不应, 宜, 必须 …) in the sentence, not only a permission; with
    `about`, one on that thing: named before the modal verb in its clause ("节点证书的存储应……") or right
    after it as what is acted on ("应对节点证书……"), not a thing another subject's requirement mentions
    ("显示界面应显示定位模块状态" regulates the display)."""
    for p in provisions(sentence):
        if p.word in _PERMITTING:
            continue
        if not about:
            return True
        clause_start = max((m.end() for m in CLAUSE_SPLIT.finditer(sentence, 0, p.start)), default=0)
        after = sentence[p.start + len(p.word) :]
        if about in sentence[clause_start : p.start] or after.startswith(("对" + about, "将" + about)):
            return True
    return False


@functools.lru_cache(maxsize=16)
def regulated_objects(document: Document) -> tuple[tuple[str, str], ...]:
    """(object, clause) pairs: objects the body regulates, from clause titles and defined terms, where the
    clause requires or recommends something of them (a clause that only permits fitting them is none)."""
    out: list[tuple[str, str]] = []
    body = body_sections(document)
    for _, s in body:
        title = s.title
        if (
            s.level >= 2
            and 3 <= len(title) <= 14
            and ALL_HAN.match(title)
            and title.endswith(_OBJECT_SUFFIXES)
            and not _OPERATION.match(title)
            and any(regulates(st.text) for st in sentences(s.text))
        ):
            out.append((title, s.number))
    for s in document.sections:
        if s.kind != "terms" or s.level < 2:
            continue
        term, _ = split_term(s.title)
        if not (3 <= len(term) <= 14 and ALL_HAN.match(term) and term.endswith(_OBJECT_SUFFIXES)):
            continue
        clause = next(
            (
                b.number
                for _, b in body
                for st in sentences(b.text)
                if term in st.text and regulates(st.text, term)
            ),
            None,
        )
        if clause:
            out.append((term, clause))
    seen: dict[str, str] = {}
    for obj, clause in out:
        seen.setdefault(obj, clause)
    return tuple(seen.items())


# How drafters word an exclusion: a sentence after the boundary statement, or a clause inside it. Varied so
# that no one phrase ("本文件不适用于", "的适用范围") marks the type: no two wordings add the same new
# phrase (only one opens with the document's name), and each says plainly that X is outside the scope.
_SENTENCE_FORMS = (
    "{word}{also}不适用于{obj}。",
    "{obj}不在{word}的适用范围之内。",
    "{obj}未纳入{word}范围。",
    "{obj}另有规定，{word}{also}不适用。",
    "{obj}的要求由其他标准规定。",
    "{obj}不包括在内。",
    "{obj}不受{word}约束。",
    "{obj}另行规定。",
    "有关{obj}的内容不属于{word}。",
    "{obj}排除在外。",
    "{obj}由专门标准规范。",
    "{obj}不属此列。",
)


# A boundary of actors ("适用于……从事……的机构。"): a thing left out of it reads as nonsense unless the
# exclusion speaks of the requirements or content about the thing.
_BOUNDS_ACTORS = re.compile(r"适用于[^。\n]*(?:机构|单位|企业|组织|部门|人员)。$")


_CONTENT_FORMS = (
    "{obj}的要求由其他标准规定。",
    "{obj}另行规定。",
    "有关{obj}的内容不属于{word}。",
    "{obj}由专门标准规范。",
)


def _form_name(template: str) -> str:
    """ "{obj}不在{word}的适用范围之内。" → "…不在…的适用范围之内": the wording an instance took."""
    return re.sub(r"(?:\{\w+\})+", "…", template).strip("。，（）")


_INNER_FORMS = ("（{obj}除外）", "，但{obj}除外", "，{obj}不在此列", "，不含{obj}")


FORMS = (
    "删去限定语",
    "排除列表增项",
    *(_form_name(f) for f in _SENTENCE_FORMS),
    *(_form_name(f) for f in _INNER_FORMS),
)


# Words of a qualifier too general to show a restriction ("开展……的", "各类……的").
_GENERIC_TEXT = """
    各类 各种 各级 相关 有关 开展 进行 指导 用于 从事 一般 通用 所有 其他 以及 领域 方面 工作 活动
    技术 系统 信息 要求 使用 应用 范围 对象 设置 安装 布置 配置 位于
    """


_GENERIC = frozenset(_GENERIC_TEXT.split())


def _shared_run(qualifier: str, other: str, keep: Callable[[str], bool] = lambda run: True) -> str:
    """The longest run of four or more Chinese characters the qualifier shares with `other` that `keep`
    accepts, whole words at both ends of the qualifier's segmentation ("证券期货业", "非涉及国家秘密"), or
    ""."""
    edges = boundaries(qualifier)
    best = ""
    for i in sorted(edges):
        for j in sorted(edges, reverse=True):
            if j - i < max(4, len(best) + 1):
                break
            run = qualifier[i:j].removesuffix("的")
            if len(run) >= 4 and ALL_HAN.match(run) and run in other and run not in _GENERIC and keep(run):
                best = run
                break
    return best


def _standing(document: Document, section: Section, sentence: str, qualifier: str) -> str:
    """What still bounds the scope once the qualifier is dropped: the title, the shortened sentence and the
    scope's other statements (its exclusions are read by `still_bounded`)."""
    others = [
        o.text
        for o in statement_sentences(section.text)
        if o.text != sentence and not EXCLUSION.search(o.text)
    ]
    return "\n".join((document.title, sentence.replace(qualifier, "", 1), *others))


def lost_words(document: Document, section: Section, sentence: str, qualifier: str) -> set[str]:
    """The words of the qualifier that nothing left in the scope or the title says: none, and the same
    restriction still stands ("本文件规定了证券期货业……" after "证券期货业的" is dropped), so the
    boundary does not widen."""
    standing = _standing(document, section, sentence, qualifier)
    # "指导网络运营者开展非涉密……的": who does the work is no restriction of what the document covers
    restricting = _ACTIVITY.split(qualifier)[-1]
    return {w for w in _content_words(restricting) if w not in standing}


_ACTIVITY = re.compile(r"开展|从事|进行")


def _referred_inside(section: Section, sentence: str, qualifier: str) -> str | None:
    """An object the scope only lets use the document by reference ("塑料大棚中使用的环境监测系统参照
    使用") that the boundary takes in once the qualifier is dropped: it ends with the bare head noun
    ("环境监测系统") the qualifier restricted. A "不适用于" exception to a general boundary is ordinary
    drafting; an object both inside the boundary and only referred to is a contradiction."""
    at = sentence.find(qualifier)
    rest = sentence[at + len(qualifier) :]
    head = re.split(r"[，。；]|的", rest, maxsplit=1)[0]
    parts = [p for p in re.split(r"及其|以及|[和与及、]", head) if len(p) >= 4]
    for referred in referred_objects(section.text):
        if any(referred.endswith(p) and referred != p and qualifier not in referred for p in parts):
            return referred
    return None


# "……，其他类型的终端可参照执行": an object the scope lets use the document by reference, as other than
# what the boundary names.
_OTHER_REFERRED = re.compile(r"其他[^，。；]{1,30}?(?:参照|参考)[^，。；]*")


def _orphaned_other(section: Section, sentence: str, qualifier: str) -> str | None:
    """The scope's "其他……可参照执行" clause that contrasts with what the qualifier named: once it is dropped,
    the boundary names no kind for "其他" to be other than."""
    tail = sentence[sentence.find(qualifier) + len(qualifier) :]
    later = [o.text for o in statement_sentences(section.text) if o.text.startswith("其他")]
    for text in (tail, *later):
        m = _OTHER_REFERRED.search(text)
        if m:
            return m.group(0)
    return None


def qualifier_evidence(document: Document, section: Section, sentence: str, qualifier: str) -> str | None:
    """Where the document shows that the boundary widened once the qualifier is dropped: the scope's own
    reference clauses, or the body (a clause title, or the text of two clauses or more) still restricted
    to a phrase of four characters or more of the qualifier that neither the scope nor the title says any
    more. A restriction the title or another scope sentence still states is no loss (the remaining text
    bounds the subject the same way); without evidence a shorter boundary reads as a plausible one."""
    lost = lost_words(document, section, sentence, qualifier)
    if not lost:
        return None
    referred = _referred_inside(section, sentence, qualifier)
    if referred:
        word = self_reference(document)
        return f"范围中只允许参照使用{word}的“{referred}”也落入了这一界限，范围自相矛盾"
    other = _orphaned_other(section, sentence, qualifier)
    if other:
        return f"范围中“{other}”的“其他”已无所指，界限不再说明直接适用于哪些对象"
    standing = _standing(document, section, sentence, qualifier)

    def gone(run: str) -> bool:
        return run not in standing and bool(_content_words(run) & lost)

    body = body_sections(document)
    for _, clause in body:
        run = _shared_run(qualifier, clause.title, gone)
        if run:
            return f"正文{cite(clause.number)}“{clause.title}”仍限于“{run}”"
    runs = [(_shared_run(qualifier, clause.text, gone), clause) for _, clause in body]
    for run in dict.fromkeys(r for r, _ in runs if r):
        clauses = [c.number for r, c in runs if r == run]
        if len(clauses) >= 2:
            where = "、".join(cite(n) for n in clauses[:3])
            return f"正文{where}的规定仍针对“{run}”"
    return None


# "智能制造人机交互系统（以下简称人机交互系统）": a short name the scope defines by its full name.
_SHORT_NAME = re.compile(r"([^，。；、（(]{2,40})[（(]以下简称[“\"]?([^）)”\"]{2,12})[”\"]?[）)]")


# Equipment of the test methods ("试验设备"): a scope excluding it contradicts nothing the body requires of
# the document's object.
_TEST_GEAR = re.compile(r"^(?:试验|测试|检验|检测|校准)")


def _content_words(text: str) -> set[str]:
    """Words of two characters or more that say something (not 各类, 相关, 技术 …)."""
    return {w for w in words(text) if len(w) >= 2 and ALL_HAN.match(w) and w not in _GENERIC}


def still_bounded(document: Document, section: Section, sentence: str, qualifier: str) -> str | None:
    """What still bounds the boundary once the qualifier is dropped, or None when it really widens: a
    defined term for the object (a term entry, or a short name the scope gives: "以下简称……") whose term
    or definition says what the qualifier said (it decides what the object covers), or a "不适用于"
    sentence of the scope that excludes on the qualifier's own words (非涉密 and "不适用于涉密……": the
    exclusion still keeps the rest out)."""
    at = sentence.find(qualifier)
    rest = sentence[at + len(qualifier) :]
    head = re.split(r"[，。；、]|的", rest, maxsplit=1)[0]
    said = _content_words(qualifier.removeprefix("非")) | _content_words(qualifier)
    if not said:
        return None
    for term_section in document.sections:
        if term_section.kind != "terms" or term_section.level < 2:
            continue
        term, _ = split_term(term_section.title)
        names_head = len(term) >= 2 and (head.endswith(term) or term.endswith(head))
        if names_head and said & (_content_words(term) | _content_words(term_section.text)):
            return f"术语“{term}”"
    for m in _SHORT_NAME.finditer(section.text):  # "智能制造人机交互系统（以下简称人机交互系统）"
        if m.group(2) in head and said & _content_words(m.group(1)):
            return f"简称“{m.group(2)}”"
    for other in statement_sentences(section.text):
        if EXCLUSION.search(other.text) and said & _content_words(other.text):
            return f"排除陈述“{other.text}”"
    return None


class ScopeBoundaryVague(Injector):
    """SCP-05. Why: the boundary of 范围 decides who must comply (GB/T 1.1—2020); without its
    qualifiers it claims more than the body was written for, and an exclusion that the body contradicts
    leaves users with two answers. How: a qualifier right after "适用于" is dropped
    ("额定电压不大于1 kV的") where the document shows the boundary widened, or X, an object a body clause
    regulates (a clause title or a term), is excluded: as the first item of an existing "不适用于" list, or
    as a sentence right after the boundary statement inside its paragraph (not a last line of its own:
    position gives nothing away), in one of many wordings that add no common phrase, taking turns over the
    documents of the release; a scope that already excludes is offered both, so that not every such scope
    grows its list.

    Evidence rule: a dropped qualifier is an error only where the boundary really widens, which the
    corrupted document alone shows: what the qualifier said is not still stated by the title or the
    scope's other sentences (`lost_words`: then the remaining text bounds the subject the same way), the
    scope's reference clauses or the body still show the restriction (`qualifier_evidence`), and no
    defined term nor exclusion still bounds the object to it (`still_bounded`). An exclusion is an error
    where a body clause (named in the description) requires or recommends something of the excluded
    object (`regulates`); a clause that only permits fitting it ("可配置……") is no evidence."""

    error_type = ERROR_TYPE.id
    version = "5"
    digest = "7a36d7e5c11dd758"
    forms = FORMS
    alternatives = 3  # the list item, a sentence of its own or a dropped qualifier, where a scope offers them

    def _exclusions(self, document: Document, section: Section) -> list[tuple[str, str]]:
        """Regulated objects the scope does not name yet (nor their head noun: 协作工作单元 ~ 工作单元)."""
        return [
            (o, c)
            for o, c in regulated_objects(document)
            if o[-4:] not in section.text and not _TEST_GEAR.match(o)
        ]

    def no_site_reason(self, document: Document, context: InjectionContext) -> str:
        """No qualifier whose loss the document shows (the title or another scope sentence still states
        it, or nothing shows it: a dropped one would go unnoticed; or a defined term or an exclusion still
        bounds it), and no object that a body clause requires or recommends something of to exclude."""
        return "no_scope" if scope_chapter(document) is None else "no_visible_boundary"

    def sites(self, document: Document, context: InjectionContext) -> Iterable[Site]:
        found = scope_chapter(document)
        if found is None:
            return []
        target, section = found
        out = [
            Site(target, ("qualifier", sentence.start, begin, qualifier))
            for sentence in statement_sentences(section.text)
            for begin, qualifier in applicability_qualifiers(sentence.text)
            if qualifier_evidence(document, section, sentence.text, qualifier)
            and not still_bounded(document, section, sentence.text, qualifier)
        ]
        if not self._exclusions(document, section):
            return out
        statements = statement_sentences(section.text)
        excluding = [st for st in statements if EXCLUSION.search(st.text)]
        for st in excluding:  # a new first item of an existing exclusion list
            m = EXCLUSION.search(st.text)
            assert m is not None
            out.append(Site(target, ("exclusion-item", st.start + m.end())))
        if out and not excluding:
            return out  # a dropped qualifier adds no wording of its own
        # where the scope already excludes, a sentence of its own (or "（X除外）") is the other way drafters
        # add one more exclusion: offered beside the list item, so that not every such scope grows its list
        # otherwise a new sentence right after a boundary statement, inside its paragraph (a paragraph of
        # its own would always be the scope's last line)
        ends = [s.end for s in statements if APPLICABILITY.search(s.text)]
        out.extend(
            Site(target, ("exclusion", end, "")) for end in ends if self._wordings(document, section, end)
        )
        return out

    def _wordings(
        self, document: Document, section: Section, at: int
    ) -> list[tuple[str, str, int, str, str]]:
        """(object, clause, offset, exclusion, form) for each wording of a new exclusion at `at` that adds no
        n-gram the document lacks beyond the object's own words: a phrase this document never writes
        ("。本文件不涉及") would recur from one instance of the release to the next. Where every wording
        adds some, all of them (the varied forms, and the planner's choice, keep them from recurring):
        an exclusion is the scope's own formula, and a type that real scopes never offer vanishes."""
        text = section.text
        word = self_reference(document)
        also = "也" if EXCLUSION.search(text) else ""
        line_start = text.rfind("\n", 0, at) + 1
        line_end = text.find("\n", at) if "\n" in text[at:] else len(text)
        out: list[tuple[str, str, int, str, str]] = []
        stock: list[tuple[str, str, int, str, str]] = []
        # before the scope's own "不适用于" sentence, a "也不适用" would answer a sentence not yet read
        first = EXCLUSION.search(text)
        before_exclusion = first is not None and at <= first.start()
        templates = [f for f in _SENTENCE_FORMS if not (before_exclusion and "{also}" in f)]
        if _BOUNDS_ACTORS.search(text[:at]):  # "……的机构。CA证书排除在外。" excludes a thing from actors
            templates = [f for f in templates if f in _CONTENT_FORMS]
        for obj, clause in self._exclusions(document, section):
            options = [(at, match_style(f.format(word=word, also=also, obj=obj), text), f) for f in templates]
            # inside the boundary statement itself ("……（X除外）。"), only for a thing of the kind the
            # boundary names: "……的机构，操作系统不在此列" excludes nothing the sentence listed
            if text[at - 1 : at] in "。." and any(same_kind(obj, o) for o in scope_objects(text)):
                options += [(at - 1, match_style(f.format(obj=obj), text), f) for f in _INNER_FORMS]
            for offset, added, form in options:
                line = text[line_start:offset] + added + text[offset:line_end]
                own = not stock_ngrams(line, document, words(obj))
                (out if own else stock).append((obj, clause, offset, added, _form_name(form)))
        return out or stock

    def _spread(
        self, document: Document, context: InjectionContext, wordings: list[tuple[str, str, int, str, str]]
    ) -> list[tuple[str, str, int, str, str]]:
        """Where every wording adds new words, the wordings of one form, a form that turns with the
        document's place in the corpus: documents next to each other never take the same new phrase (a
        random choice gave two documents in a release of eight "不受本文件约束")."""
        if any(not self._stock(document, w) for w in wordings):
            return wordings
        start, _ = place_in_release(document, context)
        cycle = [_form_name(f) for f in (*_SENTENCE_FORMS, *_INNER_FORMS)]
        for k in range(len(cycle)):
            form = cycle[(start + k) % len(cycle)]
            picked = [w for w in wordings if w[4] == form]
            if picked:
                return picked
        return wordings

    @staticmethod
    def _stock(document: Document, wording: tuple[str, str, int, str, str]) -> bool:
        obj, _, _, added, _ = wording
        return bool(stock_ngrams(added, document, words(obj)))

    def propose(
        self, document: Document, site: Site, rng: random.Random, context: InjectionContext
    ) -> Proposal | None:
        section = document.sections[site.target]
        text = section.text
        if site.detail[0] == "qualifier":
            _, sentence_start, begin, qualifier = site.detail
            start = sentence_start + begin
            sentence = next(s for s in statement_sentences(text) if s.start == sentence_start)
            after = sentence.text[:begin] + sentence.text[begin + len(qualifier) :]
            evidence = qualifier_evidence(document, section, sentence.text, qualifier)
            if evidence is None:
                return None
            edit = Edit("modify", site.target, (Replacement("text", start, qualifier, ""),))
            return Proposal(
                edit,
                error=f"{scope_name(section)}的适用界限删去了限定语“{qualifier.rstrip('，')}”，"
                f"成为“{after}”，而{evidence}，适用界限比文件的内容宽，边界模糊",
                fix=f"恢复限定语“{qualifier.rstrip('，')}”，明确适用界限",
                generator="rule-template",
                form="删去限定语",
            )
        if site.detail[0] == "exclusion-item":
            obj, clause = rng.choice(self._exclusions(document, section))
            at = site.detail[1]
            added = match_style(obj + "、", text)
            edit = Edit("modify", site.target, (Replacement("text", at, "", added),))
            st = next(st for st in statement_sentences(text) if st.start <= at <= st.end)
            exclusion = st.text[: at - st.start] + added + st.text[at - st.start :]
            form = "排除列表增项"
        else:
            wordings = self._spread(document, context, self._wordings(document, section, site.detail[1]))
            if not wordings:
                return None
            obj, clause, at, exclusion, form = rng.choice(wordings)
            edit = Edit("modify", site.target, (Replacement("text", at, "", exclusion),))
        return Proposal(
            edit,
            error=f"{scope_name(section)}增加了排除陈述“{exclusion}”，而正文{cite(clause)}对{obj}规定了要求，"
            "范围与正文矛盾",
            fix=f"从范围中删去对{obj}的排除，或同时删去正文{cite(clause)}中关于{obj}的要求",
            generator="rule-template",
            form=form,
        )


def _vague_boundary(i: PromptInput) -> dict[str, str] | None:
    r = text_replacement(i.template)
    if r is None:
        return None
    if r.old and not r.new:
        return {"variant": "qualifier", "qualifier": r.old.rstrip("，")}
    m = re.search(r"不适用于([^。；，\n]{2,40})", r.new)
    return {"variant": "exclusion", "object": m.group(1)} if m else None


def _scp05_task(m: Mapping[str, str]) -> str:
    if m["variant"] == "qualifier":
        return (
            f"删去或泛化适用界限中的限定语“{m['qualifier']}”，使适用对象的边界变得模糊"
            "（结果中不再出现这一限定语），其余陈述保持不变。"
        )
    return (
        f"在范围中增加一句排除陈述，说明本文件不适用于“{m['object']}”（须出现“不适用于”和“{m['object']}”），"
        f"而正文对{m['object']}规定了要求，使范围与正文矛盾。"
    )


def _scp05(case: RewriteCase, answer: Answer) -> Failure | None:
    from injectors.types.scp.analysis import APPLICABILITY

    before, after = case.section.text, answer.rewritten_text
    if case.material["variant"] == "qualifier":
        qualifier = case.material["qualifier"]
        if after.count(qualifier) >= before.count(qualifier):
            return failure("condition", f"限定语“{qualifier}”仍在", "the qualifier is still there")
        if not APPLICABILITY.search(after):
            return failure(
                "condition", "删掉了整个适用界限陈述，只应删去限定语", "the applicability sentence is gone"
            )
        return None
    obj = case.material["object"]
    new = [s for s in new_sentences(before, after) if "不适用于" in s and obj in s]
    if not new:
        return failure("condition", f"没有新增排除“{obj}”的“不适用于”陈述", "no new exclusion of the object")
    return None


LLM = LLMSpec(
    prompt=PromptSpec(ERROR_TYPE.id, "1", _vague_boundary, _scp05_task),
    budget=Budget(80, 0.5, 0.5, 2.0),
    condition=_scp05,
)


DEFINITION = TypeDefinition(ERROR_TYPE, ScopeBoundaryVague, llm=LLM)
