"""What an instance writes that its document never says: the n-grams the audit counts as stock wording.

The planner's corpus-wide choice avoids a candidate whose added wording an earlier instance of its type
already used; it asks for every candidate in every balancing pass.
"""

from __future__ import annotations

from injectors.content_memo import ContentMemo
from injectors.instance import ErrorInstance
from injectors.language.novelty import document_ngrams, text_ngrams
from parsers.model import Document


def added_wording(instance: ErrorInstance, document: Document) -> frozenset[tuple[str, ...]]:
    """The word n-grams the instance's section has and its document never used (what the audit counts as
    stock wording when instances of a type share it). Kept by instance id: the corpus-wide choice asks
    for every candidate in every pass, and a document's n-grams cost a segmentation of the whole text."""
    section = instance.corrupted_section
    if section is None:
        return frozenset()
    return _ADDED.get(
        instance.instance_id,
        lambda: (text_ngrams(section.title or "") | text_ngrams(section.text)) - document_ngrams(document),
    )


_ADDED: ContentMemo[str, frozenset[tuple[str, ...]]] = ContentMemo(1 << 16)
