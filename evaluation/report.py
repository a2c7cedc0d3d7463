"""A scored run as people read it: a short Markdown report and a per-dimension bar chart (PNG)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from evaluation.reference import rounded
from evaluation.score import PROTOCOLS
from injectors.taxonomy import DIMENSIONS

CHART_NAME = "dimensions.png"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.1%}"


def _ci(interval: Sequence[float] | None) -> str:
    return "" if not interval else f" [{interval[0]:.1%}, {interval[1]:.1%}]"


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(str(c) for c in row) + " |" for row in rows),
    ]


def headline(scores: dict[str, Any], protocol: str = "gbtbench") -> list[str]:
    """The figures a terminal shows: one protocol's headline lines."""
    if protocol == "reference":
        ref = rounded(scores["reference"])
        dmtr = ref["dmtr"]
        return [
            f"documents {ref['doc_count']} (null {ref['null_documents']}), gold {ref['ground_truth_count']}, "
            f"predictions {ref['prediction_count']}",
            f"recall  location {ref['location_recall']:.4f}  dimension {ref['dimension_recall']:.4f}  "
            f"diagnosis {ref['diagnosis_recall']:.4f}",
            f"DMTR_1 {dmtr['H1']:.4f}  DMTR_5 {dmtr['H5']:.4f}  DMTR_10 {dmtr['H10']:.4f}",
            f"CMCS {ref.get('cmcs', 0.0):.6f}  MCS {ref['mcs']:.6f}  penalty {ref['penalty']:.6f}",
        ]
    ours = scores["gbtbench"]
    lines = [
        f"documents {ours['doc_count']} (null {ours['null_documents']}), gold {ours['ground_truth_count']}, "
        f"predictions {ours['prediction_count']}"
    ]
    for level, figures in ours["levels"].items():
        ci = figures.get("ci", {})
        lines.append(
            f"{level:<9} recall {_pct(figures['recall'])}{_ci(ci.get('recall'))}  "
            f"precision {_pct(figures['precision'])}{_ci(ci.get('precision'))}  "
            f"F1 {_pct(figures['f1'])}{_ci(ci.get('f1'))}"
        )
    return lines


def score_lines(scores: dict[str, Any], protocol: str) -> list[str]:
    """Every protocol's headline, `protocol`'s first, each under its name in brackets: what `score` and
    `evaluate` print."""
    lines = []
    for name in (protocol, *(p for p in PROTOCOLS if p != protocol)):
        lines.append(f"[{name}]")
        lines += [f"  {line}" for line in headline(scores, name)]
    return lines


# what each count of a run's input means for its scores, in the order they are told
_INPUT_NOTES = {
    "missing": "without a prediction, scored as empty",
    "unparsable": "with unparsable output, scored as empty",
    "null": "answered null, left out of every denominator",
    "failed": "whose model call failed, scored as empty",
    "unknown": "predicted but not in the release, ignored",
}


def input_notes(scores: dict[str, Any]) -> list[str]:
    """One line per kind of input that was not a clean prediction (none when every document had one)."""
    inp = scores["input"]
    lines = [
        f"{inp[name]['count']} documents {note}" for name, note in _INPUT_NOTES.items() if inp[name]["count"]
    ]
    partial = inp.get("partial", {"count": 0})
    if partial["count"]:
        lines.append(
            f"{partial['count']} documents read in part: {partial['recovered']} of the {partial['seen']} "
            "errors their answers show were recovered"
        )
    return lines


