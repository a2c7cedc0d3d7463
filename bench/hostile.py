"""Parse time and peak memory on hostile inputs: huge PDFs, pages of many lines or objects, Markdown lines
full of `*` or a million headings, a large DOCX, paths that are not files, and raw model output that
nests without end.

    python -m bench.hostile [--no-limits] [--only pdf-pages,pdf-lines,...] [--timeout SECONDS]

Each case is generated (tests/support/hostile_files.py), then read in a fresh process (so its peak RSS is its
own) the way the commands read it: a standard through `parse_with_deadline` (the parse worker's memory counts
too), a predictions file through `read_predictions`; with the default limits, or with the size limits lifted
(`--no-limits`, to see how time grows with the input). CPU seconds are shown beside wall seconds, which a busy
machine inflates. The goal: at most 10 s and 1 GiB for each largest case, or a refusal within that."""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from tests.support.hostile_files import (  # the fixtures live with the tests
    docx_paragraphs,
    markdown_headings,
    markdown_stars,
    pdf_pages,
    pdf_path_objects,
    pdf_tall_page,
    pdf_text_objects,
    raw_brackets,
)

Make = Callable[[int, Path], Path]


def written(generate: Callable[[int], bytes]) -> Make:
    def make(n: int, path: Path) -> Path:
        path.write_bytes(generate(n))
        return path

    return make


def fifo(_: int, path: Path) -> Path:
    os.mkfifo(path)
    return path


def dev_zero(_: int, path: Path) -> Path:
    path.symlink_to("/dev/zero")
    return path


CASES: dict[str, list[tuple[int, str, Make, str]]] = {
    "pdf-pages": [(n, f"{n:,} pages", written(pdf_pages), ".pdf") for n in (1_000, 10_000, 100_000)],
    "pdf-lines": [
        (n, f"1 page, {n:,} lines", written(pdf_tall_page), ".pdf") for n in (1_000, 10_000, 100_000)
    ],
    "pdf-text": [(7_500_000, "7.5 M text objects", written(pdf_text_objects), ".pdf")],
    "pdf-paths": [(2_500_000, "2.5 M path objects", written(pdf_path_objects), ".pdf")],
    "md-line": [
        (n, label, written(markdown_stars), ".md")
        for n, label in (
            (10_000, "line of 10 KB"),
            (1_000_000, "line of 1 MB"),
            (50_000_000, "line of 50 MB"),
        )
    ],
    "md-headings": [(1_000_000, "10^6 headings", written(markdown_headings), ".md")],
    "docx-large": [(n, f"{n} MB of XML", written(docx_paragraphs), ".docx") for n in (30, 150)],
    "special": [(0, "/dev/zero as .txt", dev_zero, ".txt"), (0, "a FIFO as .md", fifo, ".md")],
    "raw-output": [(1_000_000, "1 MB of '[x '", written(raw_brackets), ".jsonl")],
}
TIMEOUT_S = 600.0


def one(path: str, no_limits: bool) -> None:
    """Child process: read one file, print seconds, peak RSS (with its workers') and the outcome as JSON."""
    from parsers.deadline import parse_with_deadline
    from parsers.errors import ParseError
    from parsers.limits import DEFAULT_LIMITS

    limits = DEFAULT_LIMITS
    if no_limits:
        big = 10**12
        limits = replace(
            limits,
            max_pages=big,
            max_line_chars=big,
            max_lines=big,
            max_paragraph_chars=big,
            max_page_chars=big,
            max_page_objects=big,
            max_page_paths=big,
            max_memory=big,
        )
    started = time.perf_counter()
    cpu = time.process_time()
    if path.endswith(".jsonl"):
        from evaluation.predictions import PredictionsError, read_predictions

        try:
            found = read_predictions(path)
            outcome = f"read: {len(found)} documents, {sum(p.unparsable for p in found)} unparsable"
        except PredictionsError as exc:
            outcome = f"refused: {exc}"
    else:
        try:
            document = parse_with_deadline(path, limits)
            outcome = f"parsed: {len(document.sections)} sections"
        except ParseError as exc:
            outcome = f"{type(exc).__name__}: {exc.reason}"
    seconds = time.perf_counter() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = time.process_time() - cpu + children.ru_utime + children.ru_stime  # the parse worker's too
    own = _own_peak_kb()
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(
        json.dumps({"seconds": seconds, "cpu": cpu, "rss_mb": max(own, workers) / 1024, "outcome": outcome})
    )


def _own_peak_kb() -> int:
    """This process's peak RSS since it started (VmHWM): its ru_maxrss would carry the peak of the bench
    process it was forked from, which generated the large files."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-limits", action="store_true", help="lift the size limits (not the time limit)")
    parser.add_argument("--only", default=",".join(CASES), help="comma-separated case groups")
    parser.add_argument("--timeout", type=float, default=TIMEOUT_S, help="seconds per case (default 600)")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.one, args.no_limits)
        return
    print(f"limits: {'size limits lifted' if args.no_limits else 'defaults'}")
    print(f"{'case':<24} {'file MB':>9} {'read s':>9} {'CPU s':>7} {'peak RSS MB':>12}  outcome")
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    with tempfile.TemporaryDirectory(prefix="gbtbench-hostile-") as tmp:
        for group in args.only.split(","):
            for n, label, make, suffix in CASES[group]:
                path = make(n, Path(tmp) / f"{group}-{n}{suffix}")
                size = path.stat().st_size / 1e6 if path.is_file() else 0.0
                command = [sys.executable, __file__, "--one", str(path)]
                if args.no_limits:
                    command.append("--no-limits")
                try:
                    done = subprocess.run(
                        command, capture_output=True, text=True, timeout=args.timeout, cwd=root, env=env
                    )
                    result = json.loads(done.stdout.strip().splitlines()[-1])
                    row = (
                        f"{result['seconds']:>9.2f} {result['cpu']:>7.2f} {result['rss_mb']:>12.0f}  "
                        f"{result['outcome'][:90]}"
                    )
                except subprocess.TimeoutExpired:
                    row = f"{'>' + str(int(args.timeout)):>9} {'':>7} {'':>12}  still running: stopped"
                except (IndexError, ValueError):
                    row = f"{'':>9} {'':>7} {'':>12}  crashed: {done.stderr.strip().splitlines()[-1:]}"
                print(f"{label:<24} {size:>9.2f} {row}", flush=True)
                path.unlink()


if __name__ == "__main__":
    main()
