"""A large benchmark corpus varied from a few sources, written at run time (never stored in the project).

`bench/build.py` needs hundreds of standards; the project has twelve (plus the real standards next to the
checkout, when present). Each source is parsed once and rewritten many times as plain text, each variant
a genuinely different document for the pipeline: another standard number and year, a prefixed title,
perturbed measured values, and the items of each list in another order. A variant therefore has its own
bytes and its own standard id and version, so the build's duplicate check keeps it.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import regex

from parsers import parse_file
from parsers.errors import ParseError
from parsers.model import Document, Section
from parsers.render import render_text

ROOT = Path(__file__).resolve().parents[1]
SUFFIXES = (".pdf", ".docx", ".md", ".txt")

# "GB/T 93101—2024": prefix, number (with parts), dash, year
_STANDARD_ID = regex.compile(
    r"^(?P<prefix>[A-Z/ ]+?)\s*(?P<number>\d+(?:\.\d+)*)\s*(?P<dash>[—–\-－])\s*(?P<year>\d{4})$"
)
# a measured value: a number directly before a unit (never a clause, figure or standard number)
_VALUE = regex.compile(
    r"(?<![\d.:/—\-A-Za-z])(\d{1,4})(?=\s?(?:℃|°C|%|mm|cm|km|m|kg|g|kPa|MPa|Pa|V|mA|A|kW|W|Hz|dB|lx|min|h|s|d"
    r"|个|次|台|天|小时|分钟|秒|年|月|周|米|千克|伏))"
)
# the items of a list: "a) …", "b) …" or "——…" lines
_ITEM = regex.compile(r"^(?:[a-z]\)|——)")
_LETTER = regex.compile(r"^[a-z]\)\s*")
_TITLE_PREFIXES = (
    "",
    "通用",
    "在用",
    "新建",
    "改造",
    "智能",
    "小型",
    "大型",
    "便携式",
    "固定式",
    "户外",
    "室内",
)


def source_files(include_real: bool = True) -> list[Path]:
    """The project's own standards (one format each) and, when checked out next to the project, the real
    standards used in development (the shared folder beside the checkout)."""
    files = sorted((ROOT / "corpus" / "pdf").glob("*.pdf"))
    real = ROOT.parent / "shared" / "corpus-real"
    if include_real and real.is_dir():
        found = (f for f in real.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES)
        files.extend(sorted(f for f in found if f.stem.upper() != "README" and "bad" not in f.parts))
    return files


def parse_sources(files: Iterable[Path]) -> list[Document]:
    """The sources that parse and carry a standard id (a variant needs one to be told apart)."""
    documents = []
    for path in files:
        try:
            document = parse_file(path)
        except ParseError:
            continue
        if document.sections and _STANDARD_ID.match(document.standard_id or ""):
            documents.append(document)
    return documents


def _vary_list(lines: list[str], rng: random.Random) -> list[str]:
    """Each run of list items shuffled; lettered items keep their letters in order."""
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if len(run) > 1:
            letters = [m.group(0) if (m := _LETTER.match(item)) else "" for item in run]
            bodies = [item[len(letter) :] for item, letter in zip(run, letters, strict=True)]
            rng.shuffle(bodies)
            run[:] = [letter + body for letter, body in zip(letters, bodies, strict=True)]
        out.extend(run)
        run.clear()

    for line in lines:
        if _ITEM.match(line):
            run.append(line)
        else:
            flush()
            out.append(line)
    flush()
    return out


def _vary_section(section: Section, rng: random.Random) -> Section:
    if section.kind in ("normative_references", "bibliography", "foreword"):
        return section  # cited documents and the drafting-rules sentence stay as they are
    text = _VALUE.sub(lambda m: str(max(1, int(m.group(1)) + rng.choice((-2, -1, 1, 2, 3)))), section.text)
    text = "\n".join(_vary_list(text.split("\n"), rng))
    return replace(section, text=text)


def variant(document: Document, index: int, seed: int = 0) -> str:
    """The text of variant `index` of `document`: its own standard number, year, title and values."""
    rng = random.Random(f"{seed}:{document.doc_id}:{index}")
    m = _STANDARD_ID.match(document.standard_id)
    assert m is not None  # parse_sources keeps only documents with a well-formed id
    number = f"{m['number'].split('.')[0]}.{index + 1}"  # a part number: the readers know that form
    year = 2005 + rng.randrange(20) if index else int(m["year"])
    standard_id = f"{m['prefix'].strip()} {number}{m['dash']}{year}"
    prefix = _TITLE_PREFIXES[index % len(_TITLE_PREFIXES)]
    title = f"{prefix}{document.title}" if prefix else document.title
    sections = tuple(_vary_section(s, rng) for s in document.sections) if index else document.sections
    return render_text(replace(document, standard_id=standard_id, title=title, sections=sections))


def write_corpus(folder: Path, count: int, sources: list[Document], seed: int = 0) -> list[Path]:
    """`count` variants, round-robin over the sources, as `<folder>/<nnnn>-<source>.txt`."""
    if not sources:
        raise ValueError("no source standard could be parsed")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for n in range(count):
        document = sources[n % len(sources)]
        path = folder / f"{n:04d}-{Path(document.source).stem[:40]}.txt"
        path.write_text(variant(document, n // len(sources), seed), encoding="utf-8")
        written.append(path)
    return written
