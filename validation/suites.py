"""Great Expectations suites over a release's document and instance tables, and what they decide.

Each expectation is marked critical or not. A critical failure (duplicate ids, a type or dimension outside
the taxonomy or inconsistent with each other, an edit that does not replay, a document outside the error
count range) means the release cannot be trusted and the build must fail. A non-critical failure (leaked
heading, refusal, English prose, description not in the Chinese three-part form, incomplete provenance,
location not found, unchanged section) flags the failing instances for review; nothing is dropped.

What GX cannot express on one table row (replaying an edit, finding a location in the corrupted document)
is computed by validation/traceability.py and handed to GX as boolean columns, so that every decision is
in one report: `results.json` (the plain result below), `gx_results.json` (GX's own) and a Data Docs site.

GX is imported lazily: its import costs seconds, and most callers of this package never validate.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from validation import gx_process
from validation.expectations import TRACE_COLUMNS, Check, document_checks, instance_checks
from validation.gx_import import import_gx
from validation.traceability import Flag

if TYPE_CHECKING:  # pandas too is imported where a frame is made: not by every process that imports this
    import pandas as pd


@dataclass(frozen=True)
class ExpectationOutcome:
    name: str
    table: str
    critical: bool
    success: bool
    failing_ids: tuple[str, ...]  # instance_id or doc_id of the failing rows, sorted and unique
    description: str
    expectation: str  # GX expectation type, e.g. expect_column_values_to_be_unique

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "table": self.table,
            "critical": self.critical,
            "success": self.success,
            "failing_ids": list(self.failing_ids),
            "description": self.description,
            "expectation": self.expectation,
        }


@dataclass(frozen=True)
class SuiteResult:
    """What the suites decided, as plain data: no GX object leaks out of this module."""

    outcomes: tuple[ExpectationOutcome, ...]
    seconds: dict[str, float]
    gx_version: str

    @property
    def critical_failures(self) -> tuple[ExpectationOutcome, ...]:
        return tuple(o for o in self.outcomes if o.critical and not o.success)

    @property
    def non_critical_failures(self) -> tuple[ExpectationOutcome, ...]:
        return tuple(o for o in self.outcomes if not o.critical and not o.success)

    @property
    def success(self) -> bool:
        return not self.critical_failures

    def flags(self) -> dict[str, tuple[Flag, ...]]:
        """Flags per instance_id from the failed non-critical expectations on the instance table."""
        out: dict[str, list[Flag]] = {}
        for outcome in self.non_critical_failures:
            if outcome.table != "instances":
                continue
            for instance_id in outcome.failing_ids:
                out.setdefault(instance_id, []).append(Flag(outcome.name, outcome.description))
        return {k: tuple(sorted(v)) for k, v in sorted(out.items())}

    def to_dict(self) -> dict[str, Any]:
        return {
            "success": self.success,
            "critical_failures": [o.name for o in self.critical_failures],
            "non_critical_failures": [o.name for o in self.non_critical_failures],
            "expectations": [o.to_dict() for o in self.outcomes],
            "seconds": self.seconds,
            "great_expectations": self.gx_version,
        }


# A table as GX sees it: plain rows and their columns, made into a pandas frame where GX runs (this process
# or the validation process, `validation.gx_process`), so that only these few columns cross to it.
Rows = tuple[list[dict[str, Any]], list[str]]


def instance_rows(instances: pa.Table, checks: Mapping[str, Sequence[Flag]]) -> Rows:
    """The instance table: provenance unpacked, traceability results as boolean columns."""
    rows = []
    for row in instances.select(
        ["instance_id", "doc_id", "dimension", "error_type", "description", "provenance"]
    ).to_pylist():
        provenance = row.pop("provenance") or {}
        row["description"] = row["description"] or ""  # GX skips nulls: a missing description must fail
        codes = {f.code for f in checks.get(row["instance_id"], ())}
        row["provenance_generator"] = provenance.get("generator")
        row["provenance_injector_version"] = provenance.get("injector_version") or None
        row["provenance_seed"] = provenance.get("seed")
        row["provenance_llm_complete"] = provenance.get("generator") != "llm" or all(
            provenance.get(key) for key in ("model", "prompt_id", "cache_key")
        )
        for code in TRACE_COLUMNS:
            row[f"{code}_ok"] = code not in codes
        rows.append(row)
    columns = [
        "instance_id",
        "doc_id",
        "dimension",
        "error_type",
        "description",
        "provenance_generator",
        "provenance_injector_version",
        "provenance_seed",
        "provenance_llm_complete",
        *(f"{c}_ok" for c in TRACE_COLUMNS),
    ]
    return rows, columns


def document_rows(documents: pa.Table) -> Rows:
    """The documents table with its texts compared in Arrow (a large release's texts never become Python
    strings)."""
    differs = pc.not_equal(documents.column("original_text"), documents.column("corrupted_text"))
    rows = documents.select(["doc_id", "format", "drafting_rules", "n_errors"]).to_pylist()
    for row, value in zip(rows, differs.to_pylist(), strict=True):
        row["corrupted_differs"] = value
    return rows, ["doc_id", "format", "drafting_rules", "n_errors", "corrupted_differs"]


def _frame(rows: Rows) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame(rows[0], columns=rows[1])


def _context(gx: Any, docs_dir: Path | None) -> Any:
    """An ephemeral context with progress bars and analytics off and, if asked, a Data Docs site."""
    from great_expectations.data_context.types.base import (
        DataContextConfig,
        InMemoryStoreBackendDefaults,
        ProgressBarsConfig,
    )

    config = DataContextConfig(
        store_backend_defaults=InMemoryStoreBackendDefaults(init_temp_docs_sites=False),
        analytics_enabled=False,
        progress_bars=ProgressBarsConfig(globally=False, metric_calculations=False),
    )
    context = gx.get_context(mode="ephemeral", project_config=config)
    if docs_dir is not None:
        context.add_data_docs_site(
            site_name="release",
            site_config={
                "class_name": "SiteBuilder",
                "store_backend": {
                    "class_name": "TupleFilesystemStoreBackend",
                    "base_directory": str(docs_dir),
                },
                # GX's pages, with each template compiled once per process (`data_docs_view`)
                "site_section_builders": {section: {"view": _view("PageView")} for section in _SECTIONS},
                "site_index_builder": {
                    "class_name": "DefaultSiteIndexBuilder",
                    "view": _view("IndexPageView"),
                },
            },
        )
    return context


def _view(name: str) -> dict[str, str]:
    return {"module_name": "validation.data_docs_view", "class_name": name}


_SECTIONS = ("expectations", "validations", "profiling")  # a Data Docs site's sections (GX's defaults)


def _expectation(gx: Any, check: Check) -> Any:
    cls = getattr(gx.expectations, check.kind)
    return cls(**check.kwargs, meta={"name": check.name, "critical": check.critical})


def _failing_ids(result: Any, id_column: str) -> tuple[str, ...]:
    rows = result.result.get("unexpected_index_list") or []
    return tuple(sorted({str(r[id_column]) for r in rows if isinstance(r, dict) and id_column in r}))


def _run_table(
    gx: Any,
    context: Any,
    table: str,
    frame: pd.DataFrame,
    checks: list[Check],
    id_column: str,
    run_name: str,
    docs: bool,
) -> tuple[list[ExpectationOutcome], dict[str, Any]]:
    """One checkpoint per table: batch parameters carry one dataframe, and the tables differ."""
    source = context.data_sources.add_pandas(name=f"{table}_source")
    batch = source.add_dataframe_asset(name=table).add_batch_definition_whole_dataframe(f"{table}_all")
    suite = context.suites.add(
        gx.ExpectationSuite(name=f"gbtbench_{table}", expectations=[_expectation(gx, c) for c in checks])
    )
    definition = context.validation_definitions.add(
        gx.ValidationDefinition(name=f"gbtbench_{table}", data=batch, suite=suite)
    )
    actions = [gx.checkpoint.UpdateDataDocsAction(name="data_docs", site_names=["release"])] if docs else []
    checkpoint = context.checkpoints.add(
        gx.Checkpoint(
            name=f"gbtbench_{table}",
            validation_definitions=[definition],
            actions=actions,
            result_format={"result_format": "COMPLETE", "unexpected_index_column_names": [id_column]},
        )
    )
    from great_expectations.core.run_identifier import RunIdentifier

    run = checkpoint.run(batch_parameters={"dataframe": frame}, run_id=RunIdentifier(run_name=run_name))
    by_name = {c.name: c for c in checks}
    outcomes: list[ExpectationOutcome] = []
    for validation in run.run_results.values():
        for result in validation.results:
            name = result.expectation_config.meta["name"]
            check = by_name[name]
            failing = () if result.success else _failing_ids(result, id_column)
            outcomes.append(
                ExpectationOutcome(
                    name=name,
                    table=table,
                    critical=check.critical,
                    success=bool(result.success),
                    failing_ids=failing,
                    description=check.description,
                    expectation=result.expectation_config.type,
                )
            )
    order = {c.name: n for n, c in enumerate(checks)}
    outcomes.sort(key=lambda o: order[o.name])
    return outcomes, run.describe_dict()


def validate_release(
    documents: pa.Table,
    instances: pa.Table,
    checks: Mapping[str, Sequence[Flag]],
    *,
    min_errors: int,
    max_errors: int,
    out_dir: Path | None = None,
    run_name: str = "gbtbench",
) -> SuiteResult:
    """Run both suites; with `out_dir`, write results.json, gx_results.json and data_docs/ there. In the
    validation process when a build started one (`validation.gx_process`), else here."""
    doc_ids = sorted(set(documents.column("doc_id").to_pylist()))
    return gx_process.run(
        _validate_rows,
        document_rows(documents),
        instance_rows(instances, checks),
        doc_ids,
        min_errors,
        max_errors,
        out_dir,
        run_name,
    )


def _validate_rows(
    documents: Rows,
    instances: Rows,
    doc_ids: list[str],
    min_errors: int,
    max_errors: int,
    out_dir: Path | None,
    run_name: str,
) -> SuiteResult:
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    gx = import_gx()
    seconds["import"] = round(time.perf_counter() - start, 3)
    mark = time.perf_counter()
    docs_dir = None if out_dir is None else out_dir / "data_docs"
    context = _context(gx, docs_dir)
    seconds["context"] = round(time.perf_counter() - mark, 3)
    mark = time.perf_counter()
    d_outcomes, d_raw = _run_table(
        gx,
        context,
        "documents",
        _frame(documents),
        document_checks(min_errors, max_errors),
        "doc_id",
        run_name,
        docs_dir is not None,
    )
    i_outcomes, i_raw = _run_table(
        gx,
        context,
        "instances",
        _frame(instances),
        instance_checks(doc_ids),
        "instance_id",
        run_name,
        docs_dir is not None,
    )
    seconds["validate"] = round(time.perf_counter() - mark, 3)
    result = SuiteResult(tuple(d_outcomes + i_outcomes), seconds, gx.__version__)
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "results.json").write_text(
            json.dumps(result.to_dict(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
        (out_dir / "gx_results.json").write_text(
            json.dumps({"documents": d_raw, "instances": i_raw}, ensure_ascii=False, indent=2, default=str)
            + "\n",
            encoding="utf-8",
        )
    return result
