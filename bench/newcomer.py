"""What a newcomer does with two successive releases, each result checked against the data on disk.

    python -m bench.newcomer [--docs 3] [--keep DIR]

In a temporary folder: builds v0.1.0 from `--docs` of the project's standards and v0.1.1 from one fewer
(`gbtbench build`, rules only); loads every config of both with `datasets.load_dataset` into ONE cache, one
release after the other, and compares each config's rows with its Parquet file; runs lm-evaluation-harness's
`local-chat-completions` on the group `gbtbench_review` of v0.1.1 against a chat server on 127.0.0.1 that
answers each document's gold list in a model's untidy way; scores the samples folder with `gbtbench score`
(one score per shot: every gold error found, nothing unparsable) and checks that scoring those samples
against v0.1.0 is refused; exports v0.1.1's review queue for Label Studio (config and tasks checked with
Label Studio's own parser), imports an edited export with two rejections and two acceptances (twice: the
second adds nothing), and rebuilds: only the rejected instances are replaced. Prints one line per check and
its time; the exit status is 1 if any failed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import yaml

from corpus.stdsource import gold_document
from parsers.render import render_text
from tests.servers.review import ReviewServer

ROOT = Path(__file__).resolve().parents[1]
LOADER = """
import json, sys
import datasets
datasets.disable_progress_bars()
out = {}
for name in sys.argv[2:]:
    ds = datasets.load_dataset(sys.argv[1], name, split="test")
    key = "instance_id" if "instance_id" in ds.column_names else "id" if "id" in ds.column_names else "doc_id"
    out[name] = sorted(str(v) for v in ds[key])
print(json.dumps(out))
"""
# lm_eval's own command line with its task index limited to --include_path (indexing the bundled tasks
# costs seconds and none of them is run)
LM_EVAL = """
import lm_eval.tasks
from lm_eval.__main__ import cli_evaluate
bundled_too = lm_eval.tasks.TaskManager.__init__
def include_path_only(self, *args, **kwargs):
    bundled_too(self, *args, **{**kwargs, "include_defaults": False})
