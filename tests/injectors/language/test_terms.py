"""Tests of injectors.language.terms: the modal verbs the terminology checks read."""

from __future__ import annotations

from injectors.language.terms import modal_verbs


def test_modal_verb_finder_guards_compounds() -> None:
    assert [w for _, w in modal_verbs("装置应在响应后适宜地供应电源，可能可靠，可用性")] == ["应"]
    # 可选用 is 可 + 选用 ("may choose"): a permission, as every dimension reads it; 可选 alone is not
    assert [w for _, w in modal_verbs("宜采用，可选用")] == ["宜", "可"]
    assert [w for _, w in modal_verbs("可选的配件")] == []
    assert [w for _, w in modal_verbs("可采用")] == ["可"]
