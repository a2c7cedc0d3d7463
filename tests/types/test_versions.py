"""A type's version changes whenever its candidates on the project's corpus change (`injectors.versions`)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from injectors.registry import definitions
from injectors.versions import TypeVersion, compare, digests, record
from parsers.model import Document


def test_every_type_records_the_digest_of_its_candidates_on_the_corpus(
    corpus_documents: list[Document],
) -> None:
    stale = [row for row in compare(corpus_documents) if row.changed]
    assert not stale, "\n".join(
        f"{row.error_type}: its candidates on corpus/ changed (digest {row.current}, recorded "
        f"{row.recorded or 'none'}) but its version is still {row.version}: run "
        f"`python -m injectors.versions --write`, which records the digest and bumps the version"
        for row in stale
    )


def test_the_digest_is_the_type_s_own_output(corpus_documents: list[Document]) -> None:
    """One document fewer changes the digest of the types that had candidates there, not the others'."""
    some = [d.error_type.id for d in definitions()][:3]
    whole = digests(corpus_documents, some)
    assert whole == digests(list(reversed(corpus_documents)), some)
    assert whole != digests(corpus_documents[1:], some)


def test_the_next_version_is_bumped_only_when_a_recorded_digest_changed() -> None:
    assert TypeVersion("NMS-04", "2", "a" * 16, "b" * 16).next_version == "3"
    assert TypeVersion("NMS-04", "2", "a" * 16, "a" * 16).next_version == "2"
    assert TypeVersion("NMS-06", "1", "", "b" * 16).next_version == "1"  # a new type records its first


def test_recording_rewrites_the_injector_s_class_body(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "recorded_toy.py"
    module.write_text(
        textwrap.dedent(
            '''
            class Before:
                version = "9"


            class Toy:
                """A toy."""

                error_type = "NMS-98"
                forms = ("a",)

                def sites(self) -> None:
                    version = "not a field"
            '''
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    import recorded_toy

    try:
        record(recorded_toy.Toy, "1", "0" * 16)
        record(recorded_toy.Toy, "2", "f" * 16)  # a second time replaces, never repeats
    finally:
        del sys.modules["recorded_toy"]
    text = module.read_text()
    assert '    error_type = "NMS-98"\n    version = "2"\n    digest = "ffffffffffffffff"\n    forms' in text
    assert text.count("version =") == 3 and text.count("digest =") == 1
    assert 'class Before:\n    version = "9"' in text
