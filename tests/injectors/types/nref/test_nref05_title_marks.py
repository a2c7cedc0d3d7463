"""NREF-05's title-marks form: an entry of the normative references list is "number␣title", and a title
copied from a sentence that cites it keeps its 《》 (a slip drafters make); the checker finds the marks on
the list alone, and the edit marks one Chinese title."""

from __future__ import annotations

import random

from injectors.checking import Baseline
from injectors.context import InjectionContext
from injectors.types.nref.nref05_citation_form_error import CitationFormError
from tests.injectors.types.nref.nref_documents import CLEAN_BODY, CLEAN_REFERENCES, found, standard


def test_a_marked_title_in_the_list_is_found_and_a_plain_one_is_not() -> None:
    clean = standard(CLEAN_REFERENCES, CLEAN_BODY)
    assert found(clean, "NREF-05") == []
    marked = standard(CLEAN_REFERENCES.replace("环境试验　低温", "《环境试验　低温》"), CLEAN_BODY)
    (violation,) = found(marked, "NREF-05")
    assert violation[0] == "2" and "《环境试验　低温》" in violation[1], violation


def test_the_edit_marks_one_chinese_title_and_names_the_fix() -> None:
    doc = standard(CLEAN_REFERENCES, CLEAN_BODY)
    context = InjectionContext.from_documents([doc])
    injector = CitationFormError()
    sites = [s for s in injector.sites(doc, context) if s.detail[0] == "title-marks"]
    # the ISO entry's English title is left alone: 《》 belong to Chinese titles
    assert sorted(s.detail[1].cited.ident for s in sites) == ["GB 4208", "GB/T 2423.1"]
    for site in sites:
        proposal = injector.propose(doc, site, random.Random(0), context)
        assert proposal is not None
        instance, failure = injector._verified(Baseline(doc), proposal, 0)
        assert instance is not None, failure
        assert instance.provenance.form == "title-marks" and instance.location == "2"
        title = site.detail[1].title
        corrupted = instance.corrupted_section
        assert corrupted is not None
        assert f"《{title}》" in corrupted.text and corrupted.text.count("《") == 1
        assert f"写为“{site.detail[1].cited.ident}" in instance.description, instance.description
        assert "依据：GB/T 1.1—2020 8.6" in instance.description, instance.description


def test_no_site_on_a_title_already_marked() -> None:
    doc = standard(CLEAN_REFERENCES.replace("环境试验　低温", "《环境试验　低温》"), CLEAN_BODY)
    sites = [s for s in CitationFormError().sites(doc, InjectionContext()) if s.detail[0] == "title-marks"]
    assert sites == []
