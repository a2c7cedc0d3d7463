"""Tests of injectors.types.nms.evidence_default: a permission to set what the document
gives a default for."""

from __future__ import annotations

from injectors.types.nms.evidence import DEFAULT
from tests.injectors.types.nms.nms_documents import access_document, evidence_at, strengthened_attempts

DEFAULTS = """4 技术要求
4.1 通信参数
——超时时间根据具体的通信方式可自定义；
——重试间隔根据具体的通信方式可自定义。
4.2 缺省参数
缺省超时时间及重试间隔见表1。
"""


def test_a_setting_with_a_default_is_evidence() -> None:
    """The default must name the setting's own actor: 缺省超时 for 超时时间, nothing for 重试间隔."""
    doc = access_document(DEFAULTS)
    found = evidence_at(doc, "4.1", "可")
    assert [(e.kind, e.where) for e in found] == [(DEFAULT, "第4.2条")]
    assert found[0].words.startswith("缺省")
    for attempt in strengthened_attempts(doc):
        instance = attempt.instance
        assert instance is not None
        assert "“应自定义”" in instance.description and "既有缺省值" in instance.description


def test_a_setting_without_a_default_is_no_evidence() -> None:
    doc = access_document(DEFAULTS.replace("缺省超时时间及重试间隔见表1。", "参数的取值见表1。"))
    assert evidence_at(doc, "4.1", "可") == []
