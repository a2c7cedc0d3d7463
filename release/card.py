"""The dataset card: README.md whose YAML declares the Hub configs, statistics tables and a type chart.

The card is what a model evaluator reads first on the Hub, so it says what each config holds, how to
load a version, and how the errors are distributed. The chart labels types by ID (ASCII only), so it
renders with matplotlib's bundled fonts and needs no CJK font on the build machine.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import yaml

from evaluation.baselines import baseline_markdown
from injectors.taxonomy import DIMENSIONS, by_id, type_ids, types
from release import license as licence
from release.config import BuildConfig
from release.hub_layout import REPO_PLACEHOLDER, HubLayout, card_configs

CHART_NAME = "type_distribution.png"
DIMENSION_COLOURS = {
    "STR": "#4C72B0",
    "SCP": "#DD8452",
    "NMS": "#55A868",
    "TER": "#C44E52",
    "NREF": "#8172B3",
}


def correction_excluded() -> dict[str, str]:
    """Type → why none of its instances can have a correction example (`ErrorType.no_correction`). Which
    types lack one in a release is read from its data (types_without_correction)."""
    return {t.id: t.no_correction for t in types() if t.no_correction}


def corrected_instances(instructions_dir: Path) -> set[str]:
    """The instance ids the correction task has an example for (its zero-shot rows, one per instance)."""
    path = instructions_dir / "correction_zero_shot.jsonl"
    prefix = "correction_zero_shot_"
    if not path.is_file():
        return set()
    with path.open(encoding="utf-8") as rows:
        return {json.loads(line)["id"].removeprefix(prefix) for line in rows if line.strip()}


def types_without_correction(instances: pa.Table, corrected: Collection[str]) -> dict[str, str]:
    """Each type injected in this release none of whose instances has a correction example, with why:
    the known reason for its kind of edit, else the edits its instances made here."""
    ops: dict[str, Counter[str]] = {}
    with_example: set[str] = set()
    rows = instances.select(["instance_id", "error_type", "edit"]).to_pylist()
    for row in rows:
        ops.setdefault(row["error_type"], Counter())[(row["edit"] or {}).get("op") or "?"] += 1
        if row["instance_id"] in corrected:
            with_example.add(row["error_type"])
    out = {}
    excluded = correction_excluded()
    for type_id in type_ids():
        if type_id not in ops or type_id in with_example:
            continue
        edits = ", ".join(f"{op} ×{n}" for op, n in sorted(ops[type_id].items()))
        out[type_id] = excluded.get(
            type_id, f"none of its instances here is an in-place rewrite of one section ({edits})"
        )
    return out


def _correction_note(instances: pa.Table, corrected: Collection[str] | None) -> str:
    if corrected is None:  # not told which instances have an example: the types that never can
        present = set(type_counts(instances))
        missing = {t: why for t, why in correction_excluded().items() if t in present}
    else:
        missing = types_without_correction(instances, corrected)
    if not missing:
        return (
            "The correction task asks for one section with one error undone; every injected type has "
            "examples."
        )
    listed = "\n".join(f"- {t} {by_id()[t].name_zh}: {why}." for t, why in missing.items())
    count = "one type has" if len(missing) == 1 else f"{len(missing)} types have"
    return (
        f"The correction task asks for one section with one error undone; in this release {count} no "
        f"correction example:\n\n{listed}"
    )


def type_counts(instances: pa.Table) -> Counter[str]:
    return Counter(instances.column("error_type").to_pylist())


def write_chart(counts: Mapping[str, int], path: Path) -> None:
    """A bar per taxonomy type, zero bars included so charts of two versions line up; colour = dimension."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt

    ids = list(type_ids())
    values = [counts.get(t, 0) for t in ids]
    colours = [DIMENSION_COLOURS.get(by_id()[t].dimension, "#999999") for t in ids]
    fig, ax = plt.subplots(figsize=(11, 4.2), dpi=100)
    try:
        ax.bar(range(len(ids)), values, color=colours)
        ax.set_xticks(range(len(ids)), ids, rotation=60, ha="right", fontsize=8)
        ax.set_ylabel("instances")
        ax.set_title("Injected errors by type")
        handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in DIMENSION_COLOURS.values()]
        ax.legend(handles, list(DIMENSION_COLOURS), title="dimension", fontsize=8, ncols=5, loc="upper right")
        ax.set_ylim(0, max([*values, 1]) * 1.25)
        fig.tight_layout()
        fig.savefig(path, format="png", metadata={"Software": None})
    finally:
        plt.close(fig)


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _share(n: int, total: int) -> str:
    return f"{100 * n / total:.1f} %" if total else "0.0 %"


