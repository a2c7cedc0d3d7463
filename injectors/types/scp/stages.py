"""Life-cycle stages a scope names, for SCP-03 on scopes that exclude nothing.

Most real scopes put no object outside ("不适用于" is rare), but many draw the boundary with the stages
they cover: "本标准适用于汽车行驶记录仪的设计、制造、检验及使用". A body requirement that also binds the
object after a stage the scope leaves out ("记录仪经改造后仍应……") reaches beyond that boundary, and
the scope's own list of stages is the evidence a reviewer cites.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from injectors.types.scp.analysis import APPLICABILITY, statement_sentences
from injectors.types.scp.editing import ACT

# Where an 适用于 clause ends (a new clause of the scope starts).
_CLAUSE_END = regex.compile(r"[。；\n]")


_ACTIVITY = regex.compile(ACT)


@dataclass(frozen=True)
class Stage:
    """A stage after which a requirement on the object can be restated, and the stages whose presence in
    the scope would already cover it (改造 is part of 建设; 维修 of 运维 and 使用)."""

    name: str
    covered_by: tuple[str, ...]
    words: tuple[str, ...]  # any of these in the body means the body already treats the stage
    kinds: frozenset[str]  # the kinds of document whose objects go through it (software is not 翻新)


_H, _I = frozenset({"hardware"}), frozenset({"information"})


STAGES = (
    Stage(
        "维修",
        ("维修", "维护", "运维", "使用", "运行", "运营", "服务", "管理", "检修"),
        ("维修", "修理", "检修"),
        _H,
    ),
    Stage("改造", ("改造", "建设", "升级", "集成"), ("改造",), _H | _I),
    Stage("升级", ("升级", "改造", "开发", "运维", "维护", "建设"), ("升级",), _I),
    Stage("翻新", ("翻新", "维修", "维护", "制造", "生产"), ("翻新",), _H),
    Stage("迁移", ("迁移", "安装", "建设", "运维", "维护"), ("迁移", "搬迁"), _I),
    Stage("返修", ("返修", "维修", "维护", "运维", "使用", "检修"), ("返修",), _H),
)


@dataclass(frozen=True)
class StagedScope:
    """The 适用于 clause that lists stages, and the stages it lists."""

    clause: str  # "本标准适用于汽车行驶记录仪的设计、制造、检验及使用"
    activities: tuple[str, ...]


def staged_scope(scope_text: str) -> StagedScope | None:
    """The first applicability statement that names two or more activities ("的设计、制造和验收")."""
    for sentence in statement_sentences(scope_text):
        m = APPLICABILITY.search(sentence.text)
        if m is None:
            continue
        end = _CLAUSE_END.search(sentence.text, m.end())
        clause = sentence.text[: end.start() if end else len(sentence.text)]
        found = tuple(dict.fromkeys(a.group(0) for a in _ACTIVITY.finditer(clause, m.end())))
        if len(found) >= 2 and "参照" not in clause:
            return StagedScope(clause.strip("，, "), found)
    return None


def stages_outside(
    scope_text: str, body: str, kinds: frozenset[str]
) -> tuple[StagedScope, tuple[Stage, ...]] | None:
    """The staged scope and the stages it plainly leaves out that the body does not treat either."""
    staged = staged_scope(scope_text)
    if staged is None:
        return None
    out = tuple(
        s
        for s in STAGES
        if s.kinds & kinds
        and not any(c in staged.clause for c in s.covered_by)
        and not any(w in body or w in scope_text for w in s.words)
    )
    return (staged, out) if out else None
