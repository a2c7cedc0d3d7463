"""Build benchmark: a cold `gbtbench build` of 100, 250 and 500 varied standards, a no-op rebuild, the peak
memory of the whole process tree, and one `gbtbench inject`.

Usage: `python -m bench.build [--docs N] [--sizes 50,100] [--workers N] [--task-runner RUNNER]`
(default 500 documents; smaller sizes of 100 and 250 run first; `--sizes` picks others; RUNNER as
`gbtbench build --task-runner`). The corpus is varied from the project's standards and, when checked
out next to the project, the shared development folder of real standards (`bench/variants.py`);
it is written to a temporary folder and removed afterwards. Rules only, no LLM.
Each build runs as the user runs it, `gbtbench build` in its own process; the peak RSS is the largest sum
over that process and all its descendants (workers included), sampled every 0.2 s. The machine may be
shared, so CPU time (user+sys of the build and everything it waited for) is printed beside wall time.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil

from bench.variants import ROOT, parse_sources, source_files, write_corpus

GOAL_COLD_S = 180.0  # 500 documents, 2 cores
GOAL_NOOP_RATIO = 0.05
GOAL_RSS_BYTES = 2 * 1024**3
FLAT_GROWTH = 1.10  # "flat from 100 to 500 documents": the largest corpus's peak within 10% of the smallest's
GOAL_INJECT_S = 2.0
VERSION = "v0.1.0"
SIZES = (100, 250, 500)
GBTBENCH = [sys.executable, "-m", "flows.cli"]


@dataclass(frozen=True)
class Run:
    wall_s: float
    cpu_s: float
    peak_rss: int
    returncode: int
    stderr: str


def _tree_rss(root: psutil.Process) -> int:
    total = 0
    for proc in [root, *root.children(recursive=True)]:
        try:
            total += proc.memory_info().rss
        except psutil.Error:  # a worker that just ended
            continue
    return total


def run(args: list[str], env: dict[str, str]) -> Run:
    """One command in its own process; its wall time, CPU time and the peak RSS of its process tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        root = psutil.Process(proc.pid)
        while not done.is_set():
            try:
                peak = max(peak, _tree_rss(root))
            except psutil.Error:
                return
            done.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, stderr = proc.communicate()
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, peak, proc.returncode, stderr)


def build_args(corpus: Path, out: Path, runner: str, workers: int | None) -> list[str]:
    args = [*GBTBENCH, "build", f"--corpus={corpus}", f"--out={out}", "--seed=0", f"--version={VERSION}"]
    args.append(f"--task-runner={runner}")
    return [*args, f"--workers={workers}"] if workers else args


def stage_line(release: Path) -> str:
    """Where a build's time went, as its manifest records it (the single-process stages show here)."""
    timings = json.loads((release / "manifest.json").read_text(encoding="utf-8")).get("timings", {})
    stages = [f"{name} {seconds:.1f}" for name, seconds in timings.items() if isinstance(seconds, float)]
    release_steps = timings.get("release", {})
    steps = [f"{name} {seconds:.1f}" for name, seconds in release_steps.items() if name != "total"]
    return f"stages (s): {', '.join(stages)}; release steps (s): {', '.join(steps)}"


def _mib(n: int) -> str:
    return f"{n / 1024**2:,.0f} MiB"


def _ok(good: bool) -> str:
    return "ok" if good else "MISSED"


