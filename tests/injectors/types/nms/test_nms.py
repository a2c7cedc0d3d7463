"""NMS (modal verbs): the lexicon, the checkers on small documents, and each injector on the corpus."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
import regex

from injectors.checking import Baseline, lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits, apply_replacements, replay
from injectors.language.modals import modal_verbs, nonstandard_modals, vague_words
from injectors.taxonomy import by_id
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from injectors.types.nms.nms02_recommendation_strengthened import RecommendationStrengthened
from injectors.types.nms.nms03_nonstandard_modal_wording import NonstandardModal
from injectors.types.nms.nms04_vague_wording import VagueWording
from injectors.types.nms.nms05_provision_in_informative_place import ProvisionInInformativePlace
from injectors.types.nms.provision_as_note import note_moves
from parsers import parse_file
from parsers.model import Document
from parsers.text import parse_text
from validation.linter import lint_diff

NMS = ("NMS-03", "NMS-04", "NMS-05")
EVIDENCED = ("NMS-01", "NMS-02")  # only where the document makes the change detectable
EVIDENCE_NAMED = regex.compile(
    r"列为检验项目|规定了检验该条的试验|限值“|目的是“|并列的“|同一列项中的“|给出其他做法|表明这只是推荐|允许例外|为条件另作规定"
)
INJECTORS = (
    RequirementWeakened,
    RecommendationStrengthened,
    NonstandardModal,
    VagueWording,
    ProvisionInInformativePlace,
)


def standard(body: str, *, edition: str = "2020", foreword: str = "", annex: str = "") -> Document:
    """A small standard written for these tests: a given body after the usual front elements."""
    doc = "本文件" if edition == "2020" else "本标准"
    rules = (
        "本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。"
        if edition == "2020"
        else "本标准按照GB/T 1.1—2009给出的规则起草。"
    )
    marker = "资料性" if edition == "2020" else "资料性附录"
    text = f"""GB/T 99902—2025
