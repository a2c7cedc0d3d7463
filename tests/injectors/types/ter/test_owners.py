"""Tests of injectors.types.ter.owners: each undefined term TER-01 may write goes to one document of the
release, never to the one that defines it, so that no two documents share it."""

from __future__ import annotations

from dataclasses import replace

from injectors.context import InjectionContext
from injectors.types.ter.owners import may_write, term_owners
from tests.injectors.types.ter.ter_documents import document

SAMPLER = replace(document(), doc_id="a")  # defines 采样单元 and 标定周期
SENSOR = replace(document(terms="3.1 流量传感器 flow sensor\n测量采样单元中试样流量的传感器。"), doc_id="b")
LOCK = replace(document(terms="3.1 门锁 door lock\n柜门上的锁具。"), doc_id="c")


def test_a_defined_term_goes_to_the_other_document_whose_words_it_shares() -> None:
    context = InjectionContext.from_documents([SAMPLER, SENSOR, LOCK])
    owners = term_owners(context)
    assert owners["采样单元"] == "b"  # the sensor's definition speaks of 采样单元; the lock's does not
    defined = {t.entry.term: t.doc_id for t in context.terms}
    assert defined and all(owners[term] != doc for term, doc in defined.items())


def test_only_the_owner_may_write_a_term_the_release_knows() -> None:
    context = InjectionContext.from_documents([SAMPLER, SENSOR, LOCK])
    assert may_write(context, "b", "采样单元")
    assert not may_write(context, "c", "采样单元")
    assert may_write(context, "c", "气体分析单元")  # a term the context does not know: anyone
    assert may_write(InjectionContext(), "c", "采样单元")  # a document injected on its own
