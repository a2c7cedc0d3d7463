"""Parse-speed benchmark: our full parse of each file against pypdfium2's bare text extraction.

Usage: `python bench/parse.py [--cpu] [PATHS...]` (files or folders; default corpus/pdf, corpus/docx and
the real standards used in development when present). Each timing is the best of three runs, so a cold
cache or a busy neighbour does not decide the result; `--cpu` measures process CPU time instead of wall
time, for a machine shared with other jobs. The goal is a median ratio of at most 3 over the PDFs; the
exit code is 1 when it is missed.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import pypdfium2 as pdfium

from parsers.errors import ParseError
from parsers.model import Document

ROOT = Path(__file__).resolve().parents[1]

RUNS = 3
GOAL = 3.0
SUFFIXES = (".pdf", ".docx", ".md", ".markdown", ".txt")


def default_paths() -> list[Path]:
    """The project's corpus, plus the shared real standards when they are checked out next to it."""
    candidates = [ROOT / "corpus" / "pdf", ROOT / "corpus" / "docx", ROOT.parent / "shared" / "corpus-real"]
    return [p for p in candidates if p.exists()]


def expand(paths: Iterable[Path]) -> list[Path]:
    """Files given directly, plus the supported files found (sorted) under folders."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = (f for f in path.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES)
            out.extend(sorted(f for f in found if not _readme(f)))
        else:
            out.append(path)
    return out


def _readme(path: Path) -> bool:
    return path.stem.upper() == "README"


def parser() -> Callable[[Path], Document]:
    """The dispatcher when the project has one (what users run), else the PDF reader alone."""
    try:
        from parsers import parse_file
    except ImportError:
        from parsers.pdf import parse_pdf

        def parse_file(path: Path) -> Document:
            return parse_pdf(path, path.read_bytes())

    return parse_file


def best_of(
    run: Callable[[], object], runs: int = RUNS, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Fastest of `runs` timed calls: the least disturbed measurement."""
    times = []
    for _ in range(runs):
        start = clock()
        run()
        times.append(clock() - start)
    return min(times)


def raw_extraction(data: bytes) -> int:
    """pypdfium2's bare text extraction (open, then every page's get_text_range): the yardstick."""
    pdf = pdfium.PdfDocument(data)
    try:
        pages = len(pdf)
        for i in range(pages):
            page = pdf[i]
            textpage = page.get_textpage()
            textpage.get_text_range()
            textpage.close()
            page.close()
        return pages
    finally:
        pdf.close()


def label(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT.parent))
    except ValueError:
        return str(path)


def main(argv: list[str]) -> int:
    clock = time.perf_counter
    if "--cpu" in argv:
        argv = [a for a in argv if a != "--cpu"]
        clock = time.process_time
    paths = expand([Path(a) for a in argv] or default_paths())
    if not paths:
        print("no files to benchmark", file=sys.stderr)
        return 2
    parse = parser()
    ratios: list[float] = []
    width = max(len(label(p)) for p in paths)
    unit = "cpu s" if clock is time.process_time else "s"
    print(f"{'file':<{width}}  {'pages':>5}  {'parse ' + unit:>11}  {'raw ' + unit:>11}  {'ratio':>6}")
    for path in paths:
        name = label(path)
        try:
            parse(path)  # warm-up, and the error if the file is bad
        except ParseError as exc:
            print(f"{name:<{width}}  rejected: {exc.reason}")
            continue
        seconds = best_of(lambda path=path: parse(path), clock=clock)
        if path.suffix.lower() != ".pdf":
            print(f"{name:<{width}}  {'':>5}  {seconds:11.3f}")
            continue
        data = path.read_bytes()
        pages = raw_extraction(data)
        raw = best_of(lambda data=data: raw_extraction(data), clock=clock)
        ratio = seconds / raw if raw > 0 else float("inf")
        ratios.append(ratio)
        print(f"{name:<{width}}  {pages:5d}  {seconds:11.3f}  {raw:11.3f}  {ratio:6.2f}")
    if not ratios:
        return 0
    median = statistics.median(ratios)
    verdict = "ok" if median <= GOAL else "MISSED"
    print(f"median ratio over {len(ratios)} PDFs: {median:.2f} (goal ≤ {GOAL:g}: {verdict})", end="")
    print(f"; worst {max(ratios):.2f}")
    return 0 if median <= GOAL else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