社区 快递 智能柜 技术要求
前言
{rules}
{foreword}
{doc}由示例标准化技术委员会提出。
{doc}起草单位：宜宾示例研究院。
1 范围
{doc}规定了社区快递智能柜的技术要求。
{doc}适用于社区内设置的快递智能柜。
2 规范性引用文件
{doc}没有规范性引用文件。
3 术语和定义
下列术语和定义适用于{doc}。
3.1
格口 compartment
智能柜中存放单件快件的储物空间。
4 技术要求
4.1 一般要求
{body}
4.2 标志
柜体正面应设置服务电话。
附录A
（{marker}）
使用示例
{annex or "快递员投递后，系统向收件人发送取件码。"}
"""
    return parse_text(Path("test.txt"), text.encode())


def found(document: Document, error_type: str) -> list[str]:
    """Where the checker of one type fires, each location once, in document order."""
    return list(dict.fromkeys(v.location for v in lint(document, [error_type])))


# --- the lexicon -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("柜门应能自动关闭，格口不应小于300 mm。", ["应", "不应"]),
        ("系统宜采用加密传输，也可采用专线。", ["宜", "可"]),
        ("系统响应时间和相应的供应商应用软件。", []),
        ("适宜的温度可能影响可靠性，许可证和认可机构。", []),
        ("系统应对数据进行加密，以应对突发事件。", ["应"]),
        ("管理员不应对日志造成影响。", ["不应"]),
        ("数据应可追溯、可审计。", ["应"]),
        ("对于可独立运行的设备，可按表1选型。", ["可"]),
        ("取件码可用于一次开箱，其可用性不应低于99%。", ["可", "不应"]),
        ("“应”和“宜”是能愿动词。", []),
        ("补传过程不必与实时上传同步。", ["不必"]),
    ],
)
def test_modal_verbs_guard_compounds(text: str, words: list[str]) -> None:
    assert [m.word for m in modal_verbs(text)] == words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("柜门必须自动关闭，用户须输入取件码，运维人员应当每日巡检。", ["必须", "须", "应当"]),
        ("严禁在柜体上张贴广告，禁止以明文方式传输取件码。", ["严禁", "禁止"]),
        ("管理员与审计员不可兼任，柜体不得有锐边。", ["不可", "不得"]),
        ("业务必需的数据和必不可少的条款无须另行说明。", []),
        ("系统应禁止未授权访问，具有不可否认性，故障时不可用。", []),
        ("确保操作历史不可更改并且可以被查询，不可被篡改。", []),
        ("舍不得，不得不，系统响应当前请求。", []),
    ],
)
def test_nonstandard_modals_guard_compounds(text: str, words: list[str]) -> None:
    assert [h.word for h in nonstandard_modals(text)] == words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("柜体尽量采用不锈钢。", ["尽量"]),
        ("格口最好设置照明。", ["最好"]),
        ("取件超时原则上不超过24 h。", ["原则上"]),
        ("巡检周期一般不超过7 d。", ["一般"]),
        ("夜间适当降低屏幕亮度。", ["适当"]),
        ("一般情况下，柜门应在30 s内关闭。", []),
        ("柜体一般由主柜和副柜组成。", []),
        ("系统应采取适当的防护措施，口令应使用最长长度并适当缩短更换周期。", []),
        ("在此原则上制定细则，效果最好的方案。", []),
    ],
)
def test_vague_words_only_where_a_modal_should_be(text: str, words: list[str]) -> None:
    assert [h.word for h in vague_words(text)] == words


# --- checkers on small documents ---------------------------------------------------------------------
def test_nonstandard_modal_found_in_a_2020_document() -> None:
    doc = standard("柜门必须具有防夹功能。\n柜体不得有锐边。")
    messages = [v.message for v in lint(doc, ["NMS-03"])]
    assert [v.location for v in lint(doc, ["NMS-03"])] == ["4.1", "4.1"]
    assert any("“必须”" in m for m in messages) and any("“不得”" in m for m in messages)


def test_bude_is_allowed_in_a_2009_document() -> None:
    doc = standard("柜体不得有锐边。", edition="2009")
    assert found(doc, "NMS-03") == []
    assert found(standard("柜门必须具有防夹功能。", edition="2009"), "NMS-03") == ["4.1"]


def test_engineering_code_words_are_allowed_with_a_usage_note() -> None:
    body = "柜体严禁设置在疏散通道内，柜门必须具有防夹功能。"
    note = "本规范用词说明：表示很严格，非这样做不可的，正面词采用“必须”，反面词采用“严禁”。"
    assert found(standard(body, annex=note), "NMS-03") == []
    assert found(standard(body), "NMS-03") == ["4.1"]


def test_nonstandard_words_in_tables_and_compounds_are_not_flagged() -> None:
    doc = standard("状态位 | 0：禁止 | 1：允许\n格口故障时不可用，管理平台应禁止远程开箱。")
    assert found(doc, "NMS-03") == []


def test_vague_wording_found_and_guarded() -> None:
    assert found(standard("柜体尽量采用不锈钢。"), "NMS-04") == ["4.1"]
    assert found(standard("一般情况下，柜门应在30 s内关闭。\n柜体一般由主柜和副柜组成。"), "NMS-04") == []
    assert found(standard("注：柜体一般采用不锈钢。"), "NMS-04") == []  # a note is informative


def test_provisions_in_informative_places() -> None:
    assert found(standard("柜门应具有防夹功能。\n注：格口应按尺寸分为大、中、小三类。"), "NMS-05") == ["4.1"]
    assert found(standard("柜门应具有防夹功能。\n注：格口尺寸可能因厂家而异。"), "NMS-05") == []
    assert found(standard("柜门应具有防夹功能。\n示例：大格口宜用于生鲜快件。"), "NMS-05") == ["4.1"]
    assert found(standard("柜门应具有防夹功能。\n示例：该格口可以命名为A01。"), "NMS-05") == []
    assert found(standard("柜门应具有防夹功能。", annex="取件码应为6位数字。"), "NMS-05") == ["附录A"]
    assert found(standard("柜门应具有防夹功能。", annex="取件码宜为6位数字。"), "NMS-05") == []
    assert found(standard("柜门应具有防夹功能。", foreword="执行本文件时，还应符合有关规定。"), "NMS-05") == [
        "前言"
    ]


def test_scope_and_definitions_belong_to_other_types() -> None:
    doc = standard("柜门应具有防夹功能。")
    assert found(doc, "NMS-05") == []  # "本文件起草单位：宜宾…" and the scope are not reported
    scope = doc.section("1")
    assert scope is not None and "规定了" in scope.text


def test_diff_rules_compare_modal_verbs_at_the_same_place() -> None:
    original = standard("柜门应具有防夹功能，格口宜设置照明。")
    weakened = standard("柜门宜具有防夹功能，格口宜设置照明。")
    strengthened = standard("柜门应具有防夹功能，格口应设置照明。")
    reworded = standard("柜门必须具有防夹功能，格口宜设置照明。")
    assert [v.location for v in lint_diff(original, weakened, ["NMS-01"])] == ["4.1"]
    assert lint_diff(original, weakened, ["NMS-02"]) == []
    assert [v.location for v in lint_diff(original, strengthened, ["NMS-02"])] == ["4.1"]
    assert lint_diff(original, reworded, ["NMS-01", "NMS-02"]) == []
    assert lint_diff(original, original) == []


# --- the project's corpus ----------------------------------------------------------------------------
def test_clean_corpus_has_no_nms_violations(corpus_documents: list[Document]) -> None:
    assert {d.source: lint(d, NMS) for d in corpus_documents if lint(d, NMS)} == {}


@pytest.fixture(scope="module")
def context(corpus_documents: list[Document]) -> InjectionContext:
    return InjectionContext.from_documents(corpus_documents)


@pytest.mark.parametrize("injector_class", INJECTORS, ids=lambda c: c.error_type)
def test_injected_instances_are_correct(
    injector_class: type, corpus_documents: list[Document], context: InjectionContext
) -> None:
    injector = injector_class()
    spec = by_id()[injector.error_type]
    made = 0
    for doc in corpus_documents:
        baseline = Baseline(doc)
        attempt = injector.inject(baseline, random.Random(f"0:{doc.doc_id}:x"), context, seed=0)
        if attempt.instance is None and injector.error_type in EVIDENCED:
            assert attempt.reason == "no_evidence", (doc.source, attempt.reason)  # skipped, and why
            continue
        assert attempt.instance is not None, (doc.source, attempt.reason)
        instance = attempt.instance
        if injector.error_type in EVIDENCED:  # the description names what makes the change detectable
            assert EVIDENCE_NAMED.search(instance.description), instance.description
        made += 1
        assert instance.error_type == injector.error_type and instance.dimension == "NMS"
        assert instance.description.startswith("错误：") and "修改建议：" in instance.description
        cited = instance.description.rsplit("依据：", 1)[1]
        assert "“" in instance.description and cited in spec.rules_for(doc.drafting_rules)
        # the edit replays exactly on the original section, at the section it names
        original = doc.sections[instance.edit.target]
        assert instance.original_section == original
        assert replay(instance.edit, original) == instance.corrupted_section
        applied = apply_edits(doc, [instance.edit])
        assert applied.locations == (instance.location,) == (original.number,)
        corrupted = applied.document
        (replacement,) = instance.edit.replacements
        assert replacement.new.strip() in instance.description  # the changed words are quoted
        if spec.deterministic:
            assert instance.location in found(corrupted, injector.error_type)
            assert instance.location not in found(doc, injector.error_type)
        else:
            assert instance.location in [v.location for v in lint_diff(doc, corrupted, [injector.error_type])]
            assert lint_diff(doc, doc, [injector.error_type]) == []
        # no other NMS checker newly fires there
        before = set(lint(doc, NMS))
        assert {
            v for v in lint(corrupted, NMS) if v not in before and v.error_type != injector.error_type
        } == set()
    assert made == len(corpus_documents) or (injector.error_type in EVIDENCED and made >= 3)


def test_2009_documents_keep_their_own_wording(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    older = [d for d in corpus_documents if d.drafting_rules == "GB/T 1.1—2009"]
    assert older
    for doc in older:
        for seed in range(4):
            instance = NonstandardModal().inject(Baseline(doc), random.Random(f"{seed}:b"), context).instance
            assert instance is not None
            assert instance.edit.replacements[0].new != "不得"


def test_nms05_adds_no_sentence_of_its_own(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    """NMS-05 once added one of three stock 前言 sentences. Now it writes only the form
    of the error (a modal verb, or "注：" before a real provision of the clause), and both forms occur."""
    forms = set()
    for doc in corpus_documents:
        for seed in range(3):
            instance = (
                ProvisionInInformativePlace()
                .inject(Baseline(doc), random.Random(f"{seed}:n"), context)
                .instance
            )
            assert instance is not None
            (replacement,) = instance.edit.replacements
            assert replacement.old in ("", "通常", "不") or replacement.old in replacement.new
            added = replacement.new.replace(replacement.old, "", 1) if replacement.old else replacement.new
            assert regex.fullmatch(r"\n?注[：:]|不?[应宜可]", added), added
            forms.add("note" if "注" in added else "modal")
            assert instance.original_section.kind != "foreword"
    assert forms == {"note", "modal"}


def test_nms04_draws_the_vague_forms_evenly(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    """原则上 was the form of 9 instances in 11; the taxonomy's forms now occur where
    they fit, none in more than a third of the instances."""
    forms: Counter[str] = Counter()
    for doc in corpus_documents:
        for seed in range(4):
            instance = VagueWording().inject(Baseline(doc), random.Random(f"{seed}:v"), context).instance
            if instance is not None:
                forms[instance.edit.replacements[0].new.removesuffix("不")] += 1
    total = sum(forms.values())
    # 适当 fits only before a verb of degree (增加, 缩短 …), which these clauses seldom have
    assert total >= 30 and {"尽量", "最好", "一般", "原则上"} <= set(forms), forms
    assert max(forms.values()) <= total / 3, forms


def test_a_provision_moved_into_a_note_keeps_its_words() -> None:
    doc = standard("柜门应具有防夹功能。柜体外壳应可靠接地。")
    position = next(i for i, s in enumerate(doc.sections) if "柜门" in s.text)
    moves = list(note_moves(doc.sections[position]))
    assert [m.sentence for m in moves] == ["柜体外壳应可靠接地。"]
    corrupted = apply_replacements(doc.sections[position], [moves[0].replacement()])
    assert corrupted.text.endswith("柜门应具有防夹功能。\n注：柜体外壳应可靠接地。")
    assert [
        (v.error_type)
        for v in lint(
            replace(
                doc, sections=tuple(corrupted if i == position else s for i, s in enumerate(doc.sections))
            ),
            ["NMS-05"],
        )
    ] == ["NMS-05"]


def test_descriptions_quote_the_changed_words(
    corpus_documents: list[Document], context: InjectionContext
) -> None:
    doc = corpus_documents[0]
    instance = RequirementWeakened().inject(Baseline(doc), random.Random("1:x"), context).instance
    assert instance is not None
    (replacement,) = instance.edit.replacements
    assert (replacement.old, replacement.new) in (
        ("应", "宜"),
        ("应", "可"),
        ("应", "可以"),
        ("应能", "可"),
        ("应能", "可以"),
    )
    assert regex.search(f"弱化为(?:推荐|允许)“不?{replacement.new}", instance.description), (
        instance.description
    )


def test_real_documents_do_not_crash_the_checkers(real_corpus: Path) -> None:
    paths = [real_corpus / "GBT_22240-2020.md", *sorted((real_corpus / "llm-extracted").glob("*.txt"))]
    for path in paths:
        doc = parse_file(path)
        messages = [v.message for v in lint(doc, NMS)]
        assert not any("业务必需" in m or "务必需" in m for m in messages), path.name


def test_no_modal_is_replaced_inside_a_word() -> None:
    """可 of 方可 and 应 of 应对 are parts of words: replacing them alone would write "方尽量实施"."""
    document = standard("变更须经审批，审批后方可实施。\n运维人员应对设备运行状态进行监控。")
    context = InjectionContext.from_documents([document])
    body = next(i for i, s in enumerate(document.sections) if s.number == "4.1")
    for injector in (VagueWording(), RequirementWeakened(), RecommendationStrengthened()):
        assert all(site.target != body for site in injector.sites(document, context)), injector.error_type


def test_a_line_wrapped_mid_sentence_never_becomes_a_note() -> None:
    """A PDF line break inside a sentence ("…单位为千米⏎（km），…应…") is no paragraph of its own."""
    doc = standard("记录仪应每天自检一次。\n里程记录单位为千米\n（km），分辨率应等于或优于0.1 km。")
    position = next(i for i, s in enumerate(doc.sections) if "千米" in s.text)
    assert list(note_moves(doc.sections[position])) == []
    whole = standard("记录仪应每天自检一次。\n里程的分辨率应等于或优于0.1 km。")
    position = next(i for i, s in enumerate(whole.sections) if "里程" in s.text)
    assert [m.sentence for m in note_moves(whole.sections[position])] == ["里程的分辨率应等于或优于0.1 km。"]


@pytest.mark.parametrize("item", ["3 封孔长度不应低于7 m。", "１０.７ 其他使用上应注意的事项。"])
def test_a_numbered_item_or_a_heading_read_as_text_never_becomes_a_note(item: str) -> None:
    """An engineering code's numbered item ("3 在煤壁开孔的钻孔，封孔长度不应低于7 m") or a heading the
    parser left in the text would read "注：3 …" as a note: it is no paragraph of its own."""
    doc = standard(f"记录仪应每天自检一次。\n{item}")
    position = next(i for i, s in enumerate(doc.sections) if "记录仪" in s.text)
    assert list(note_moves(doc.sections[position])) == []


def test_two_different_recommendations_in_one_sentence_are_no_evidence() -> None:
    """ "宜使用…，分类宜采用…" is an ordinary sentence: strengthening one of them would read as plausible;
    so is "长度宜为…，宽度宜为…": two subjects may carry two strengths."""
    from injectors.language.modals import modal_verbs
    from injectors.types.nms.evidence import recommendation_evidence

    def evidence(line: str) -> list[str]:
        doc = standard(line)
        position = next(i for i, s in enumerate(doc.sections) if line in s.text)
        offset = doc.sections[position].text.index(line)
        return [e.where for e in recommendation_evidence(doc, position, offset, line, modal_verbs(line)[1])]

    assert evidence("知识结构宜使用树状层次化结构，知识的分类宜采用按生命周期分类。") == []
    assert evidence("箱体长度宜为600 mm，宽度宜为400 mm。") == []


def test_nms04_never_blurs_a_describing_ke() -> None:
    """Read in a real standard: "所有控件可被辅助工具感知" became "原则上被辅助工具感知", and "系统可分为
    三个层次" became "最好分为": a passive or a classification after 可 permits nothing, so blurring it
    leaves no provision unclear and reads as nobody writes. Only the permission 可 is a site."""
    context = InjectionContext.from_documents([])

    def ke_lines(document: Document) -> list[str]:
        sites = VagueWording().sites(document, context)
        return [m.line for site in sites for m in site.detail if m.modal.word == "可"]

    assert ke_lines(standard("柜体可分为主柜和副柜两部分。\n所有格口的状态可被管理平台读取。")) == []
    assert ke_lines(standard("柜体可分为主柜和副柜两部分。\n格口可采用不锈钢门板。")) == [
        "格口可采用不锈钢门板。"
    ]


@pytest.mark.parametrize(
    "row",
    [
        "QN\t请求编号\tC20\t可选",  # a table a PDF rendered with tabs between the cells
        "QN　请求编号　C20　可选",  # … or with ideographic spaces
        "可选",  # a lone cell
        "数据段的ST字段为必选/可选项，由数据类型确定。",  # a list of fixed values
        "该字段可选，缺省时按0处理。",  # a value word, not a modal verb and its verb
    ],
)
def test_no_nms_type_edits_a_table_cell_or_a_fixed_value(row: str) -> None:
    """A 必选/可选 column's 可选 became "原则上选" on a real standard: a broken word, and no provision was
    involved. Table cells and fixed values are never a site of NMS-01, NMS-02 or NMS-04."""
    document = standard(f"数据包的字段如下：\n{row}\n柜门应采用金属材料，开启力不应大于50 N。")
    context = InjectionContext.from_documents([document])
    lines = row.replace("\t", " ").split("\n")
    for injector in (RequirementWeakened(), RecommendationStrengthened(), VagueWording()):
        for site in injector.sites(document, context):
            for option in site.detail:
                found = getattr(option, "found", option)
                assert found.line.replace("\t", " ") not in lines, (injector.error_type, found.line)


def test_nms05_offers_clauses_as_notes_less_often_than_its_other_places() -> None:
    """Nearly every clause's last provision could become a note; a statement of a 注 exists only where
    the document has one. Where it has, the clauses offered as notes are no more than half as many as the
    other places (one beside a single note), so that "注：" before a provision is not what marks the type."""
    clauses = "\n".join(
        f"4.{k} 要求{k}\n格口{k}的门板应采用金属材料。\n格口{k}的开启力不应大于{k + 40} N。"
        for k in range(1, 7)
    )
    body = f"格口应能自动锁闭。\n注：格口的尺寸由运营方确定。\n{clauses}"
    document = standard(body)
    sites = list(ProvisionInInformativePlace().sites(document, InjectionContext.from_documents([document])))
    kinds = Counter(type(o).__name__ for s in sites for o in s.detail[:1])
    assert kinds["Statement"] >= 1
    assert 1 <= kinds["NoteMove"] <= max(1, kinds["Statement"] // 2)
    only_moves = standard(clauses)
    moves = list(
        ProvisionInInformativePlace().sites(only_moves, InjectionContext.from_documents([only_moves]))
    )
    assert len(moves) >= 4  # without another place, every clause that can be demoted is offered


def test_nms04_is_not_mostly_yuanzeshang() -> None:
    """原则上 fits almost any clause, 尽量/最好 only before an action: where the document offers both kinds
    of clause, the clauses where only 原则上 fits are not sites, so 原则上 is drawn as often as the rest."""
    body = (
        "柜门应牢固。\n4.1.1 箱体\n箱体应稳固。\n4.1.2 锁具\n管理员应每日检查柜门锁具。\n"
        "4.1.3 底座\n底座应平稳。\n4.1.4 清洁\n运营方应定期清洁柜体表面。"
    )
    document = standard(body)
    context = InjectionContext.from_documents([document])
    lines = {m.line for s in VagueWording().sites(document, context) for m in s.detail}
    assert lines and all("清洁" in line or "服务电话" in line for line in lines)
    forms = Counter()
    for seed in range(30):
        attempt = VagueWording().inject(Baseline(document), random.Random(seed), context, seed=seed)
        assert attempt.instance is not None
        forms[attempt.instance.provenance.form] += 1
    assert forms["原则上"] <= 0.4 * sum(forms.values()), forms