def render_report(scores: dict[str, Any], *, title: str, chart: str | None = CHART_NAME) -> str:
    ours = scores["gbtbench"]
    ref = rounded(scores["reference"])
    inp = scores["input"]
    lines = [f"# {title}", "", f"Release `{scores['release']}`; {inp['documents']} documents.", ""]
    lines += ["## gbtbench protocol", ""]
    rows = []
    for level, f in ours["levels"].items():
        ci = f.get("ci", {})
        rows.append(
            (
                level,
                _pct(f["recall"]) + _ci(ci.get("recall")),
                _pct(f["precision"]) + _ci(ci.get("precision")),
                _pct(f["f1"]) + _ci(ci.get("f1")),
                f["false_positives"],
                f["neutral_pre_existing"],
            )
        )
    lines += _table(["level", "recall", "precision", "F1", "false positives", "neutral (pre-existing)"], rows)
    lines += ["", "95% bootstrap intervals over documents in brackets.", ""]
    dim_rows = []
    for code, (zh, _) in DIMENSIONS.items():
        row = ours["by_dimension"].get(code)
        if row is None:
            continue
        dim_rows.append(
            (
                f"{code} {zh}",
                row["ground_truth_count"],
                _pct(row["recall"]) + _ci(row.get("recall_ci")),
                _pct(row["precision"]),
            )
        )
    lines += _table(["dimension", "gold", "diagnosis recall", "precision"], dim_rows)
    if chart:
        lines += ["", f"![Diagnosis recall by dimension]({chart})"]
    dmtr = ref["dmtr"]
    lines += ["", "## Reference protocol (GB/T-Bench paper)", ""]
    lines += _table(
        ["location recall", "dimension recall", "diagnosis recall", "DMTR_1", "DMTR_5", "DMTR_10", "CMCS"],
        [
            (
                f"{ref['location_recall']:.4f}",
                f"{ref['dimension_recall']:.4f}",
                f"{ref['diagnosis_recall']:.4f}",
                f"{dmtr['H1']:.4f}",
                f"{dmtr['H5']:.4f}",
                f"{dmtr['H10']:.4f}",
                f"{ref.get('cmcs', 0.0):.6f}",
            )
        ],
    )
    lines += ["", "## Input", ""]
    for name in ("missing", "unparsable", "null", "failed", "unknown"):
        count = inp[name]["count"]
        if count:
            shown = ", ".join(inp[name]["doc_ids"][:5]) + (" …" if count > 5 else "")
            lines.append(f"- {name}: {count} ({shown})")
    partial = inp.get("partial", {"count": 0})
    if partial["count"]:
        shown = ", ".join(partial["doc_ids"][:5]) + (" …" if partial["count"] > 5 else "")
        lines.append(
            f"- read in part: {partial['count']} ({shown}); {partial['recovered']} of the "
            f"{partial['seen']} errors their answers show were recovered"
        )
    if not any(inp[n]["count"] for n in ("missing", "unparsable", "null", "failed", "unknown", "partial")):
        lines.append("- every document has a parsed prediction")
    return "\n".join(lines) + "\n"


def write_chart(scores: dict[str, Any], path: Path, title: str) -> None:
    """Diagnosis recall by dimension: ours with its interval, and the reference's (which double-counts)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    codes = list(DIMENSIONS)
    ours = scores["gbtbench"]["by_dimension"]
    ref = scores["reference"]["by_dimension"]
    values = [(ours.get(c) or {}).get("recall") or 0.0 for c in codes]
    low, high = [], []
    for c, v in zip(codes, values, strict=True):
        ci = (ours.get(c) or {}).get("recall_ci") or [v, v]
        low.append(max(0.0, v - ci[0]))
        high.append(max(0.0, ci[1] - v))
    ref_values = [(ref.get(c) or {}).get("diagnosis_recall", 0.0) for c in codes]
    x = range(len(codes))
    fig, ax = plt.subplots(figsize=(7, 3.5), dpi=100)
    ax.bar([i - 0.2 for i in x], values, 0.4, yerr=[low, high], capsize=3, label="gbtbench", color="#4C72B0")
    ax.bar([i + 0.2 for i in x], ref_values, 0.4, label="reference", color="#DD8452")
    ax.set_xticks(list(x), [f"{c}\n{DIMENSIONS[c][1]}" for c in codes], fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("diagnosis recall")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="lower right", framealpha=0.9)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def report_files(scores: dict[str, Any], name: str, version: str) -> dict[str, Callable[[Path], object]]:
    """The files of a scored run, each as a writer of its path: scores.json (every figure, unrounded), the
    chart and report.md."""
    text = json.dumps(scores, ensure_ascii=False, indent=1) + "\n"
    report = render_report(scores, title=name)
    return {
        "scores.json": lambda p: p.write_text(text, encoding="utf-8"),
        CHART_NAME: lambda p: write_chart(scores, p, f"{name} on {version}"),
        "report.md": lambda p: p.write_text(report, encoding="utf-8"),
    }
