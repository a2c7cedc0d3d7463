"""Instances record which of their type's forms they take, and a release keeps it."""

from __future__ import annotations

from injectors.instance import InjectionProvenance
from release.structs import provenance_row


def test_release_row_keeps_the_form() -> None:
    row = provenance_row(InjectionProvenance("rule", "1", 0, form="前言"))
    assert row["form"] == "前言"
    assert provenance_row(InjectionProvenance("rule", "1", 0))["form"] is None
