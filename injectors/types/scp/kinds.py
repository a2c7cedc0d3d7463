"""Whether an object the scope puts outside can stand beside a body requirement's subject.

SCP-03 coordinates an excluded object into the subject of a body requirement. A drafter coordinates
things of one kind ("集中充电柜和换电柜应……", "温度记录仪和温湿度记录仪应……"); a fire detection system
coordinated with a battery room ("报警系统和电池室均应设置主电源") is a sentence nobody wrote, and a
reviewer rejects it as planted. Where the subject is a possessor ("X的电气设备应……"), the object only needs
to be able to own the same thing, but not a place ("X的入口处") nor the same noun twice ("设备的设备").
"""

from __future__ import annotations

# Head nouns a drafter treats as one kind of thing, though their last characters differ.
_KINDS = (
    ("系统", "设备", "装置", "终端", "平台", "仪", "服务器"),
    ("容器", "盒", "袋", "箱", "桶", "罐"),
    ("室", "舱", "库", "间"),
)


# What a possessed noun ends with when it names a place on its owner, not a part or a document of it.
_PLACES = ("处", "内", "外", "上", "下", "侧", "前", "后", "中", "旁", "口", "周围", "附近")


def same_kind(a: str, b: str) -> bool:
    """Whether two object names read as things of one kind: the same last character (柜, 仪, 对象), one of
    the kinds above, or a shared two-character word in their last three characters (充电桩, 充电柜)."""
    if not a or not b:
        return False
    if a[-1] == b[-1]:
        return True
    if any(any(a.endswith(x) for x in kind) and any(b.endswith(x) for x in kind) for kind in _KINDS):
        return True
    tail_a, tail_b = a[-3:], b[-3:]
    return any(tail_a[k : k + 2] in tail_b for k in range(len(tail_a) - 1))


def possessed(subject: str, at: int) -> str:
    """The noun a subject's head owns ("工作单元的电气设备" → "电气设备"), or "" when the head is the
    subject itself (nothing, or only a comma, follows it before the modal)."""
    rest = subject[at:]
    return rest[1:] if rest.startswith("的") else ""


def can_join(outsider: str, subject: str, at: int, heads: tuple[str, ...]) -> bool:
    """Whether `outsider` can be coordinated after the head ending at `at` of `subject`: of one kind with
    the head (or with one of `heads`, the scope's own objects, when the subject is a word like 产品), or,
    as a second owner, of a possessed noun that is no place and not the outsider's own last word."""
    owned = possessed(subject, at)
    if owned:
        return not owned.endswith(_PLACES) and owned[-2:] != outsider[-2:]
    head = subject[:at].rstrip("，,")
    return any(same_kind(outsider, h) for h in (head, *heads))
