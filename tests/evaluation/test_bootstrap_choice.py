"""Why the score's intervals are our own percentile bootstrap and not `scipy.stats.bootstrap`.

Precision is undefined in a resample that holds no prediction (a model that answers on few documents); SciPy
then gives no interval at all (NaN), while ours is taken over the resamples where the figure is defined.
The intervals also share one draw of resampled documents across every level and dimension.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.stats import bootstrap

from evaluation.benchmark import GoldError
from evaluation.predictions import Prediction
from evaluation.protocol import gbtbench_scores

GOLD = (GoldError("5.1", "NMS", "NMS-01"), GoldError("6.2", "NMS", "NMS-02"))


def documents() -> list[tuple[tuple[GoldError, ...], tuple[GoldError, ...], list[Prediction]]]:
    """Six documents; the model reports errors in the first only (one right, one wrong)."""
    answered = [Prediction("5.1", "NMS", "NMS-01"), Prediction("9.9", "NMS", "NMS-03")]
    return [(GOLD, (), answered if n == 0 else []) for n in range(6)]


def test_scipy_gives_no_interval_where_some_resamples_have_no_prediction() -> None:
    hits, fp, gold = np.array([1, 0, 0, 0, 0, 0]), np.array([1, 0, 0, 0, 0, 0]), np.full(6, 2)

    def precision(h: np.ndarray, f: np.ndarray, g: np.ndarray, axis: int = -1) -> np.ndarray:
        found, wrong = h.sum(axis=axis), f.sum(axis=axis)
        with np.errstate(invalid="ignore", divide="ignore"):
            return found / (found + wrong)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SciPy warns about the undefined resamples it cannot use
        theirs = bootstrap(
            (hits, fp, gold), precision, paired=True, vectorized=True, n_resamples=1000,
            method="percentile", rng=np.random.default_rng(0),
        )  # fmt: skip
    assert np.isnan(theirs.confidence_interval.low) and np.isnan(theirs.confidence_interval.high)

    ours = gbtbench_scores(documents(), np.random.default_rng(0))["levels"]["diagnosis"]
    assert ours["precision"] == 0.5
    assert (
        ours["ci"]["precision"] is not None
        and ours["ci"]["precision"][0] <= 0.5 <= ours["ci"]["precision"][1]
    )