def statistics(documents: pa.Table, instances: pa.Table, pre_existing: pa.Table) -> str:
    """Markdown tables by type, by dimension and by document."""
    total = instances.num_rows
    by_type = type_counts(instances)
    by_dim = Counter(instances.column("dimension").to_pylist())
    type_rows = [
        (t.id, t.dimension, t.name_zh, t.name_en, by_type.get(t.id, 0), _share(by_type.get(t.id, 0), total))
        for t in types()
    ]
    dim_rows = [
        (code, zh, en, by_dim.get(code, 0), _share(by_dim.get(code, 0), total))
        for code, (zh, en) in DIMENSIONS.items()
    ]
    pre_by_doc = dict(
        zip(
            pre_existing.column("doc_id").to_pylist(),
            pre_existing.column("n_violations").to_pylist(),
            strict=True,
        )
    )
    flagged_by_doc = Counter(
        d
        for d, f in zip(
            instances.column("doc_id").to_pylist(), instances.column("flags").to_pylist(), strict=True
        )
        if f
    )
    doc_rows = [
        (
            d["standard_id"] or "—",
            f"`{d['doc_id']}`",
            d["format"],
            d["n_sections"],
            d["n_errors"],
            pre_by_doc.get(d["doc_id"], 0),
            flagged_by_doc.get(d["doc_id"], 0),
        )
        for d in documents.select(["doc_id", "standard_id", "format", "n_sections", "n_errors"]).to_pylist()
    ]
    counts = documents.column("n_errors").to_pylist()
    summary = (
        f"{documents.num_rows} documents, {total} injected errors "
        f"({min(counts, default=0)}–{max(counts, default=0)} per document), "
        f"{sum(pre_by_doc.values())} pre-existing violations, "
        f"{sum(flagged_by_doc.values())} instances flagged for review."
    )
    return "\n\n".join(
        [
            summary,
            "### By error type\n\n"
            + _table(["type", "dimension", "名称", "name", "instances", "share"], type_rows),
            "### By dimension\n\n" + _table(["dimension", "维度", "name", "instances", "share"], dim_rows),
            "### By document\n\n"
            + _table(
                ["standard", "doc_id", "format", "sections", "errors", "pre-existing", "flagged"], doc_rows
            ),
        ]
    )


def _loading(version: str, layout: HubLayout) -> str:
    names = [c.name for c in layout.configs]
    lines = [f'items = load_dataset("{REPO_PLACEHOLDER}", "items", revision="{version}", split="test")']
    lines += [
        f'{name} = load_dataset("{REPO_PLACEHOLDER}", "{name}", revision="{version}", split="test")'
        for name in ("instances", "instructions_review_zero_shot")
        if name in names
    ]
    return "\n".join(lines)


