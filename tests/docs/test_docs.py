"""The project's own docs: each row of docs/taxonomy.md says what its type's module says.

The docs are what a user who clones the project reads, so a type added, renamed or re-graded in the
code without its row in docs/taxonomy.md fails here, row by row; no page states how many types there are or
names a type that does not exist; and no project file points outside the repository for its reference
material.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from injectors.taxonomy import DIMENSIONS, REFERENCE_DIMENSIONS, by_id, type_ids, types

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
TYPE_ID = re.compile(r"^(?:STR|SCP|NMS|TER|NREF)-\d\d$")


def _rows(markdown: str) -> list[list[str]]:
    """Cells of every table row in a Markdown text (header and separator rows included)."""
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in markdown.splitlines()
        if line.lstrip().startswith("|")
    ]


def _type_rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for cells in _rows((DOCS / "taxonomy.md").read_text(encoding="utf-8")):
        if TYPE_ID.match(cells[0]):
            assert len(cells) == 8, f"{cells[0]}: a row of docs/taxonomy.md has 8 cells"
            assert cells[0] not in rows, f"{cells[0]} is described twice in docs/taxonomy.md"
            rows[cells[0]] = cells
    return rows


def test_every_type_is_described_once_with_the_code_s_names_clause_kinds_and_codes() -> None:
    rows = _type_rows()
    assert set(rows) == set(type_ids()), "docs/taxonomy.md has a row for each registered type, and no other"
    for spec in types():
        _, names, what, clause_2020, clause_2009, inject, check, reference = rows[spec.id]
        assert names == f"{spec.name_zh} / {spec.name_en}", spec.id
        assert clause_2020 == spec.clause_cell("GB/T 1.1—2020"), spec.id
        assert clause_2009 == spec.clause_cell("GB/T 1.1—2009"), spec.id  # both editions, always
        assert (inject, check) == (spec.inject, spec.check), spec.id
        assert reference == (", ".join(spec.reference_codes) or "—"), spec.id
        assert len(what) > 40, f"{spec.id}: the description is needed"


def test_the_types_are_listed_under_their_dimension() -> None:
    text = (DOCS / "taxonomy.md").read_text(encoding="utf-8")
    heading = ""
    for line in text.splitlines():
        if line.startswith("### "):
            heading = line.removeprefix("### ").split(" ")[0]
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if TYPE_ID.match(cells[0]):
            assert heading == by_id()[cells[0]].dimension, f"{cells[0]} is listed under {heading}"


def test_dimensions_and_their_reference_codes_match_the_code() -> None:
    text = (DOCS / "taxonomy.md").read_text(encoding="utf-8")
    table = {cells[0]: cells for cells in _rows(text) if cells[0] in DIMENSIONS}
    ours_by_reference = {ours: theirs for theirs, ours in REFERENCE_DIMENSIONS.items()}
    assert set(table) == set(DIMENSIONS)
    for code, (zh, en) in DIMENSIONS.items():
        assert table[code][1:3] == [zh, en], code
        assert table[code][-1] == ours_by_reference[code], code


def _prose() -> dict[str, str]:
    return {
        str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
        for p in [ROOT / "README.md", *DOCS.glob("*.md")]
    }


def test_no_page_states_the_number_of_types() -> None:
    """The tables say how many types there are; a count in a sentence would go stale with the next type."""
    count = re.compile(
        r"(?<![\d.])\d+\s*(?:\*\*)?\s*(?:error\s+)?types\b|二十五|\d+\s*(?:个|种)(?:错误)?类型"
    )
    stated = {name: count.findall(" ".join(text.split())) for name, text in _prose().items()}
    assert {name: found for name, found in stated.items() if found} == {}


def test_the_type_ids_the_pages_name_are_registered() -> None:
    """A page may name a type as an example; a type it names exists (the template's toy type excepted)."""
    known = set(type_ids())
    named = {
        (name, found)
        for name, text in _prose().items()
        if name != "docs/adding-a-type.md"
        for found in re.findall(r"\b(?:STR|SCP|NMS|TER|NREF)-\d\d\b", text)
    }
    assert {(name, t) for name, t in named if t not in known} == set()


def test_project_files_point_at_docs_not_outside_the_repository() -> None:
    """Only tests may name the development folder of real standards (and they skip when it is absent)."""
    skipped = {".git", ".venv", "outputs", "tests", "build", "dist", "__pycache__"}
    suffixes = {".py", ".md", ".toml", ".yaml", ".yml", ".cfg", ".txt"}
    offenders = []
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in skipped and not d.endswith(".egg-info")]
        for name in files:
            path = Path(folder) / name
            readable = path.suffix in suffixes or name == "Makefile"
            if readable and "../shared/" in path.read_text(encoding="utf-8", errors="replace"):
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


def test_docs_links_resolve() -> None:
    for page in [ROOT / "README.md", *DOCS.glob("*.md")]:
        for target in re.findall(r"\]\(([^)#:]+)\)", page.read_text(encoding="utf-8")):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_the_readme_s_python_snippets_run_as_written(tmp_path: Path) -> None:
    """A user pastes a snippet from the README: it must run as it stands, imports included, from a folder
    holding a corpus (the snippets use the paths `make build` uses). The corpus is the project's, cut to
    two documents in its own layout: what is checked is the snippet, and a build of the whole corpus is
    the build tests' work."""
    import subprocess
    import sys

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippets = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert snippets, "the README shows no Python snippet"
    corpus = tmp_path / "corpus"
    for folder in ("sources", "pdf"):
        (corpus / folder).mkdir(parents=True)
    (corpus / "manifest").symlink_to(ROOT / "corpus" / "manifest")  # still the project's own corpus
    for source in sorted((ROOT / "corpus" / "sources").glob("*.std"))[:2]:
        (corpus / "sources" / source.name).symlink_to(source)
        (corpus / "pdf" / f"{source.stem}.pdf").symlink_to(ROOT / "corpus" / "pdf" / f"{source.stem}.pdf")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for snippet in snippets:
        result = subprocess.run(
            [sys.executable, "-c", snippet],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, f"README snippet failed:\n{snippet}\n{result.stderr[-2000:]}"
