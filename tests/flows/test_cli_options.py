"""Command-line options as a user meets them: --version, flags, seeds, --license and an unset LLM model."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from importlib import import_module
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from flows.cli import app as cli
from release.card import size_category
from release.config import BuildConfig
from release.license import LicenseError, check_license, data_license
from release.writer import read_manifest, write_release
from tests.support.release_data import injected, shared_release

ROOT = Path(__file__).resolve().parents[2]
GBTBENCH = [sys.executable, "-m", "flows.cli"]
cli_runner = CliRunner()


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GBTBENCH, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120, check=False
    )


def test_version_prints_the_package_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"gbtbench {version('gbtbench')}"


@pytest.mark.parametrize("command", ["lint", "parse", "inject", "build", "publish"])
def test_boolean_options_are_shown_as_flags(command: str) -> None:
    help_text = run(command, "--help").stdout
    assert "--help" in help_text and "<bool>" not in help_text
    if command in ("lint", "parse", "inject"):
        assert "--json " in help_text


@pytest.mark.parametrize("command", ["build", "inject"])
def test_a_negative_seed_is_refused(command: str, tmp_path: Path) -> None:
    target = ["--out", str(tmp_path / "out")] if command == "build" else [str(ROOT / "corpus" / "docx")]
    result = run(command, *target, "--seed", "-5")
    assert result.returncode == 2
    assert "--seed" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "out").exists()


def test_llm_without_a_model_stops_before_anything_starts(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GBTBENCH_LLM_", "OPENAI_"))}
    env["PREFECT_API_URL"] = "http://127.0.0.1:9/api"  # any attempt to reach Prefect would hang or fail
    started = time.monotonic()
    result = run("build", "--out", str(tmp_path / "out"), "--llm", "openai", env=env)
    took = time.monotonic() - started
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "GBTBENCH_LLM_MODEL" in lines[0] and "--llm-model" not in lines[0]
    assert not (tmp_path / "out").exists() and took < 60


def test_inject_without_a_model_says_the_same_in_one_line() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GBTBENCH_LLM_", "OPENAI_"))}
    doc = next((ROOT / "corpus" / "docx").glob("*.docx"))
    result = run("inject", str(doc), "--llm", "openai", env=env)
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "GBTBENCH_LLM_MODEL" in result.stderr and "--llm-model" not in result.stderr


def test_a_malformed_license_is_refused_plainly(tmp_path: Path) -> None:
    result = run("build", "--out", str(tmp_path / "out"), "--license", "CC BY 4.0")
    assert result.returncode == 2
    assert "--license 'CC BY 4.0' is not a licence identifier" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_data_licence_depends_on_whose_corpus_it_is(tmp_path: Path) -> None:
    own = ROOT / "corpus"
    assert data_license(own) == ("cc-by-4.0", False)
    assert data_license(tmp_path) == ("other", True)
    assert data_license(tmp_path, "CC-BY-NC-4.0") == ("cc-by-nc-4.0", True)
    (tmp_path / "manifest").write_text("not a project corpus: no sources\n")
    assert data_license(tmp_path) == ("other", True)
    with pytest.raises(LicenseError):
        check_license("cc by")


def _front(card: str) -> dict:
    return yaml.safe_load(card.split("---\n")[1])


def test_the_card_carries_licence_citation_and_a_third_party_notice(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    own = shared_release(tmp_path_factory)  # the project's own corpus, the default licence
    third = BuildConfig(version="v0.0.1", license="other", third_party_corpus=True)
    other = write_release(injected(), third, tmp_path / "b").path
    own_card = (own / "hf" / "README.md").read_text(encoding="utf-8")
    other_card = (other / "hf" / "README.md").read_text(encoding="utf-8")
    assert _front(own_card)["license"] == "cc-by-4.0"
    assert _front(other_card)["license"] == "other" and _front(other_card)["license_name"]
    assert "third-party standards" in other_card and "third-party" not in own_card
    items = read_manifest(own)["tables"]["items"]["rows"]  # the benchmark's examples, not the largest table
    assert _front(own_card)["size_categories"] == [size_category(items)]
    for card in (own_card, other_card):
        assert "```bibtex\n@misc{gbtbench," in card and "Apache-2.0" in card
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").lstrip().startswith("Apache License")
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] and citation["title"] and citation["license"] == "Apache-2.0"


def test_size_category_buckets() -> None:
    assert [size_category(n) for n in (0, 999, 1000, 9999, 10_000, 250_000)] == [
        "n<1K",
        "n<1K",
        "1K<n<10K",
        "1K<n<10K",
        "10K<n<100K",
        "100K<n<1M",
    ]


CHOICES = [
    ("build", [], "--llm", "injectors.llm.settings:LLM_MODES"),
    ("inject", ["x.txt"], "--llm", "injectors.llm.settings:LLM_MODES"),
    ("build", [], "--task-runner", "flows.executors:TASK_RUNNERS"),
    ("evaluate", ["x"], "--shots", "evaluation.runner:SHOTS"),
    ("evaluate", ["x"], "--baseline", "evaluation.baselines:BASELINES"),
    ("score", ["x", "y"], "--protocol", "evaluation.score:PROTOCOLS"),
    ("review-export", ["x"], "--format", "flows.cli.review:EXPORT_FORMATS"),
]


def _values(source: str) -> tuple[str, ...]:
    module, _, name = source.partition(":")
    return tuple(getattr(import_module(module), name))


@pytest.mark.parametrize(("command", "args", "option", "source"), CHOICES)
def test_choice_options_list_their_values(command: str, args: list[str], option: str, source: str) -> None:
    """The values come from the module that implements them; --help lists them, a wrong one is refused."""
    values = _values(source)
    shown = cli_runner.invoke(cli, [command, "--help"], terminal_width=200).stdout
    assert f"{option} <{'|'.join(values)}>" in shown
    wrong = cli_runner.invoke(cli, [command, *args, option, "bogus"])
    assert wrong.exit_code == 2
    assert "is not one of " + ", ".join(f"'{v}'" for v in values) in wrong.stderr


def test_the_build_names_every_task_runner_it_knows() -> None:
    from flows.executors import TASK_RUNNERS
    from flows.executors.prefect_flow import _task_runner

    with pytest.raises(ValueError, match=", ".join(TASK_RUNNERS)):
        _task_runner("bogus", None, None)


COMMANDS = [
    "parse", "inject", "lint", "build", "publish", "serve", "score", "evaluate",
    "review", "review-stats", "review-export", "review-import", "audit",
]  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_has_a_readable_metavar(command: str) -> None:
    shown = cli_runner.invoke(cli, [command, "--help"], terminal_width=200).stdout
    for typer_default in ("<str>", "<int>", "<float>", "<path>", "<function>", "INTEGER RANGE", "TEXT"):
        assert typer_default not in shown, f"{command} --help shows {typer_default}"
    usage = shown.splitlines()[0]
    assert re.search(r"\{[a-z_]+\}", usage) is None, usage


def test_errors_have_one_prefix_and_exit_statuses_one_meaning(tmp_path: Path) -> None:
    """ERROR: <file>: <reason>; exit 1 when the command ran and failed on something it names, 2 when it
    could not do anything with what it was given (README, "Exit status")."""
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    (tmp_path / "nothing").mkdir()
    cases = [
        (["parse", str(tmp_path / "nothing")], 2, "ERROR: no input files"),
        (["parse", str(empty)], 1, f"ERROR: {empty}: empty file"),
        (["inject", str(empty)], 2, f"ERROR: {empty}: empty file"),
        (["lint", str(empty)], 2, f"ERROR: {empty}: empty file"),
        (["review-stats", str(tmp_path)], 2, f"ERROR: {tmp_path}"),
        (["review-import", str(tmp_path), str(empty)], 2, f"ERROR: {tmp_path}"),
        (["audit", str(tmp_path)], 2, f"ERROR: {tmp_path}: "),
        (["score", str(tmp_path), str(empty)], 2, "ERROR: "),
    ]
    for args, status, first in cases:
        done = cli_runner.invoke(cli, args)
        errors = [line for line in done.stderr.splitlines() if line.upper().startswith("ERROR")]
        assert done.exit_code == status, (args, done.stderr)
        assert errors and errors[0].startswith(first), (args, done.stderr)
        assert all(line.startswith("ERROR: ") for line in errors), (args, done.stderr)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`ERROR: <file>: <reason>`" in readme and "Exit status" in readme