def render_card(
    *,
    version: str,
    config: BuildConfig,
    tables: Mapping[str, pa.Table],
    layout: HubLayout,
    audit: str = "",
    baselines: str | None = None,
    fingerprint: str = "",
    corrected: Collection[str] | None = None,
) -> str:
    """README.md text: YAML front matter (licence, configs, size) and the human part. `baselines` is the
    baseline section (`evaluation.baselines.baseline_markdown`) when the caller has it already;
    `fingerprint` is the release's data fingerprint; `corrected` the instance ids with a correction
    example (`corrected_instances`)."""
    front = {
        "pretty_name": "gbtbench",
        "language": ["zh"],
        **licence.front_matter(config.license),
        "task_categories": ["text-classification", "text-generation"],
        "tags": ["standards", "GB/T", "document-review", "error-detection"],
        "size_categories": [size_category(tables["items"].num_rows)],
        "configs": card_configs(layout, version, fingerprint),
    }
    head = "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=False) + "---\n"
    config_rows = [(f"`{c.name}`", "test", c.rows, c.description) for c in layout.configs]
    empty = (
        "\n\nEmpty in this version, so not declared as configs (`datasets` cannot load a split without "
        "rows): " + ", ".join(f"`{name}`" for name in layout.empty) + "."
        if layout.empty
        else ""
    )
    type_rows = [(t.id, t.dimension, t.name_zh, t.rule, t.rule_2009 or "—") for t in types()]
    plan = config.plan
    body = f"""
# gbtbench {version}

Benchmark of injected drafting errors in Chinese standards (GB/T 1.1—2020), built by the gbtbench
pipeline: every document receives {plan.min_errors}–{plan.max_errors} errors across
{len(DIMENSIONS)} review dimensions and {len(types())} error types; every error keeps the original
section, the corrupted section, its location, dimension, type, a Chinese description and the exact edit.
Build seed: {config.seed}; configuration fingerprint: `{config.fingerprint()}`{_data_line(fingerprint)}.

## Loading

```python
from datasets import load_dataset

{_loading(version, layout)}
```

Every config has one `test` split. A local build folder loads the same way
(`load_dataset("outputs/{version}/hf", "items", split="test")`), one config folder alone with
`load_dataset("parquet", data_dir="outputs/{version}/hf/data/items")`, and
`datasets.load_from_disk("outputs/{version}/hf")` gives the tables as one DatasetDict keyed by table name.

## Configs

{_table(["config", "split", "rows", "content"], config_rows)}{empty}

In `instances`, `edit` (op, target, replacements, span, inserted, before, renames) and `provenance`
(generator, injector_version, seed, model, prompt_id, cache_key, fallback_reason, llm_attempts,
llm_failures, form) are structs; `flags` lists checks an instance failed (it stays in the gold list and is
queued for human review). In `items`, `gold` is a list of `{{location, dimension, error_type,
description}}` and `pre_existing` a list of `{{location, dimension, error_type, message}}`; scoring
matches location + dimension + error_type after normalising the section number. `pre_existing`
violations are not injected and should not be counted as false positives.

{_correction_note(tables["instances"], corrected)}

## Statistics

![Injected errors by type]({CHART_NAME})

{statistics(tables["documents"], tables["instances"], tables["pre_existing"])}

{_audit_section(audit)}## Baselines

{baseline_markdown(version, tables, config.seed) if baselines is None else baselines}

## Error types

{_table(["type", "dimension", "名称", "rule (2020)", "rule (2009)"], type_rows)}

## Licence

{licence.license_section(config.license, config.third_party_corpus)}

## Citation

```bibtex
{licence.bibtex(version, REPO_PLACEHOLDER)}
```
"""
    return head + body.lstrip("\n")


def _data_line(fingerprint: str) -> str:
    if not fingerprint:
        return ""
    return (
        f"; data fingerprint: `{fingerprint}` (every config names it, so a `datasets` cache never serves "
        "another release's rows; `gbtbench score` checks predictions against it)"
    )


_SIZES = ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M"))


def size_category(n: int) -> str:
    """The Hub's size bucket for a number of examples (the card gives the benchmark items' count)."""
    for bound, name in _SIZES:
        if n < bound:
            return name
    return "1M<n<10M"


def _audit_section(audit: str) -> str:
    """The shortcut audit's table (validation/audit.json in the release), when the build ran it."""
    if not audit:
        return ""
    return (
        "## Audit\n\nCan the errors be found by pattern instead of by reviewing? Per type: the most frequent "
        "word n-gram the injectors added (share of the type's instances), the ROC AUC of a character n-gram "
        "classifier telling corrupted from clean sections (cross-validated by document), the mean relative "
        "position and share of last places, and instances that no longer hold on their final document.\n\n"
        f"{audit}\n"
    )


def write_card(
    hf_dir: Path,
    *,
    version: str,
    config: BuildConfig,
    tables: Mapping[str, pa.Table],
    layout: HubLayout,
    extra: str = "",
    audit: str = "",
    baselines: str | None = None,
    fingerprint: str = "",
) -> None:
    """README.md and the type chart into the Hub folder (with the audit table, and a human-review
    paragraph when reviewed)."""
    write_chart(type_counts(tables["instances"]), hf_dir / CHART_NAME)
    card = render_card(
        version=version,
        config=config,
        tables=tables,
        layout=layout,
        audit=audit,
        baselines=baselines,
        fingerprint=fingerprint,
        corrected=corrected_instances(hf_dir.parent / "instructions"),
    )
    text = card + extra
    (hf_dir / "README.md").write_text(text, encoding="utf-8")
