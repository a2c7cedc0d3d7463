"""lm-evaluation-harness task files of a release: one YAML per task and shot, a group, and utils.py.

The YAMLs load their data through `utils.load_local` (a `custom_dataset`), which resolves the JSONL files
relative to itself, so `lm_eval --include_path <release>/instructions` works from any directory; with
`--metadata '{"dataset": "ORG/NAME", "revision": "v0.1.0"}'` the same tasks read the published Hub
release instead. One-shot tasks use lm-eval's own few-shot machinery (so results say n-shot 1) with a
sampler that takes the exemplar each row names; the prompt lm-eval assembles is the row's `query`.
The review task reports the reference protocol's diagnosis recall, DMTR_1/5/10 and CMCS.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from injectors.taxonomy import REFERENCE_DIMENSIONS, reference_to_ours

GROUP = "gbtbench_review"
REFERENCE_CODES = "reference_codes.json"  # the name utils.py (evaluation.lm_eval_utils) reads
REVIEW_METRICS = {
    "diagnosis_recall": "pooled",
    "dmtr_1": "mean",
    "dmtr_5": "mean",
    "dmtr_10": "mean",
    "cmcs": "pooled",
}


# the correction task: the type's checker on the corrected document, closeness to the original, exact match
CORRECTION_METRICS = ("verified", "chrf", "exact_match")


@dataclass(frozen=True)
class Function:
    """A `!function module.name` reference, resolved by lm-eval relative to the YAML's folder."""

    name: str


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(Function, lambda dumper, f: dumper.represent_scalar("!function", f.name))


class _Loader(yaml.SafeLoader):
    pass


# The stubs leave the lambda's node as a bare Node type variable; construct_scalar itself rejects non-scalars.
_Loader.add_constructor(
    "!function",
    lambda loader, node: Function(loader.construct_scalar(node)),  # type: ignore[arg-type]
)


def dump(config: dict[str, Any]) -> str:
    return yaml.dump(config, Dumper=_Dumper, allow_unicode=True, sort_keys=False)


def load(text: str) -> dict[str, Any]:
    """A task YAML back as a dict, `!function` references as Function (for tests and tools)."""
    return yaml.load(text, Loader=_Loader)


def task_config(
    task: str,
    shot: str,
    data_file: str,
    *,
    instruction: str,
    output_type: str,
    max_gen_toks: int = 0,
) -> dict[str, Any]:
    """An lm-eval (0.4.x) task reading `data_file` (beside the YAML), or the release's Hub config
    `instructions_<task>_<shot>`, as its `test` split."""
    config: dict[str, Any] = {
        "task": f"gbtbench_{task}_{shot}",
        "tag": ["gbtbench", f"gbtbench_{shot}"],
        "custom_dataset": Function("utils.load_local"),
        "dataset_kwargs": {"data_files": {"test": data_file}, "config": f"instructions_{task}_{shot}"},
        "test_split": "test",
        "output_type": output_type,
    }
    if shot == "one_shot":
        config.update(
            description=f"{instruction}\n\n",  # lm-eval joins it to the exemplar as is
            doc_to_text="prompt",
            fewshot_split="test",
            num_fewshot=1,
            fewshot_delimiter="\n\n",
            fewshot_config={
                "sampler": Function("utils.ExemplarSampler"),
                "doc_to_text": "示例：\n{{exemplar}}",
            },
        )
    else:
        config.update(doc_to_text="query", num_fewshot=0)
    config["target_delimiter"] = ""
    if output_type == "multiple_choice":
        config.update(
            doc_to_choice="choices",
            doc_to_target="gold",
            metric_list=[{"metric": "acc", "aggregation": "mean", "higher_is_better": True}],
        )
    else:
        config.update(
            doc_to_target="answer",
            generation_kwargs={"until": ["\n\n\n"], "max_gen_toks": max_gen_toks, "do_sample": False},
        )
        if task == "review":
            config["process_results"] = Function("utils.process_review")
            config["metric_list"] = [
                {"metric": name, "aggregation": Function(f"utils.{how}"), "higher_is_better": True}
                for name, how in REVIEW_METRICS.items()
            ]
        elif task == "correction":
            config["process_results"] = Function("utils.process_correction")
            config["metric_list"] = [
                {"metric": name, "aggregation": "mean", "higher_is_better": True}
                for name in CORRECTION_METRICS
            ]
        else:
            config["metric_list"] = [
                {
                    "metric": "exact_match",
                    "aggregation": "mean",
                    "higher_is_better": True,
                    "ignore_case": True,
                    "ignore_punctuation": False,
                }
            ]
    config["metadata"] = {"version": 2.0}
    return config


def group_config(tasks: list[str]) -> dict[str, Any]:
    """One aggregate over the review tasks written (weighted by their number of documents)."""
    return {
        "group": GROUP,
        "task": tasks,
        "aggregate_metric_list": [
            {"metric": name, "aggregation": "mean", "weight_by_size": True} for name in REVIEW_METRICS
        ],
        "metadata": {"version": 2.0},
    }


def write_support(out_dir: Path, review_tasks: list[str]) -> list[str]:
    """utils.py (with the answer reader it loads, answer_json.py, and the reference codes it maps, from the
    type registry) and the group YAML beside the task YAMLs; returns the file names written."""
    written = []
    for module, name in (
        ("evaluation.lm_eval_utils", "utils.py"),
        ("evaluation.answer_json", "answer_json.py"),
    ):
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None
        shutil.copyfile(spec.origin, out_dir / name)
        written.append(name)
    codes = {"dimensions": REFERENCE_DIMENSIONS, "types": dict(reference_to_ours())}
    (out_dir / REFERENCE_CODES).write_text(json.dumps(codes, ensure_ascii=False, indent=1), encoding="utf-8")
    written.append(REFERENCE_CODES)
    if review_tasks:
        (out_dir / f"{GROUP}.yaml").write_text(dump(group_config(review_tasks)), encoding="utf-8")
        written.append(f"{GROUP}.yaml")
    return written
