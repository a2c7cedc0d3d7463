"""Injected corpus documents shared by the release tests, computed once per session, and ways to spoil them.

Injection takes about a second for the first document (lazy rule loading) and a quarter of a second per
document after that; the release, suite and instruction tests all start from the same three documents.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from pathlib import Path

import pytest

from corpus.stdsource import gold_document
from injectors.context import InjectionContext
from injectors.edit import Replacement, followed_renames, replay
from injectors.instance import ErrorInstance
from injectors.planner import InjectionResult, inject_document
from tests.conftest import corpus_sources
from tests.support.session_store import shared, shared_folder

SEED = 11


@functools.cache
def injected(n: int = 3, seed: int = SEED) -> tuple[InjectionResult, ...]:
    """The first `n` corpus documents (by file name) injected with a fixed seed (once per test session:
    every xdist worker reads the same results)."""
    return shared(f"injected-{n}-{seed}", lambda: _inject(n, seed))


SHARED_VERSION = "v0.0.9"


def shared_release(factory: pytest.TempPathFactory) -> Path:
    """`injected()` written as release v0.0.9 once per session for every module and worker that only reads
    a release (a test that changes it copies it first); returns the version folder."""

    def fill(root: Path) -> None:
        from release.config import BuildConfig
        from release.writer import write_release

        write_release(injected(), BuildConfig(seed=SEED, version=SHARED_VERSION), root)

    return shared_folder("shared-release", fill, factory.getbasetemp()) / SHARED_VERSION


def _inject(n: int, seed: int) -> tuple[InjectionResult, ...]:
    documents = [gold_document(p) for p in corpus_sources()[:n]]
    context = InjectionContext.from_documents(documents)
    return tuple(inject_document(d, seed, context) for d in documents)


def text_instance(result: InjectionResult, *, start_free: bool = False, skip: int = 0) -> ErrorInstance:
    """A modify instance that only replaces text (optionally none at offset 0), the `skip`-th such one."""
    found = [
        i
        for i in result.instances
        if i.edit.op == "modify"
        and i.edit.replacements
        and all(r.field == "text" for r in i.edit.replacements)
        and i.original_section is not None
        and i.original_section.text
        and not (start_free and any(r.start == 0 for r in i.edit.replacements))
    ]
    return found[skip]


def _swap(result: InjectionResult, old: ErrorInstance, new: ErrorInstance) -> InjectionResult:
    return replace(result, instances=tuple(new if i is old else i for i in result.instances))


def with_added_text(
    result: InjectionResult, instance: ErrorInstance, added: str, *, at_start: bool = False
) -> InjectionResult:
    """The instance's edit also writes `added` (as an LLM might), with a consistent corrupted section."""
    replacements = instance.edit.replacements
    if at_start:
        replacements = (Replacement("text", 0, "", added), *replacements)
    else:
        last = replacements[-1]
        replacements = (*replacements[:-1], replace(last, new=last.new + added))
    edit = replace(instance.edit, replacements=replacements)
    renames = [r for other in result.instances if other is not instance for r in other.edit.renames]
    followed = followed_renames(other.edit for other in result.instances if other is not instance)
    corrupted = replay(edit, instance.original_section, renames, followed)
    return _swap(result, instance, replace(instance, edit=edit, corrupted_section=corrupted))


def with_unreplayable(result: InjectionResult, instance: ErrorInstance) -> InjectionResult:
    """The stored corrupted section no longer follows from the edit (a bookkeeping bug)."""
    assert instance.corrupted_section is not None
    tampered = replace(
        instance.corrupted_section, text=instance.corrupted_section.text + "（多出的一句话。）"
    )
    return _swap(result, instance, replace(instance, corrupted_section=tampered))
