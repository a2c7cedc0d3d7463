"""Prefect settings for gbtbench runs: no telemetry, results under the project, quiet terminal logs.

Prefect reads its settings when it is imported, so `configure` must run before the first
`import prefect` (the CLI does this before importing `flows.executors.prefect_flow`).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path


def configure(cache_dir: Path, *, verbose: bool = False) -> None:
    """Set defaults only: a user's own PREFECT_* environment always wins."""
    defaults = {
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_RESULTS_PERSIST_BY_DEFAULT": "true",
        "PREFECT_LOCAL_STORAGE_PATH": str(cache_dir / "prefect-results"),
        "PREFECT_LOGGING_LEVEL": "INFO" if verbose else "WARNING",
        # the run's own logs (stage summaries) always reach the Prefect API; the terminal shows them
        # only with --verbose
        "PREFECT_LOGGING_LOGGERS_PREFECT_FLOW_RUNS_LEVEL": "INFO",
        "PREFECT_LOGGING_LOGGERS_PREFECT_TASK_RUNS_LEVEL": "INFO",
        "PREFECT_LOGGING_HANDLERS_CONSOLE_LEVEL": "INFO" if verbose else "WARNING",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "90",
        "GX_ANALYTICS_ENABLED": "false",
        "TQDM_DISABLE": "1",
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "HF_DATASETS_DISABLE_PROGRESS_BARS": "1",
        "DASK_LOGGING__DISTRIBUTED": "info" if verbose else "warning",
    }
    for key, value in defaults.items():
        os.environ.setdefault(key, value)


class _NoRunFailures(logging.Filter):
    """Drops a task or flow run's failure with its traceback, as Prefect logs it."""

    def filter(self, record: logging.LogRecord) -> bool:
        run_logger = record.name.startswith(("prefect.task_runs", "prefect.flow_runs"))
        return not (run_logger and record.levelno >= logging.ERROR)


def quiet_run_failures() -> None:
    """Without --verbose, the terminal does not also get Prefect's report of a failed task or flow run (a
    traceback per run): the command reports the failure itself, in one line for a full disk or an
    unwritable folder and with its traceback for anything unexpected, and the run's logs still reach the
    Prefect API. Call after Prefect is imported (which sets up its logging)."""
    for handler in logging.getLogger().handlers:
        if not any(isinstance(f, _NoRunFailures) for f in handler.filters):
            handler.addFilter(_NoRunFailures())
