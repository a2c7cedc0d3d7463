"""The public error taxonomy: 5 review dimensions and 25 error types (explained in docs/taxonomy.md).

This is the one table of types; injectors, checkers, datasets and the scorer all read it. The type IDs
are a public contract: never renumber them.
"""

from __future__ import annotations

from dataclasses import dataclass

DIMENSIONS: dict[str, tuple[str, str]] = {
    "STR": ("结构", "structure"),
    "SCP": ("范围", "scope"),
    "NMS": ("规范性表述", "normative modality"),
    "TER": ("术语", "terminology"),
    "NREF": ("规范性引用", "normative references"),
}


@dataclass(frozen=True)
class ErrorType:
    id: str
    dimension: str
    name_zh: str
    name_en: str
    rule: str  # the GB/T 1.1—2020 clause the error breaks
    inject: str  # R, R+L, L, R/L (legend in docs/taxonomy.md)
    check: str  # D, D∆, S, J and combinations such as "D / S"
    reference_codes: tuple[str, ...] = ()  # codes of the public reference implementation mapping here

    @property
    def deterministic(self) -> bool:
        """A checker on the corrupted document alone detects it."""
        return self.check.split(" ")[0] == "D"

    @property
    def diff_detectable(self) -> bool:
        return self.check.startswith("D∆")


# ID | dimension | 中文名 | English name | rule broken | inject | check | reference implementation codes
_TABLE = """
STR-01  | STR  | 必备要素缺失             | Mandatory element missing                 | GB/T 1.1—2020 6.2         | R   | D      | E-S-01
STR-02  | STR  | 要素顺序错误             | Element order wrong                       | GB/T 1.1—2020 6.2         | R   | D      | E-S-02 E-S-04
STR-03  | STR  | 要素标题不规范           | Non-standard element title                | GB/T 1.1—2020 8.3～8.13    | R   | D      | E-S-03
STR-04  | STR  | 编号或层次错误           | Numbering / hierarchy error               | GB/T 1.1—2020 7.2～7.4     | R   | D      | E-S-06
STR-05  | STR  | 附录错误                 | Annex error                               | GB/T 1.1—2020 9.6         | R   | D / S  | E-S-05
SCP-01  | SCP  | 范围中含有要求           | Provision inside the Scope                | GB/T 1.1—2020 8.5         | R+L | D      | E-SC-03
SCP-02  | SCP  | 范围表述格式不规范       | Scope formula broken                      | GB/T 1.1—2020 8.5         | R   | D      |
SCP-03  | SCP  | 正文超出范围             | Body exceeds the Scope                    | GB/T 1.1—2020 8.5         | L   | J      | E-SC-01
SCP-04  | SCP  | 范围承诺内容缺失         | Scope promises missing content            | GB/T 1.1—2020 8.5         | R+L | S      | E-SC-02
SCP-05  | SCP  | 范围界限模糊或矛盾       | Scope boundary vague or contradicted      | GB/T 1.1—2020 8.5         | L   | J      |
NMS-01  | NMS  | 要求被弱化               | Requirement weakened                      | GB/T 1.1—2020 9.1 附录C   | R+L | D∆ / J | E-T-01 E-T-03 E-T-06 E-T-07
NMS-02  | NMS  | 推荐或允许被强化         | Recommendation or permission strengthened | GB/T 1.1—2020 9.1 附录C   | R+L | D∆ / J | E-T-02
NMS-03  | NMS  | 能愿动词不规范           | Non-standard modal wording                | GB/T 1.1—2020 附录C 表C.1 | R   | D      | E-T-04
NMS-04  | NMS  | 模糊或含糊表述           | Vague or hedged wording                   | GB/T 1.1—2020 9.1         | R   | D      | E-T-05
NMS-05  | NMS  | 条款位于非条款位置       | Provision in a non-provision place        | GB/T 1.1—2020 9.2         | R+L | D      |
TER-01  | TER  | 使用未定义术语           | Undefined term used                       | GB/T 1.1—2020 8.7         | L   | S / J  | E-TM-01
TER-02  | TER  | 定义的术语未使用         | Defined term never used                   | GB/T 1.1—2020 8.7         | R+L | D      | E-TM-02
TER-03  | TER  | 术语使用不一致           | Inconsistent term use                     | GB/T 1.1—2020 8.7         | R+L | S      | E-TM-04
TER-04  | TER  | 定义缺陷                 | Definition defect                         | GB/T 1.1—2020 8.7         | R/L | D / J  | E-TM-03
TER-05  | TER  | 术语条目或引导语格式错误 | Term-entry or lead-in format error        | GB/T 1.1—2020 8.7         | R   | D      | E-TM-05
NREF-01 | NREF | 规范性引用未列出         | Cited normatively but not listed          | GB/T 1.1—2020 8.6         | R   | D      | E-R-01
NREF-02 | NREF | 列出但未引用             | Listed but never cited                    | GB/T 1.1—2020 8.6         | R   | D      | E-R-02
NREF-03 | NREF | 资料性文件列为规范性引用 | Informative document listed as normative  | GB/T 1.1—2020 8.6         | R   | D      | E-R-03
NREF-04 | NREF | 引用文件排列顺序错误     | List order violated                       | GB/T 1.1—2020 8.6         | R   | D      | E-R-04
NREF-05 | NREF | 引用形式错误             | Citation form error                       | GB/T 1.1—2020 9.5         | R   | D      |
"""


def _read_table(table: str) -> tuple[ErrorType, ...]:
    rows = []
    for line in table.strip().splitlines():
        id_, dim, zh, en, rule, inject, check, codes = (cell.strip() for cell in line.split("|"))
        rows.append(ErrorType(id_, dim, zh, en, rule, inject, check, tuple(codes.split())))
    return tuple(rows)


TAXONOMY: tuple[ErrorType, ...] = _read_table(_TABLE)
BY_ID: dict[str, ErrorType] = {t.id: t for t in TAXONOMY}
TYPE_IDS: tuple[str, ...] = tuple(t.id for t in TAXONOMY)
REFERENCE_TO_OURS: dict[str, str] = {code: t.id for t in TAXONOMY for code in t.reference_codes}
REFERENCE_DIMENSIONS = {"C2.1": "STR", "C2.2": "SCP", "C3.1": "NMS", "C3.2": "TER", "C3.3": "NREF"}


def error_type(type_id: str) -> ErrorType:
    """Look a type up by our ID or by a code of the public reference implementation."""
    key = REFERENCE_TO_OURS.get(type_id, type_id)
    try:
        return BY_ID[key]
    except KeyError:
        raise KeyError(f"unknown error type {type_id!r}: expected one of {', '.join(TYPE_IDS)}") from None
