"""Where NMS-05 may turn a statement of a 注 or an informative annex into a provision: a clause with a
subject of its own that states what is done, never the document describing itself, a noun phrase, a
process under way or a verb's own complement."""

from __future__ import annotations

import pytest

from injectors.types.nms.editing import body_modals
from injectors.types.nms.nms05_provision_in_informative_place import statement_anchor
from parsers.model import Section


def anchor(line: str) -> str | None:
    found = statement_anchor(line, 0)
    return None if found is None else line[found[0] :]


def test_a_later_clause_with_its_own_subject_is_a_place() -> None:
    """ "X是HTTP的标准字段，此处按照其原意使用": the first clause explains, the second states what is done."""
    line = "Content-Type是HTTP协议的标准字段，此处按照其原意进行使用。"
    assert anchor(line) == "按照其原意进行使用。"


@pytest.mark.parametrize(
    "line",
    [
        "为此本文件对采集终端与汇聚平台之间的数据接口进行规定。",  # the document telling what it does
        "编码字段的取值范围和允许对该范围内的取值进行合法变换的规定。",  # a noun phrase
        "每个部件通常在装配关系中都承担着某种功能。",  # a description of what happens
        "长数据包信道的应用在不断深化。",  # a process under way
        "扩展定义主要体现在功能码和标识符两方面。",  # 在 is the verb's complement
        "判定速度状态为异常。",  # an act, not a subject
        "标识符在元数据实体中是唯一的。",  # where something is
    ],
)
def test_no_place_for_a_modal(line: str) -> None:
    assert anchor(line) is None


def test_an_exception_is_no_provision() -> None:
    """ "除应由供应商执行的步骤外": the modal names the exception; weakening it weakens nothing."""
    line = "网关的配置，除应由供应商执行的步骤外，其余步骤均应由使用单位管理员完成。"
    section = Section("5.1", "初始化", line, 2, "clause")
    words = [m.modal.word for m in body_modals(section, frozenset())]
    starts = [m.modal.start for m in body_modals(section, frozenset())]
    assert line.index("应由供应商") not in starts and words == ["应"]


@pytest.mark.parametrize(
    ("line", "rest"),
    [
        ("安装记录采用统一的表格。", "采用统一的表格。"),
        ("校验码由接收装置计算出来。", "由接收装置计算出来。"),
    ],
)
def test_a_noun_subject_takes_the_modal(line: str, rest: str) -> None:
    assert anchor(line) == rest


def test_a_prepositional_phrase_is_no_subject() -> None:
    """ "系统向收件人发送取件码": 应 belongs before 向, so the statement is left alone."""
    assert anchor("快递员投递后，系统向收件人发送取件码。") is None


def test_a_clause_continuing_the_sentence_s_subject_is_no_place() -> None:
    """ "监测已从单一要素，发展到覆盖水位、水质等要素": "发展到" is no subject of its own."""
    assert anchor("随着技术的进步，自动监测已从单一的水位监测，发展到覆盖水位、水质等要素的监测。") is None


def test_a_lookup_result_is_no_permission() -> None:
    from injectors.language.modals import describes, modal_verbs

    line = "依据表3可得到设备的防护等级。"
    (modal,) = modal_verbs(line)
    assert describes(line, modal)


def test_an_exception_is_no_sibling() -> None:
    """The weakened "均应由使用单位管理员完成" has no parallel in "除应由供应商执行的步骤外"."""
    from injectors.language.modals import modal_verbs
    from injectors.types.nms.evidence import sentence_siblings

    line = "网关的配置，除应由供应商执行的步骤外，其余步骤均应由使用单位管理员完成。"
    modal = modal_verbs(line)[-1]
    assert sentence_siblings(line, modal) == []
