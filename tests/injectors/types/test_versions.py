"""A type's version changes whenever its candidates on the project's corpus change (`injectors.versions`)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from injectors.registry import definitions
from injectors.versions import TypeVersion, compare, digests, main, record
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


def test_the_command_names_the_changed_types_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On another corpus (one standard of the project's) the candidates differ: it says which and how to
    record them, and writes nothing without --write."""
    source = sorted((Path(__file__).resolve().parents[3] / "corpus" / "sources").glob("*.std"))[0]
    (tmp_path / source.name).write_bytes(source.read_bytes())
    modules = sorted((Path(__file__).resolve().parents[3] / "injectors" / "types").rglob("*.py"))
    before = [m.read_bytes() for m in modules]
    assert main(["--corpus", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "candidates changed: " in err and "python -m injectors.versions --write" in err
    assert [m.read_bytes() for m in modules] == before


def test_the_command_refuses_a_folder_without_sources(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--corpus", str(tmp_path)]) == 2
    assert f"{tmp_path}: no .std source here" in capsys.readouterr().err
