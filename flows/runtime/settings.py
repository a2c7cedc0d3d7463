"""Prefect settings for gbtbench runs: no telemetry, results under the project, quiet terminal logs.

Prefect reads its settings when it is imported, so `configure` must run before the first
`import prefect` (the CLI does this before importing `flows.executors.prefect_flow`).
"""

from __future__ import annotations

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
