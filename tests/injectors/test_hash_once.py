"""Documents and the injection context hash once: cache keys that do not walk the corpus on every lookup."""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace

from injectors.context import InjectionContext
from parsers.model import Document, Section


def _document(title: str = "示例产品 技术要求") -> Document:
    sections = tuple(
        Section(str(n), f"要求{n}", f"产品应符合第{n}条的规定。", 1, "clause") for n in range(1, 30)
    )
    return Document("d1", "x.md", "markdown", "GB/T 1—2020", title, "GB/T 1.1—2020", sections)


def test_the_hash_is_the_field_hash_and_is_kept() -> None:
    document = _document()
    fields = (document.doc_id, document.source, document.format, document.standard_id, document.title)
    expected = hash((*fields, document.drafting_rules, document.sections))  # cover: compare=False
    assert hash(document) == expected
    object.__setattr__(document, "sections", ())  # only a test may do this: the kept hash is what answers
    assert hash(document) == expected


def test_equal_values_hash_alike_and_a_changed_copy_hashes_anew() -> None:
    a, b = _document(), _document()
    assert a == b and hash(a) == hash(b)
    changed = replace(a, title="另一个标题")
    assert changed != a and hash(changed) != hash(a)


def test_pickle_and_copy_do_not_carry_the_hash() -> None:
    """String hashes differ between processes, so a hash pickled in one would be wrong in another."""
    document = _document()
    context = InjectionContext.from_documents([document])
    hash(document), hash(context)
    for value in (document, context):
        for twin in (pickle.loads(pickle.dumps(value)), copy.deepcopy(value), copy.copy(value)):
            assert twin == value
            assert "_hash_once" not in pickle.loads(pickle.dumps(twin)).__dict__
    assert "_hash_once" not in pickle.loads(pickle.dumps(document)).__dict__