lm_eval.tasks.TaskManager.__init__ = include_path_only
cli_evaluate()
"""


class Checks:
    def __init__(self) -> None:
        self.failed = 0

    def run(self, name: str, check: Callable[[], str]) -> None:
        started = time.perf_counter()
        try:
            detail, ok = check(), True
        except (AssertionError, subprocess.CalledProcessError, OSError, ValueError, KeyError) as exc:
            detail, ok = f"{type(exc).__name__}: {exc}"[:400], False
        self.failed += not ok
        print(
            f"{'ok  ' if ok else 'FAIL'} {time.perf_counter() - started:7.1f} s  {name}: {detail}", flush=True
        )


def gbtbench(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "flows.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def write_corpus(folder: Path, count: int) -> None:
    folder.mkdir(parents=True)
    for source in sorted((ROOT / "corpus" / "sources").glob("*.std"))[:count]:
        (folder / f"{source.stem}.txt").write_text(render_text(gold_document(source)), encoding="utf-8")


def key_column(path: Path) -> list[str]:
    names = pq.read_schema(path).names
    key = "instance_id" if "instance_id" in names else "id" if "id" in names else "doc_id"
    return sorted(str(v) for v in pq.read_table(path, columns=[key]).column(key).to_pylist())


def load_every_config(releases: list[Path], home: Path) -> str:
    """Each release's configs through `load_dataset`, in one cache, compared with the Parquet files."""
    env = {**os.environ, "HF_HOME": str(home), "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    loaded = 0
    for release in releases:
        card = (release / "hf" / "README.md").read_text(encoding="utf-8")
        configs = {
            c["config_name"]: c["data_files"][0]["path"]
            for c in yaml.safe_load(card.split("---\n")[1])["configs"]
        }
        done = subprocess.run(
            [sys.executable, "-c", LOADER, str(release / "hf"), *configs],
            env=env, capture_output=True, text=True, check=True, timeout=900,
        )  # fmt: skip
        rows = json.loads(done.stdout.strip().splitlines()[-1])
        for name, path in configs.items():
            assert rows[name] == key_column(release / "hf" / path), f"{release.name} {name}: other rows"
            loaded += 1
    return f"{loaded} configs of {len(releases)} releases, each its own rows"


@dataclass
class Newcomer:
    """What a newcomer does, step by step, in one work folder: each method is one check."""

    work: Path
    docs: int
    items: dict[str, Any] = field(default_factory=dict)  # doc_id → gold of the second release
    texts: dict[str, str] = field(default_factory=dict)  # doc_id → its text in the second release
    before: dict[str, dict[str, Any]] = field(default_factory=dict)  # its instances, by instance_id
    rejected: list[str] = field(default_factory=list)  # instances the annotator rejects

    @property
    def out(self) -> Path:
        return self.work / "outputs"

    @property
    def releases(self) -> list[Path]:
        return [self.out / "v0.1.0", self.out / "v0.1.1"]

    @property
    def samples(self) -> Path:
        return self.work / "lm-eval-out"

    def build(self, version: str, docs: int) -> str:
        write_corpus(self.work / f"corpus-{version}", docs)
        done = gbtbench(
            "build",
            "--corpus",
            str(self.work / f"corpus-{version}"),
            "--out",
            str(self.out),
            "--version",
            version,
        )
        assert done.returncode == 0, done.stderr[-500:]
        manifest = json.loads((self.out / version / "manifest.json").read_text(encoding="utf-8"))
        assert manifest["counts"]["documents"] == docs
        return f"{docs} documents, data {manifest['data_fingerprint']}"

    def read_second_release(self) -> None:
        rows = pq.read_table(self.releases[1] / "items.parquet").to_pylist()
        self.items = {
            r["doc_id"]: json.loads(r["gold"]) if isinstance(r["gold"], str) else r["gold"] for r in rows
        }
        self.texts = {r["doc_id"]: r["text"] for r in rows}
        instances = pq.read_table(self.releases[1] / "instances.parquet").to_pylist()
        self.before = {r["instance_id"]: r for r in instances}

    def answer(self, prompt: str) -> str:
        doc = next(d for d, text in self.texts.items() if text in prompt)
        listed = json.dumps(self.items[doc], ensure_ascii=False, indent=1)
        return f"依据 GB/T 1.1[1]，审查结果如下：\n```json\n{listed[:-1]},]\n```"

    def lm_eval(self) -> str:
        with ReviewServer(self.answer) as server:
            model_args = f"model=scripted,base_url={server.base_url}/chat/completions,num_concurrent=2"
            env = {
                **os.environ,
                "HF_HOME": str(self.work / "hf-home"),
                "HF_DATASETS_OFFLINE": "1",
                "HF_HUB_OFFLINE": "1",
            }
            command = [
                sys.executable,
                "-c",
                LM_EVAL,
                "--model",
                "local-chat-completions",
                "--model_args",
                model_args,
            ]
            command += ["--apply_chat_template", "--include_path", str(self.releases[1] / "instructions")]
            command += ["--tasks", "gbtbench_review", "--output_path", str(self.samples), "--log_samples"]
            done = subprocess.run(
                command, cwd=self.work, env=env, capture_output=True, text=True, check=False, timeout=1800
            )
            assert done.returncode == 0, done.stderr[-800:]
            requests = server.requests
        results = json.loads(next(self.samples.rglob("results_*.json")).read_text(encoding="utf-8"))[
            "results"
        ]
        shots = {
            task: figures["diagnosis_recall,none"] for task, figures in results.items() if "shot" in task
        }
        assert shots and all(v == 1.0 for v in shots.values()), shots
        return f"{requests} requests; lm-eval diagnosis recall {shots}"

    def score(self) -> str:
        done = gbtbench("score", str(self.releases[1]), str(self.samples), "--json")
        assert done.returncode == 0, done.stderr[-500:]
        figures = json.loads(done.stdout)
        gold = sum(len(g) for g in self.items.values())
        for task, scores in figures.items():
            inp = scores["input"]
            assert inp["predicted"] == len(self.items) and inp["unparsable"]["count"] == 0, (task, inp)
            assert scores["gbtbench"]["levels"]["diagnosis"]["hits"] == gold, task
        return f"{sorted(figures)}: all {gold} gold errors found in each, nothing unparsable"

    def refused(self) -> str:
        done = gbtbench("score", str(self.releases[0]), str(self.samples))
        assert done.returncode == 2 and "predictions made on release data " in done.stderr, done.stderr[-300:]
        return done.stderr.strip().splitlines()[-1][:160]

    def label_studio(self) -> str:
        done = gbtbench(
            "review-export", str(self.releases[1]), "--format", "label-studio", "--out", str(self.work / "ls")
        )
        assert done.returncode == 0, done.stderr[-500:]
        tasks = json.loads(
            next((self.work / "ls").glob("label-studio-tasks-*.json")).read_text(encoding="utf-8")
        )
        config = next((self.work / "ls").glob("*.xml")).read_text(encoding="utf-8")
        assert [t["data"]["instance_id"] for t in tasks] and {t["data"]["instance_id"] for t in tasks} <= set(
            self.before
        )
        checked = label_studio_checked(config, tasks)
        # an annotator rejects the first two documents' first instances and accepts two more
        firsts: dict[str, int] = {}
        for n, task in enumerate(tasks):
            firsts.setdefault(task["data"]["doc_id"], n)
        chosen = list(firsts.values())[:2]
        self.rejected.extend(tasks[n]["data"]["instance_id"] for n in chosen)
        accepted = [n for n in range(len(tasks)) if n not in chosen][:2]
        edited = self.work / "ls" / "project-export.json"
        edited.write_text(
            json.dumps(annotated(tasks, chosen, accepted), ensure_ascii=False), encoding="utf-8"
        )
        done = gbtbench("review-import", str(self.releases[1]), str(edited))
        assert done.returncode == 0, done.stderr[-500:]
        stats = json.loads(gbtbench("review-stats", str(self.releases[1]), "--json").stdout)
        assert stats["decided_items"] == 4, stats
        again = gbtbench("review-import", str(self.releases[1]), str(edited))
        assert again.returncode == 0 and "0 decisions imported" in again.stderr, again.stderr[-300:]
        return (
            f"{len(tasks)} tasks exported, {checked}; 4 decisions imported once (a second import adds none)"
        )

    def rebuild(self) -> str:
        done = gbtbench(
            "build",
            "--corpus",
            str(self.work / "corpus-v0.1.1"),
            "--out",
            str(self.out),
            "--version",
            "v0.1.2",
        )
        assert done.returncode == 0, done.stderr[-500:]
        instances = pq.read_table(self.out / "v0.1.2" / "instances.parquet").to_pylist()
        after = {r["instance_id"]: r for r in instances}
        before = self.before
        removed, added = before.keys() - after.keys(), after.keys() - before.keys()
        changed = [i for i in before.keys() & after.keys() if before[i] != after[i]]
        assert removed == set(self.rejected), (sorted(removed), self.rejected)
        assert len(added) == len(self.rejected) and not changed, (len(added), len(changed))
        return f"removed {len(removed)} (the rejected), added {len(added)}, changed {len(changed)}"


def label_studio_checked(config: str, tasks: list[dict[str, Any]]) -> str:
    """The labelling config and every task checked with Label Studio's own parser, where it is installed."""
    try:
        from label_studio_sdk.label_interface import LabelInterface
    except ImportError:
        return "not checked (label-studio-sdk missing)"
    interface = LabelInterface(config)
    interface.validate()
    assert all(interface.validate_task(task) for task in tasks)
    return "config and every task valid for Label Studio's parser"


def annotated(tasks: list[dict[str, Any]], chosen: list[int], accepted: list[int]) -> list[dict[str, Any]]:
    """Label Studio's project export after an annotator rejected the `chosen` tasks and accepted others."""
    exported = []
    for n, task in enumerate(tasks):
        controls = {"decision": "reject", "reject_reason": "unnatural"} if n in chosen else None
        controls = {"decision": "accept"} if n in accepted else controls
        result = [
            {
                "id": f"r{n}-{name}",
                "from_name": name,
                "to_name": "corrupted",
                "type": "choices",
                "value": {"choices": [value]},
            }
            for name, value in (controls or {}).items()
        ]
        annotation = {
            "id": n + 1,
            "completed_by": 7,
            "result": result,
            "was_cancelled": False,
            "created_at": "2026-12-06T10:00:00.000000Z",
        }
        exported.append({"id": n + 1, "data": task["data"], "annotations": [annotation] if controls else []})
    return exported


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=3)
    parser.add_argument("--keep", type=Path, default=None, help="Work here and keep the files.")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="gbtbench-newcomer-"))
    walk, checks = Newcomer(work, args.docs), Checks()
    checks.run("build v0.1.0", lambda: walk.build("v0.1.0", args.docs))
    checks.run("build v0.1.1", lambda: walk.build("v0.1.1", args.docs - 1))
    checks.run("load_dataset, every config", lambda: load_every_config(walk.releases, work / "hf-home"))
    walk.read_second_release()
    checks.run("lm_eval local-chat-completions, gbtbench_review", walk.lm_eval)
    checks.run("gbtbench score of the samples folder", walk.score)
    checks.run("the v0.1.1 samples scored against v0.1.0", walk.refused)
    checks.run("Label Studio export, validation and import", walk.label_studio)
    checks.run("rebuild with the two rejections", walk.rebuild)
    if args.keep:
        print(f"{checks.failed} failed; files in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
        print(f"{checks.failed} failed")
    raise SystemExit(1 if checks.failed else 0)


if __name__ == "__main__":
    main()