def _options(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=500, help="largest corpus size (default 500)")
    parser.add_argument(
        "--sizes", default="", help="corpus sizes to build, e.g. 50,100 (default 100,250,500)"
    )
    parser.add_argument("--workers", type=int, default=None, help="build workers (default: one per core)")
    parser.add_argument("--task-runner", default="pool", help="as `gbtbench build --task-runner`")
    parser.add_argument("--keep", type=Path, default=None, help="keep the corpus and outputs in this folder")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    options = _options(argv)
    sizes = [s for s in SIZES if s < options.docs] + [options.docs]
    if options.sizes:
        sizes = sorted(int(n) for n in options.sizes.split(","))
    env = {**os.environ, "DO_NOT_TRACK": "1", "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}

    files = source_files()
    real = ROOT.parent / "shared" / "corpus-real"
    if not real.is_dir():
        print(f"note: {real} is absent; the corpus is varied from the project's standards alone")
    sources = parse_sources(files)
    print(
        f"sources: {len(sources)} standards ({len(files)} files), "
        f"each varied ~{max(sizes) // len(sources)} times"
    )
    print(f"cores: {len(os.sched_getaffinity(0))}, task runner: {options.task_runner}, no LLM")

    work = options.keep or Path(tempfile.mkdtemp(prefix="gbtbench-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        corpus = work / "corpus"
        write_corpus(corpus, max(sizes), sources)
        all_files = sorted(corpus.iterdir())
        cold: dict[int, Run] = {}
        for size in sizes:
            one = _cold_build(work, all_files[:size], size, options, env)
            if one is None:
                return 1
            cold[size] = one
        _noop_and_memory(work, sizes, cold, options, env)
        _time_inject(env)
    finally:
        if options.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    return 0


def _cold_build(
    work: Path, files: list[Path], size: int, options: argparse.Namespace, env: dict[str, str]
) -> Run | None:
    """A cold build of the first `size` documents, printed; None (after printing why) when it failed."""
    subset = work / f"corpus-{size}"
    subset.mkdir(exist_ok=True)
    for path in files:
        if not (subset / path.name).exists():
            os.link(path, subset / path.name)
    out = work / f"out-{size}"
    shutil.rmtree(out, ignore_errors=True)
    one = run(build_args(subset, out, options.task_runner, options.workers), env)
    if one.returncode != 0:
        print(f"build of {size} documents failed ({one.returncode}):\n{one.stderr[-3000:]}")
        return None
    goal = f"(goal ≤ {GOAL_COLD_S:.0f} s at 500)" if size == 500 else ""
    print(
        f"cold build, {size:>4} documents: {one.wall_s:7.1f} s wall, {one.cpu_s:7.1f} s CPU, "
        f"{size / one.wall_s:5.2f} docs/s, peak RSS {_mib(one.peak_rss)} {goal}".rstrip()
    )
    print(f"  {one.stderr.strip().splitlines()[-1] if one.stderr.strip() else ''}")
    print(f"  {stage_line(out / VERSION)}", flush=True)
    return one


def _noop_and_memory(
    work: Path, sizes: list[int], cold: dict[int, Run], options: argparse.Namespace, env: dict[str, str]
) -> None:
    """The no-op rebuild of the largest corpus against its cold build, and peak memory across the sizes."""
    largest = sizes[-1]
    noop = run(
        build_args(work / f"corpus-{largest}", work / f"out-{largest}", options.task_runner, None), env
    )
    ratio = noop.wall_s / cold[largest].wall_s
    print(
        f"no-op rebuild, {largest} documents: {noop.wall_s:.2f} s wall, {noop.cpu_s:.2f} s CPU, "
        f"{ratio:.1%} of cold (goal ≤ {GOAL_NOOP_RATIO:.0%}: {_ok(ratio <= GOAL_NOOP_RATIO)})"
    )
    low, high = cold[sizes[0]].peak_rss, cold[largest].peak_rss
    growth = high / max(low, 1)
    flat = (
        f"flat, growth ≤ ×{FLAT_GROWTH:.2f}: {_ok(growth <= FLAT_GROWTH)}, growth ×{growth:.2f}"
        if len(sizes) > 1
        else "flat: not judged, one size"
    )
    print(
        f"peak RSS (process tree): {_mib(low)} at {sizes[0]}, {_mib(high)} at {largest} documents "
        f"(goal ≤ 2 GiB: {_ok(high <= GOAL_RSS_BYTES)}; {flat})"
    )
    if largest >= 500:
        print(
            f"cold build of 500 documents: {_ok(cold[500].wall_s <= GOAL_COLD_S)} "
            f"(goal ≤ {GOAL_COLD_S:.0f} s)"
        )


def _time_inject(env: dict[str, str]) -> None:
    document = sorted((ROOT / "corpus" / "pdf").glob("*.pdf"))[0]
    inject = [*GBTBENCH, "inject", str(document), "--seed=0", "--json"]
    # one run not counted: after the builds, the page cache holds their gigabytes of output rather than
    # the files a command reads (site-packages, the jieba pickle)
    run(inject, env)
    injects = [run(inject, env) for _ in range(3)]
    median = statistics.median(r.wall_s for r in injects)
    cpu = statistics.median(r.cpu_s for r in injects)
    print(
        f"gbtbench inject {document.name}: median of 3 after a warm-up {median:.2f} s wall, "
        f"{cpu:.2f} s CPU (goal ≤ {GOAL_INJECT_S:.0f} s: {_ok(median <= GOAL_INJECT_S)})"
    )


if __name__ == "__main__":
    sys.exit(main())
