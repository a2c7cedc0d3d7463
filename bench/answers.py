"""How much of a malformed model answer the reader recovers, and how long hostile answers take to read.

    python -m bench.answers [--timeout SECONDS]

The corpus is tests/evaluation/malformed_answers.py: answers written the way chat models miss the JSON
format, each with the errors a human reader finds in it. "Recovered" counts the (location, type) pairs the
reader returns that the answer really holds (extra ones count against exactness, not recovery); "exact"
counts answers read to exactly their errors. Then each hostile answer is read in a fresh process, bounded
by --timeout, and its time printed: the goal is linear growth, and well under a second for each.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter

from evaluation.predictions import parse_output
from tests.evaluation.malformed_answers import CASES

HOSTILE = {
    "256 KiB of '[x '": "'[x ' * (256 * 1024 // 3)",
    "1 MiB of '[x '": "'[x ' * (1024 * 1024 // 3)",
    "100,000 '['": "'[' * 100_000",
    "1 MiB unclosed string": "'[{\"description\": \"' + 'x' * (1024 * 1024)",
    "200 KiB of list items": '\'[\' + \'{"location": "5.1", "error_type": "NMS-01"},\' * 4000 + \']\'',
    "200 KiB of '{x} '": "'{x} ' * 50_000",
    "200 KiB of '[1]'": "'[1]' * 65_000",
}
READ = """
import sys, time
from evaluation.predictions import parse_output
raw = eval(sys.argv[1])
started = time.perf_counter()
got = parse_output("d", raw)
n = -1 if got.predictions is None else len(got.predictions)
print(f"{time.perf_counter() - started:.3f} {n} {int(got.unparsable)} {getattr(got, 'note', '')}")
"""


def recovery() -> None:
    expected_total = recovered_total = exact = 0
    for case in CASES:
        got = parse_output("d", case.raw)
        pairs = Counter((p.location, p.error_type) for p in got.predictions or ())
        wanted = Counter(case.expected)
        recovered = sum((pairs & wanted).values())
        expected_total += len(case.expected)
        recovered_total += recovered
        exact += pairs == wanted and not (got.unparsable and case.expected)
        if pairs != wanted:
            print(f"  {case.name}: {recovered} of {len(case.expected)} (read {sum(pairs.values())})")
    print(
        f"malformed answers: {len(CASES)}; errors recovered {recovered_total} of {expected_total} "
        f"({recovered_total / expected_total:.1%}); answers read exactly {exact} of {len(CASES)}"
    )


def hostile(timeout: float) -> None:
    print(f"{'answer':<24} {'seconds':>8}  result")
    for name, expression in HOSTILE.items():
        started = time.perf_counter()
        try:
            done = subprocess.run(
                [sys.executable, "-c", READ, expression],
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
            out = done.stdout.strip() or done.stderr.strip().splitlines()[-1]
        except subprocess.TimeoutExpired:
            out = f"killed after {timeout:.0f} s"
        print(f"{name:<24} {time.perf_counter() - started:>8.2f}  {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    recovery()
    hostile(args.timeout)


if __name__ == "__main__":
    main()
