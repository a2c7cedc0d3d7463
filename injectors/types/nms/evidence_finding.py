"""The evidence NMS-01 and NMS-02 look for, asked of every kind in one order, strongest first: the first
item is the one a description names, and an empty list means the changed clause would go unnoticed.
"""

from __future__ import annotations

from injectors.language.modals import PERMISSION, RECOMMENDATION, REQUIREMENT, Modal
from injectors.types.nms.evidence import Evidence
from injectors.types.nms.evidence_commentary import commentary
from injectors.types.nms.evidence_declared import declared
from injectors.types.nms.evidence_default import default_value
from injectors.types.nms.evidence_inspection import referenced_by
from injectors.types.nms.evidence_lead_in import lead_in
from injectors.types.nms.evidence_limits import limit_value, safety_consequence
from injectors.types.nms.evidence_options import clause_options
from injectors.types.nms.evidence_restatement import restatement
from injectors.types.nms.evidence_siblings import list_siblings, sentence_siblings
from parsers.model import Document


def requirement_evidence(
    document: Document, position: int, line_offset: int, line: str, modal: Modal
) -> list[Evidence]:
    """Why 应 must stay 应 here (NMS-01), strongest first; empty when a weakened clause would go unnoticed."""
    section = document.sections[position]
    return (
        referenced_by(document, position)
        + limit_value(line, modal)
        + safety_consequence(line, modal)
        + list_siblings(section, line_offset, REQUIREMENT, modal)
        + sentence_siblings(line, modal, same_actor=True)
        + restatement(document, position, line, modal, later=False)
        + lead_in(document, position, line, modal)
        + declared(document, position, line, modal, mandatory=True)
    )


def recommendation_evidence(
    document: Document, position: int, line_offset: int, line: str, modal: Modal
) -> list[Evidence]:
    """Why 宜/可 must stay optional here (NMS-02): an alternative or a hedge in its own sentence, or list
    siblings that keep the recommendation; empty when a strengthened clause would read as plausible."""
    section = document.sections[position]
    out = clause_options(section, line_offset, line, modal)
    force = modal.force if modal.force in (RECOMMENDATION, PERMISSION) else RECOMMENDATION
    # siblings count only where they bind the same actor to the same object: two different recommendations
    # in one sentence or list ("宜使用…，分类宜采用…", "下级平台应…，上级平台可以…") are common, and
    # strengthening one of them is plausible
    parallel = sentence_siblings(line, modal, same_verb=True, same_actor=True)
    restated = restatement(document, position, line, modal, later=True)
    defaults = default_value(document, position, line, modal)
    explained = commentary(document, position, line, modal)
    siblings = list_siblings(section, line_offset, force, modal)
    marked = declared(document, position, line, modal, mandatory=False)
    return out + siblings + parallel + restated + defaults + explained + marked
