"""What a finished build shows in the Prefect UI: a Markdown release summary and the type counts.

Plain functions of the build summary and the release manifest; `flows/executors/prefect_flow.py`
publishes them as artifacts.
"""

from __future__ import annotations

from typing import Any

from flows.pipeline import BuildSummary
from release.manifest import read_manifest


def type_count_rows(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per error type: its count in the release (zero included, so a missing type shows)."""
    by_type: dict[str, int] = manifest["counts"]["by_type"]
    return [{"error_type": t, "instances": n} for t, n in by_type.items()]


def release_summary(summary: BuildSummary) -> str:
    """Counts, bad inputs, validation results and where the release went, as Markdown."""
    lines = [f"# gbtbench {summary.version}", ""]
    if summary.output is None:
        lines.append("Nothing usable was produced: no document could be parsed.")
    else:
        manifest = read_manifest(summary.output)
        counts, validation = manifest["counts"], manifest["validation"]
        lines += [
            f"Output: `{summary.output}`" + ("" if validation["success"] else " (not made `latest`)"),
            "",
            "| | |",
            "|---|---|",
            f"| documents | {counts['documents']} |",
            f"| errors | {counts['instances']} |",
            f"| pre-existing violations | {counts['pre_existing']} |",
            f"| flagged for review | {counts['flagged']} |",
            f"| bad inputs | {len(summary.bad_inputs)} |",
            "",
            "## Validation",
            "",
            f"{'passed' if validation['success'] else 'FAILED'}: "
            f"critical failures: {', '.join(validation['critical_failures']) or 'none'}; "
            f"other failed expectations: {', '.join(validation['non_critical_failures']) or 'none'}",
        ]
    if summary.bad_inputs:
        lines += ["", "## Bad inputs", "", "| source | reason |", "|---|---|"]
        lines += [f"| `{b['source']}` | {b['reason'].replace('|', '/')} |" for b in summary.bad_inputs]
    return "\n".join(lines) + "\n"
