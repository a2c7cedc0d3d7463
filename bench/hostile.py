"""Parse time and peak memory on hostile inputs: huge PDFs, pages of many lines, Markdown lines full of `*`.

    python -m bench.hostile [--no-limits] [--only pdf-pages,pdf-lines,md-line] [--timeout SECONDS]

Each case is generated (tests/hostile_files.py), then parsed in a fresh process (so its peak RSS is its
own) with the default parse limits, or with the size limits lifted (`--no-limits`, to see how time grows
with the input). CPU seconds are shown beside wall seconds, which a busy machine inflates. The goal:
linear growth, and at most 10 s for each largest case, or a refusal within that time.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from tests.hostile_files import markdown_stars, pdf_pages, pdf_tall_page

CASES = {
    "pdf-pages": [(n, f"{n:,} pages", lambda n: pdf_pages(n), ".pdf") for n in (1_000, 10_000, 100_000)],
    "pdf-lines": [
        (n, f"1 page, {n:,} lines", lambda n: pdf_tall_page(n), ".pdf") for n in (1_000, 10_000, 100_000)
    ],
    "md-line": [
        (n, label, lambda n: markdown_stars(n), ".md")
        for n, label in (
            (10_000, "line of 10 KB"),
            (1_000_000, "line of 1 MB"),
            (50_000_000, "line of 50 MB"),
        )
    ],
}
TIMEOUT_S = 600.0


def one(path: str, no_limits: bool) -> None:
    """Child process: parse one file, print seconds, peak RSS and the outcome as JSON."""
    from parsers import parse_file
    from parsers.errors import ParseError
    from parsers.limits import DEFAULT_LIMITS

    limits = DEFAULT_LIMITS
    if no_limits:
        big = 10**12
        limits = replace(
            limits,
            max_pages=big,
            max_line_chars=big,
            max_paragraph_chars=big,
            max_page_chars=big,
            max_page_objects=big,
        )
    started = time.perf_counter()
    cpu = time.process_time()
    try:
        document = parse_file(path, limits)
        outcome = f"parsed: {len(document.sections)} sections"
    except ParseError as exc:
        outcome = f"{type(exc).__name__}: {exc.reason}"
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "rss_mb": rss, "outcome": outcome}))


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
    print(f"{'case':<24} {'file MB':>9} {'parse s':>9} {'CPU s':>7} {'peak RSS MB':>12}  outcome")
    with tempfile.TemporaryDirectory(prefix="gbtbench-hostile-") as tmp:
        for group in args.only.split(","):
            for n, label, make, suffix in CASES[group]:
                path = Path(tmp) / f"{group}-{n}{suffix}"
                path.write_bytes(make(n))
                size = path.stat().st_size / 1e6
                command = [sys.executable, __file__, "--one", str(path)]
                if args.no_limits:
                    command.append("--no-limits")
                try:
                    done = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
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
