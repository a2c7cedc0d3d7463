"""Evidence in a requirement's own words that it cannot be a recommendation: a limit value (不大于 5 mm,
≤ 0.5 ℃, 30 min 内 …), which decides pass or fail, or a safety purpose (防止触电 …).
"""

from __future__ import annotations

import regex

from injectors.language.modals import Modal, lexicon, sentence_span
from injectors.types.nms.evidence import LIMIT, SAFETY, Evidence
from injectors.types.nms.provision_parts import provision_after

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


def limit_value(line: str, modal: Modal) -> list[Evidence]:
    """A limit value in the provision the modal verb makes (数值 + 单位, 不大于/不少于/≤ …)."""
    rest = provision_after(line, modal)
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
