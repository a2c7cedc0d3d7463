"""The validation in its own process (started as a build's choice begins) decides what the validation in
the caller decides, leaves the caller without GX, ends once used, and falls back to the caller when that
process dies. GX's import leaves scipy.stats, which no suite uses, to its first use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from release.tables import build_tables
from tests.support import session_store
from tests.support.release_data import injected
from validation.suites import validate_release
from validation.traceability import check_results

ROOT = Path(__file__).resolve().parents[2]
PROBE = f"""
import json, logging, sys
from pathlib import Path
sys.path.insert(0, {str(ROOT)!r})
from tests.support import session_store
if len(sys.argv) > 1:  # the session's store: the injected documents the caller validated, not injected again
    session_store.configure(Path(sys.argv[1]))
from tests.support.release_data import injected
from release.tables import build_tables
from validation import gx_process
from validation.suites import validate_release
from validation.traceability import check_results

logging.basicConfig(level=logging.WARNING, stream=sys.stdout, format="log: %(message)s")
results = injected()
checks = check_results(results)
tables = build_tables(results, checks)

def validate():
    outcome = validate_release(tables.documents, tables.instances, checks, min_errors=10, max_errors=18)
    return [o.to_dict() for o in outcome.outcomes]

started = gx_process.start()
beside = validate()
report = {{"started": started, "gx_here": "great_expectations" in sys.modules, "beside": beside}}
report["ended"] = gx_process._STARTED is None
assert gx_process.start()  # GX still not imported here: a second process starts
pool = gx_process._STARTED
workers = list(pool._processes.values())
assert workers  # started with the pool (spawn), and killed at once: it dies during its GX import
for worker in workers:
    worker.kill()
report["fallback"] = validate()
report["gx_here_after_fallback"] = "great_expectations" in sys.modules
report["scipy_stats_run"] = "scipy.stats._stats_py" in sys.modules  # deferred: no suite uses it
from scipy import stats
report["entropy"] = round(float(stats.entropy([0.5, 0.5], [0.9, 0.1])), 4)  # loads on first use
print(json.dumps(report))
"""


def test_the_validation_process_decides_as_the_caller_would() -> None:
    results = injected()
    checks = check_results(results)
    tables = build_tables(results, checks)
    here = validate_release(tables.documents, tables.instances, checks, min_errors=10, max_errors=18)
    expected = [o.to_dict() for o in here.outcomes]

    store = session_store.folder()  # where the caller's `injected()` is kept
    command = [sys.executable, "-c", PROBE, *(() if store is None else (str(store),))]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    *logs, last = done.stdout.strip().splitlines()
    report = json.loads(last)
    assert report["started"] and report["ended"]
    assert not report["gx_here"]  # the caller never imported GX
    assert report["beside"] == expected
    assert report["fallback"] == expected and report["gx_here_after_fallback"]
    assert not report["scipy_stats_run"] and report["entropy"] == 0.5108
    assert any("validation process stopped" in line for line in logs)
