"""Documents and the injection context hash once: cache keys that do not walk the corpus on every lookup."""

from __future__ import annotations

import copy
import pickle
from dataclasses import replace

from injectors.context import InjectionContext
from parsers.model import Cell, Document, Section, Table


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


def test_a_section_hashes_once_and_keeps_its_table_lines_out_of_its_pickle() -> None:
    """Sections key the section-local checkers' memo (their tables hashed cell by cell on every lookup)
    and are asked for their table lines on every lint: both are kept on the section, neither is pickled
    (the work cache's keys are pickled bytes)."""
    table = Table(rows=((Cell("项目"), Cell("要求")), (Cell("温度"), Cell("≤ 40 ℃"))), columns=2, line=1)
    section = Section(
        "5.1", "要求", "应符合表1。\n项目 | 要求\n温度 | ≤ 40 ℃\n其余见附录A。", 2, "clause", tables=(table,)
    )
    unread = pickle.dumps(section)
    expected = hash(("5.1", "要求", section.text, 2, "clause", "", (table,)))  # provenance: compare=False
    assert hash(section) == expected and section.table_lines() == frozenset({1, 2})
    object.__setattr__(section, "text", "")  # only a test may do this: the kept values are what answer
    assert hash(section) == expected and section.table_lines() == frozenset({1, 2})
    assert pickle.dumps(pickle.loads(unread)) == unread
    for twin in (pickle.loads(pickle.dumps(section)), copy.deepcopy(section), copy.copy(section)):
        assert not {"_hash_once", "_table_lines"} & twin.__dict__.keys()
        assert twin.table_lines() == frozenset()  # its own text, read anew
    assert replace(pickle.loads(unread), text="应符合表1。").table_lines() == frozenset()
