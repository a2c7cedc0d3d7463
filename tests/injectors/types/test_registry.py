"""A new error type is one module: dropped into a package, it reaches every part of the pipeline."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from injectors.checking import lint
from injectors.context import InjectionContext
from injectors.planner import candidate_instances, inject_document
from injectors.registry import RegistryError, definitions, including
from injectors.taxonomy import by_id, lookup, type_ids
from parsers.text import parse_text
from release.card import render_card
from release.config import BuildConfig
from release.hub_layout import hub_layout
from release.instructions import instruction_rows
from release.tables import build_tables
from tests.support.sample_standard import SAMPLE

# The toy type of docs/adding-a-type.md, the template a developer starts from: a row, a checker, an injector
# and the definition (read from the page, so that the page's code is the code this test runs).
TOY = (
    (Path(__file__).resolve().parents[3] / "docs" / "adding-a-type.md")
    .read_text(encoding="utf-8")
    .split("```python\n", 1)[1]
    .split("```", 1)[0]
)


@pytest.fixture
def toy_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    package = tmp_path / "toy_types"
    (package / "nms").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "nms" / "__init__.py").write_text("")
    (package / "nms" / "nms99_exclamation_mark.py").write_text(textwrap.dedent(TOY))
    monkeypatch.syspath_prepend(str(tmp_path))
    with including("toy_types"):
        yield "NMS-99"
    for name in [m for m in sys.modules if m.startswith("toy_types")]:
        del sys.modules[name]


def test_a_dropped_in_module_reaches_every_reader(toy_package: str, tmp_path: Path) -> None:
    # the taxonomy, in its dimension, after the built-in NMS types
    ids = type_ids()
    assert [t for t in ids if t.startswith("NMS-")][-1] == toy_package
    assert by_id()[ids[ids.index(toy_package) + 1]].dimension == "TER"
    assert by_id()[toy_package].name_zh == "条款以感叹号结尾" and lookup("E-T-99").id == toy_package
    # the linter runs its checker
    document = parse_text(Path("toy.txt"), SAMPLE.replace("无锈蚀。", "无锈蚀！", 1).encode())
    assert any(v.error_type == toy_package for v in lint(document))
    # the planner injects it
    clean = parse_text(Path("sample.txt"), SAMPLE.encode())
    context = InjectionContext.from_documents([clean])
    candidates = candidate_instances(clean, 0, context)
    assert any(i.error_type == toy_package for i in candidates.instances)
    # the instruction sets offer it as a choice
    result = inject_document(clean, 0, context)
    rows = instruction_rows([result], "error_type", "zero_shot")
    assert rows and all(toy_package in row["choices"] for row in rows)
    assert toy_package in rows[0]["query"]
    # the dataset card lists it
    tables = build_tables([result]).as_dict()
    layout = hub_layout(tmp_path, {name: table.num_rows for name, table in tables.items()}, [])
    card = render_card(version="v0.0.1", config=BuildConfig(), tables=tables, layout=layout)
    assert f"| {toy_package} | NMS | 条款以感叹号结尾 | GB/T 1.1—2020 9.1 | GB/T 1.1—2009 附录F |" in card
    assert f"{len(ids)} error types" in card


def test_without_the_package_nothing_of_it_remains() -> None:
    assert "NMS-99" not in type_ids()
    assert len(definitions()) == len(set(type_ids()))


def test_a_module_without_a_definition_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "broken_types"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "str98_nothing.py").write_text('"""No DEFINITION here."""\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    with including("broken_types"), pytest.raises(RegistryError, match="str98_nothing"):
        definitions()


# run in a fresh interpreter: a thread left by an earlier test in this process (Prefect's client, say) may
# draw from the global `random` while inject runs, which would fail this test for no fault of inject's
SEEDED_RNG_SCRIPT = """
import random
from pathlib import Path

from injectors.context import InjectionContext
from injectors.planner import inject_document
from parsers.text import parse_text
from tests.support.sample_standard import SAMPLE

random.seed(12345)
state = random.getstate()
clean = parse_text(Path("sample.txt"), SAMPLE.encode())
inject_document(clean, 3, InjectionContext.from_documents([clean]))
print("global random untouched" if random.getstate() == state else "global random moved")
"""


def test_seeded_rng_is_passed_in() -> None:
    # the toy above draws nothing; a real type must not use the global random module
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", SEEDED_RNG_SCRIPT],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "global random untouched"


def test_a_type_is_rewritten_by_the_llm_exactly_when_its_row_says_so() -> None:
    """The inject code (docs/taxonomy.md) and the LLMSpec are one fact: neither without the other."""
    for d in definitions():
        assert ("L" in d.error_type.inject) == (d.llm is not None), d.error_type.id
