"""Scoring speed: 500 documents × 18 predictions under both protocols (goal ≤ 1 s).

    python -m bench.score [--documents 500] [--predictions 18] [--resamples 1000] [--repeat 5]

A synthetic benchmark (15 gold errors per document over 60 sections, 2 pre-existing violations) and
predictions mixing hits, misses, duplicates, other spellings ("第5章", "附录 A") and the reference's codes
are written to a JSONL file of raw model outputs; the script times reading and parsing that file, the
reference protocol, our protocol with its 95% bootstrap intervals, and `score` as a whole (median of
`--repeat` runs), and prints the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from evaluation.benchmark import Benchmark, BenchmarkItem, GoldError
from evaluation.predictions import read_predictions
from evaluation.protocol import gbtbench_scores
from evaluation.reference import reference_scores
from evaluation.score import score
from injectors.taxonomy import by_id, type_ids, types

SECTIONS = [str(n) for n in range(1, 9)] + [f"{a}.{b}" for a in range(4, 9) for b in range(1, 8)]
SECTIONS += ["前言", "附录A", "A.1", "A.2", "参考文献"]


def spelled(location: str, rng: np.random.Generator) -> str:
    if location.isdigit() and rng.random() < 0.3:
        return f"第{location}章"
    if location.startswith("附录") and rng.random() < 0.5:
        return "附录 " + location[2:]
    return location


def synthetic(n_docs: int, n_preds: int, seed: int) -> tuple[Benchmark, list[dict]]:
    rng = np.random.default_rng(seed)
    # a hit may be spelled in the reference implementation's codes (each type's first)
    reference = {t.id: t.reference_codes[0] for t in types() if t.reference_codes}
    items, rows = [], []
    for d in range(n_docs):
        gold = []
        for _ in range(15):
            t = type_ids()[int(rng.integers(0, len(type_ids())))]
            gold.append(
                GoldError(SECTIONS[int(rng.integers(0, len(SECTIONS)))], by_id()[t].dimension, t, "错误：…")
            )
        pre = tuple(
            GoldError(SECTIONS[int(rng.integers(0, len(SECTIONS)))], "NMS", "NMS-03") for _ in range(2)
        )
        doc_id = f"{d:016x}"
        items.append(BenchmarkItem(doc_id, tuple(gold), pre))
        predictions = []
        for k in range(n_preds):
            if k < len(gold) and rng.random() < 0.6:  # a hit (maybe spelled differently)
                g = gold[k]
                error_type = reference.get(g.error_type, g.error_type) if rng.random() < 0.3 else g.error_type
                predictions.append(
                    {
                        "location": spelled(g.location, rng),
                        "dimension": g.dimension,
                        "error_type": error_type,
                        "description": "错误：…；修改建议：…",
                    }
                )
            else:
                t = type_ids()[int(rng.integers(0, len(type_ids())))]
                predictions.append(
                    {
                        "location": SECTIONS[int(rng.integers(0, len(SECTIONS)))],
                        "dimension": by_id()[t].dimension,
                        "error_type": t,
                        "description": "…",
                    }
                )
        raw = "审查结果如下：\n```json\n" + json.dumps(predictions, ensure_ascii=False) + "\n```"
        rows.append({"doc_id": doc_id, "raw_output": raw})
    return Benchmark("bench", tuple(items)), rows


CPU: list[float] = []  # CPU seconds of the last `timed` call (median), printed beside wall time


def timed(repeat: int, func: Callable[[], object]) -> tuple[float, object]:
    """Median wall seconds of `repeat` runs (CPU seconds in CPU[-1]: a shared machine inflates wall time)."""
    times, cpu, result = [], [], None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = func()
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    CPU.append(statistics.median(cpu))
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--documents", type=int, default=500)
    parser.add_argument("--predictions", type=int, default=18)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    benchmark, rows = synthetic(args.documents, args.predictions, seed=0)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "predictions.jsonl"
        path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
        t_read, predictions = timed(args.repeat, lambda: read_predictions(path))
    by_id = {p.doc_id: p for p in predictions}
    ref_docs = [(i.gold, by_id[i.doc_id].predictions) for i in benchmark.items]
    our_docs = [(i.gold, i.pre_existing, by_id[i.doc_id].predictions) for i in benchmark.items]
    t_ref, ref = timed(args.repeat, lambda: reference_scores(ref_docs))
    t_ours, _ = timed(args.repeat, lambda: gbtbench_scores(our_docs, np.random.default_rng(0), 0))
    t_boot, ours = timed(
        args.repeat, lambda: gbtbench_scores(our_docs, np.random.default_rng(0), args.resamples)
    )
    t_all, _ = timed(
        args.repeat, lambda: score(benchmark, predictions, np.random.default_rng(0), args.resamples)
    )
    n_pred = sum(len(p.predictions or ()) for p in predictions)
    load = os.getloadavg()[0]
    print(
        f"{args.documents} documents, {n_pred} predictions, median of {args.repeat} runs "
        f"(load average {load:.1f} on {os.cpu_count()} cores)"
    )
    rows_out = [
        ("read + parse raw outputs (JSONL)", t_read, CPU[0]),
        ("reference protocol", t_ref, CPU[1]),
        ("gbtbench protocol, no intervals", t_ours, CPU[2]),
        (f"gbtbench protocol, {args.resamples} resamples", t_boot, CPU[3]),
        ("score(): both protocols", t_all, CPU[4]),
        ("read + score", t_read + t_all, CPU[0] + CPU[4]),
    ]
    for name, wall, cpu in rows_out:
        print(f"{name:<40} {wall:6.3f} s wall  {cpu:6.3f} s CPU")
    total = CPU[0] + CPU[4]
    print(f"goal: read + score ≤ 1 s: {'met' if total <= 1 else 'NOT met'} ({total:.3f} s CPU)")
    recall = ours["levels"]["diagnosis"]["recall"]  # type: ignore[index]
    print(f"check: diagnosis recall reference {ref['diagnosis_recall']:.4f}, ours {recall:.4f}")  # type: ignore[index]


if __name__ == "__main__":
    main()
