"""What in a document makes a changed modal verb detectable, for NMS-01 (应 → 宜) and NMS-02 (宜 → 应).

A modal verb changed on an ordinary clause reads as a plausible provision: nobody given only the corrupted
document could tell. A change is detectable when the document itself says how strong the provision must be.
This module holds what every kind of such evidence shares: the `Evidence` value (its kind, the document's
own words, where they stand) and how a description names it (`named`). Each kind is found by a module of
its own:

- `evidence_inspection`: the inspection rules or a test method name the clause (INSPECTION, TEST_METHOD);
- `evidence_limits`: the clause carries a limit value or a safety purpose (LIMIT, SAFETY);
- `evidence_options`: for a recommendation, its own clause offers an alternative, hedges it, or says what
  applies when it is not followed (ALTERNATIVE, HEDGE, FALLBACK, PRESUPPOSED);
- `evidence_siblings`: a sibling of the same list or sentence keeps the modal verb for the same provision
  (SIBLING);
- `evidence_restatement`: the document states the same provision again elsewhere (RESTATED);
- `evidence_lead_in`: a lead-in binds every item of its list as a requirement (LEAD_IN);
- `evidence_default`: the document gives a default for what a permission lets one set (DEFAULT);
- `evidence_commentary`: the document's explanation of the clause (条文说明) recommends it (COMMENTARY);
- `evidence_declared`: a table or a sentence marks the clause's object optional or mandatory (DECLARED).

`evidence_finding` asks them in order, strongest first; a site without evidence is no site.
"""

from __future__ import annotations

from dataclasses import dataclass

FALLBACK = "fallback"
PRESUPPOSED = "presupposed"
INSPECTION, TEST_METHOD, LIMIT, SAFETY, SIBLING, ALTERNATIVE, HEDGE, RESTATED, DEFAULT, COMMENTARY = (
    "inspection",
    "test_method",
    "limit",
    "safety",
    "sibling",
    "alternative",
    "hedge",
    "restated",
    "default",
    "commentary",
)
LEAD_IN = "lead_in"
DECLARED = "declared"


@dataclass(frozen=True)
class Evidence:
    """Why a change of this modal verb is detectable: a kind, the document's own words, where they stand."""

    kind: str
    words: str
    where: str  # 本条, 第7.2条, 附录A …
    mark: str = ""  # for DECLARED from a table: the cell that marks the item (可选, O, 否 …)


def _named_declaration(evidence: Evidence, force_kept: str) -> str:
    what = "该项必须提供，弱化后" if force_kept == "要求" else "该项本可不提供，强化为要求后"
    if evidence.mark:
        return f"{evidence.where}将“{evidence.words}”标为“{evidence.mark}”，{what}与表中的标注矛盾"
    return f"{evidence.where}称“{evidence.words}”，{what}与之矛盾"


def named(evidence: Evidence, force_kept: str = "") -> str:
    """The clause of a description that shows the reviewer where the document reveals the change."""
    w, where = evidence.words, evidence.where
    if evidence.kind == INSPECTION:
        return f"{where}把该条列为检验项目（“{w}”），检验据此判定合格与否，该条必须是要求"
    if evidence.kind == TEST_METHOD:
        return f"{where}规定了检验该条的试验（“{w}”），试验方法以该条为必须满足的要求"
    if evidence.kind == LIMIT:
        return f"该条给出的限值“{w}”是判定合格与否的界限，只能是要求"
    if evidence.kind == SAFETY:
        return f"该条的目的是“{w}”，涉及安全的规定必须是要求"
    if evidence.kind == ALTERNATIVE:
        return f"同一句随后以“{w}”给出其他做法，说明该做法本是可选的，强化后前后矛盾"
    if evidence.kind == FALLBACK:
        return f"该条随后规定了“{w}”的做法，说明本条允许例外，强化为要求后前后矛盾"
    if evidence.kind == PRESUPPOSED:
        return f"该条随后以“{w}”为条件另作规定，说明该做法本可不采用，强化为要求后该条件失去意义"
    if evidence.kind == HEDGE:
        return f"句中“{w}”表明这只是推荐，与要求相矛盾"
    if evidence.kind == DEFAULT:
        return f"{where}给出了“{w}”，既有缺省值，该项本可不另行设定，强化为要求后前后矛盾"
    if evidence.kind == LEAD_IN:
        return f"{where}以“{w}”引出所列各项，各项都是要求，该项却被单独弱化，与引导语矛盾"
    if evidence.kind == COMMENTARY:
        return f"{where}对本条的说明称“{w}”，该做法本是{force_kept}，强化为要求后与说明矛盾"
    if evidence.kind == DECLARED:
        return _named_declaration(evidence, force_kept)
    if evidence.kind == RESTATED:
        return f"{where}对同一事项的相同规定“{w}”仍为{force_kept}，两处规定前后矛盾"
    if where == "同一句":
        return f"同一句中并列的“{w}”仍为{force_kept}，该项却被单独改变"
    return f"同一列项中的“{w}”仍为{force_kept}，与之并列的该项却被单独改变"
