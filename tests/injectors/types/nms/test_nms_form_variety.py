"""The NMS types' forms take turns: each injector draws the form before the place where a choice exists,
offers the planner several candidates, and NMS-05 prefers the document's own informative places to a
clause written as a note."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.planner import PlanConfig, candidate_instances
from injectors.types.nms.nms01_requirement_weakened import RequirementWeakened
from injectors.types.nms.nms05_provision_in_informative_place import ProvisionInInformativePlace
from injectors.types.nms.provision_as_note import NoteMove
from parsers.model import Document
from parsers.text import parse_text

FRONT = """GB/T 99905—2025
社区 快递 智能柜 安装要求
前言
本文件按照GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》的规定起草。
1 范围
本文件规定了社区快递智能柜的安装要求。
2 规范性引用文件
本文件没有规范性引用文件。
3 术语和定义
本文件没有需要界定的术语和定义。
"""


def document(body: str) -> Document:
    return parse_text(Path("forms.txt"), (FRONT + body).encode())


def test_nms01_draws_the_weaker_word_before_the_clause() -> None:
    """a) takes only 宜 ("可符合" is no Chinese), b) and c) take 宜, 可 and 可以: drawn modal first, 宜 would
    come five times in nine; drawn form first, a third of the time."""
    doc = document(
        """4 安装要求
4.1 柜体
a) 柜体的安装高度应符合表1的规定；
b) 柜体应采用膨胀螺栓固定在地面上；
c) 柜体应设置防撬报警装置。
5 检验规则
5.1 出厂检验
出厂检验项目为4.1，任一项不合格判该台产品不合格。
"""
    )
    context = InjectionContext.from_documents([doc])
    baseline = Baseline(doc)
    injector = RequirementWeakened()
    forms = Counter()
    for seed in range(60):
        attempt = injector.inject(baseline, random.Random(f"{seed}:w"), context, seed=seed)
        assert attempt.instance is not None
        forms[attempt.instance.provenance.form] += 1
    assert set(forms) == {"应→宜", "应→可", "应→可以"}
    assert forms["应→宜"] < 0.45 * 60, forms


STATEMENTS_AND_CLAUSES = """4 安装要求
4.1 基础
柜体应安装在坚实平整的地面上。基础的混凝土强度等级应不低于C20。
注：基础通常采用现浇混凝土。
4.2 固定
柜体应采用膨胀螺栓固定。固定点应不少于4个。
注：膨胀螺栓的规格按柜体质量选用。
4.3 接地
柜体应可靠接地。接地电阻应不大于4 Ω。
4.4 布线
电源线应穿管敷设。线管应固定在墙面上。
4.5 照明
柜体正面宜设置照明灯。照明灯宜采用LED光源。
4.6 标志
柜体正面应设置运营方标志。标志应清晰可见。
"""


def test_nms05_offers_clauses_as_notes_at_most_half_as_often_as_informative_places() -> None:
    doc = document(STATEMENTS_AND_CLAUSES)
    sites = list(ProvisionInInformativePlace().sites(doc, InjectionContext.from_documents([doc])))
    moves = [s for s in sites if all(isinstance(o, NoteMove) for o in s.detail)]
    statements = [s for s in sites if s not in moves]
    assert len(statements) == 2
    assert len(moves) == 1, [doc.sections[s.target].number for s in moves]


def test_types_of_several_forms_offer_the_planner_more_candidates() -> None:
    doc = document(STATEMENTS_AND_CLAUSES)
    config = PlanConfig(types=("NMS-01", "NMS-03", "NMS-04"), min_errors=1, max_errors=3)
    found = candidate_instances(doc, 0, InjectionContext.from_documents([doc]), config)
    counts = Counter(i.error_type for i in found.instances)
    assert counts["NMS-03"] == 3 and counts["NMS-04"] == 3, counts


def test_the_candidates_of_a_type_take_forms_it_does_not_offer_yet() -> None:
    """NMS-03 asks for three candidates: where the clauses take 必须, 应当 and 须 alike, a candidate whose
    form repeats an earlier one is kept aside while another form turns up."""
    doc = document(STATEMENTS_AND_CLAUSES)
    config = PlanConfig(types=("NMS-03",), min_errors=1, max_errors=3)
    for seed in range(4):
        found = candidate_instances(doc, seed, InjectionContext.from_documents([doc]), config)
        forms = [i.provenance.form for i in found.instances]
        assert len(forms) == 3 and len(set(forms)) == 3, (seed, forms)
        assert len({i.location for i in found.instances}) == 3


def test_no_permission_before_a_comparison_and_no_wubi_before_a_state() -> None:
    """ "误差应等于或优于0.5%" weakens to 宜 only; "应具有如下功能" never becomes "务必具有"."""
    from injectors.language.modals import modal_verbs
    from injectors.types.nms.editing import BodyModal
    from injectors.types.nms.nms01_requirement_weakened import _weaker
    from injectors.types.nms.nms03_nonstandard_modal_wording import _nonstandard_options

    line = "示值误差应等于或优于0.5%。"
    assert _weaker(line, line.index("应"), False) == [("应", "宜")]
    doc = document("4 要求\n4.1 功能\n控制器应具有如下功能。\n")
    state = "控制器应具有如下功能。"
    found = BodyModal(0, state, modal_verbs(state)[0])
    assert "务必" not in _nonstandard_options(doc, found)
