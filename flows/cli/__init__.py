"""The `gbtbench` command line: thin wrappers that call the plain-Python stages and report."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from flows.cli.audit import audit
from flows.cli.build import build
from flows.cli.common_options import DEFAULT_CORPUS, DEFAULT_OUT, Seed, parse_range
from flows.cli.console import FAILED, UNUSABLE, err, error, progress_bar
from flows.cli.llm_options import LLMCachePath, LLMMode, LLMTypes, open_llm, report_llm
from flows.cli.llm_ticker import llm_ticker
from flows.cli.output_errors import reports_os_errors
from flows.injection_budget import InjectionBudget
from flows.runtime.arrow_memory import prefer_jemalloc
from flows.runtime.malloc import fix_mmap_threshold
from parsers import ParseOutcome, expand_paths, parse_many
from parsers.deadline import parse_with_deadline
from parsers.errors import ParseError
from parsers.model import Document
from parsers.structure_quality import StructureReport, check_structure, gate

prefer_jemalloc()  # before any command imports pyarrow
fix_mmap_threshold()  # before any command starts a process

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,  # plain help: flags read `--json`, not typer's rich `--json <bool>`
    help="Build benchmarks of injected drafting errors from Chinese standards.",
)
PROJECT_CORPUS = DEFAULT_CORPUS / "docx"  # what `inject` draws template material from, when it exists


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            print(f"gbtbench {version('gbtbench')}")
        except PackageNotFoundError:
            print("gbtbench (not installed)")
        raise typer.Exit(0)


@app.callback()
def _root(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Build benchmarks of injected drafting errors from Chinese standards."""


def _write_atomic(path: Path, text: str) -> None:
    """Readers never see a half-written file: write a temporary sibling, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, path)


def _outline(doc: Document, report: StructureReport | None = None) -> str:
    lines = [f"{doc.standard_id or '(no id)'}  {doc.title}  [{doc.format}, {doc.drafting_rules}]"]
    for s in doc.sections:
        indent = "  " * s.level
        lines.append(f"{indent}{s.heading}  ({s.kind}, {len(s.text)} chars)")
    if report is not None:
        verdict = "passed" if report.passed else "refused for injection"
        lines.append(f"structure: {verdict} ({report.sections} sections)")
        lines.extend(f"  {'FAIL' if f.fatal else 'note'} {f.check}: {f.message}" for f in report.findings)
    return "\n".join(lines)


@app.command()
@reports_os_errors("out")
def parse(
    paths: Annotated[
        list[Path],
        typer.Argument(metavar="PATHS", help="Files or folders (searched for .pdf .docx .md .txt)."),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per parsed file on stdout.")
    ] = False,
    out: Annotated[
        Path | None,
        typer.Option("--out", metavar="DIR", help="Also write <doc>.json per document and errors.json here."),
    ] = None,
) -> None:
    """Parse standards into numbered sections."""
    files = expand_paths(paths)
    if not files:
        error("no input files found (.pdf .docx .md .txt)")
        raise typer.Exit(UNUSABLE)
    outcomes: list[ParseOutcome] = []
    show_progress = not as_json and len(files) > 1 and err.is_terminal
    with progress_bar(show=show_progress) as progress:
        task = progress.add_task("parsing", total=len(files))
        for outcome in parse_many(files):
            outcomes.append(outcome)
            progress.advance(task)
            if outcome.error is not None:
                error(f"{outcome.path}: {outcome.error.reason}")
                continue
            doc = outcome.document
            assert doc is not None
            report = check_structure(doc)
            if as_json:
                row = doc.to_dict(provenance=False)
                del row["cover"]
                row["structure"] = report.to_dict()
                print(json.dumps(row, ensure_ascii=False))
            elif out is None:
                print(_outline(doc, report))
            if out is not None:
                name = f"{outcome.path.stem}.{doc.format}.json"
                _write_atomic(out / name, doc.to_json(indent=1))
    failed = [o for o in outcomes if o.error is not None]
    if out is not None:
        errors = [{"source": str(o.path), "reason": o.error.reason} for o in failed if o.error]
        _write_atomic(out / "errors.json", json.dumps(errors, ensure_ascii=False, indent=1))
    if not as_json:
        err.print(
            f"parsed {len(outcomes) - len(failed)} of {len(outcomes)} files" + (f" into {out}" if out else "")
        )
    raise typer.Exit(FAILED if failed else 0)


def _context_documents(corpus: Path | None, document: Document) -> list[Document]:
    """The documents whose references, terms and scopes the rule templates may draw on."""
    from flows.cli.parse_cache import parsed_documents

    docs = [document]
    folder = corpus if corpus is not None else PROJECT_CORPUS
    if folder.is_dir():  # a document the build would refuse lends nothing either
        docs.extend(d for d in parsed_documents(expand_paths([folder])) if check_structure(d).passed)
    return docs


@app.command()
def inject(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="One standard (.pdf .docx .md .txt).")],
    seed: Seed = 0,
    errors: Annotated[
        str, typer.Option("--errors", metavar="MIN-MAX", help="Range of errors per document.")
    ] = "10-18",
    corpus: Annotated[
        Path | None,
        typer.Option(
            "--corpus",
            metavar="DIR",
            help="Documents the templates draw real numbers, terms and scopes from.",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the corrupted document and its instances as JSON.")
    ] = False,
    llm: LLMMode = "none",
    llm_types: LLMTypes = None,
    llm_cache: LLMCachePath = None,
) -> None:
    """Inject 10–18 verified drafting errors into one standard."""
    from injectors.context import InjectionContext
    from injectors.planner import PlanConfig, inject_document

    lo, hi = parse_range(errors)
    try:
        config = PlanConfig(min_errors=lo, max_errors=hi)
        document = parse_with_deadline(path)
        gate(document)  # nothing is injected into a broken parse
        over = InjectionBudget.from_env().exceeded(document)
        if over is not None:  # nor into a document that would hold the command for minutes
            raise ValueError(over)
    except (ValueError, ParseError) as exc:
        error(f"{path}: {getattr(exc, 'reason', exc)}")
        raise typer.Exit(UNUSABLE) from None
    rewriter = open_llm(llm, llm_types, llm_cache)
    try:
        context = InjectionContext.from_documents(_context_documents(corpus, document))
        if rewriter is None:
            result = inject_document(document, seed, context, config)
        else:
            with llm_ticker(rewriter.summary, lambda line: err.print(line, markup=False, highlight=False)):
                result = inject_document(document, seed, context, config, rewriter=rewriter)
    finally:
        if rewriter is not None:
            rewriter.close()
    if rewriter is not None:
        report_llm(rewriter)
        if result.flagged:
            err.print(f"{len(result.flagged)} LLM rewrites flagged for review (not injected)")
    if as_json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        print(_outline(result.corrupted))
        for i in result.instances:
            print(f"{i.location:>10}  {i.error_type:8} {i.description}")
        err.print(
            f"{len(result.instances)} errors injected, {len(result.pre_existing)} pre-existing violations"
        )
    if len(result.instances) < lo:  # printed all the same, but not a success
        error(
            f"{path}: only {len(result.instances)} errors could be injected (at least {lo} asked): "
            "the document has too few places for them"
        )
        raise typer.Exit(FAILED)


@app.command()
def lint(
    paths: Annotated[
        list[Path], typer.Argument(metavar="PATHS", help="Files or folders to check against GB/T 1.1.")
    ],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per violation.")] = False,
) -> None:
    """Check drafts against the GB/T 1.1 drafting rules. Exit 0: clean, 1: violations, 2: unreadable files."""
    from injectors.checking import lint as run_lint

    found = unreadable = 0
    for outcome in parse_many(expand_paths(paths)):
        if outcome.error is not None:
            error(f"{outcome.path}: {outcome.error.reason}")
            unreadable += 1
            continue
        assert outcome.document is not None
        for v in run_lint(outcome.document):
            found += 1
            if as_json:
                print(json.dumps({"source": str(outcome.path), **v.to_dict()}, ensure_ascii=False))
            else:
                print(f"{outcome.path}:{v.location}: {v.error_type} {v.message}")
    raise typer.Exit(UNUSABLE if unreadable else FAILED if found else 0)


app.command()(build)  # flows/cli/build.py; listed here, after lint, in `gbtbench --help`


@app.command()
def publish(
    output_dir: Annotated[
        Path,
        typer.Argument(metavar="OUTPUT_DIR", help="A release folder: outputs/<version>/ or outputs/latest."),
    ],
    repo_id: Annotated[
        str, typer.Option("--repo-id", metavar="ORG/NAME", help="Dataset repo on the Hub, ORG/NAME.")
    ],
    private: Annotated[bool, typer.Option("--private", help="Create the repo private.")] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="List what would be uploaded and contact nothing.")
    ] = False,
    force: Annotated[
        bool,
        typer.Option(
            "--force",
            help="Move the version's tag if it already exists; publish even if critical validation failed.",
        ),
    ] = False,
    timeout: Annotated[
        float | None,
        typer.Option("--timeout", metavar="SECONDS", help="Give up after this many seconds (default 900)."),
    ] = None,
    preview: Annotated[
        Path | None,
        typer.Option(
            "--preview",
            metavar="DIR",
            help="Write the card as it would be uploaded to DIR/README.md; send nothing.",
        ),
    ] = None,
) -> None:
    """Upload a release to the Hugging Face Hub as one commit tagged with its version.

    The token comes from HF_TOKEN or `hf auth login` and is never shown; HF_ENDPOINT selects another Hub.
    """
    from release.hub import DEFAULT_DEADLINE_S, preview_card
    from release.hub import publish as publish_release
    from release.hub_errors import PublishError

    if preview is not None:
        try:
            written = preview_card(output_dir, repo_id, preview)
        except PublishError as exc:
            print(f"ERROR: {exc}", file=sys.stderr)
            raise typer.Exit(1) from None
        print(f"card preview in {written}; nothing was sent", file=sys.stderr)
        return

    try:
        result = publish_release(
            output_dir,
            repo_id,
            private=private,
            dry_run=dry_run,
            force=force,
            deadline_s=DEFAULT_DEADLINE_S if timeout is None else timeout,
            warn=lambda message: err.print(f"WARNING: {message}", markup=False, highlight=False),
        )
    except PublishError as exc:
        error(str(exc))
        raise typer.Exit(FAILED) from None
    target = f"{result.endpoint}/datasets/{repo_id}"
    if dry_run:
        for f in result.files:
            print(f"{f.size:>14,}  {f.path_in_repo}")
        print(
            f"dry run: {len(result.files)} files, {result.total_bytes:,} bytes would go to {target} "
            f"tagged {result.version}; nothing was sent",
            file=sys.stderr,
        )
        return
    moved = f" (tag moved from {result.replaced_tag_commit[:12]})" if result.replaced_tag_commit else ""
    print(
        f"published {result.version}: {len(result.files)} files, {result.total_bytes:,} bytes → {target}, "
        f"commit {result.commit_oid}, tag {result.version}{moved}",
        file=sys.stderr,
    )
    print(f'load_dataset("{repo_id}", revision="{result.version}")')


@app.command()
def serve(
    cron: Annotated[
        str, typer.Option("--cron", metavar="CRON", help='When to rebuild, e.g. "0 3 * * 1" (Mondays 03:00).')
    ],
    corpus: Annotated[
        Path, typer.Option("--corpus", metavar="DIR", help="Folder of standards.")
    ] = DEFAULT_CORPUS,
    out: Annotated[
        Path, typer.Option("--out", metavar="DIR", help="Root of the versioned outputs.")
    ] = DEFAULT_OUT,
    seed: Seed = 0,
    prefer: Annotated[
        str, typer.Option("--prefer", metavar="FORMAT", help="Format to read from a manifest corpus.")
    ] = "pdf",
    publish_to: Annotated[
        str | None,
        typer.Option(
            "--publish-to", metavar="ORG/NAME", help="Also push each new version to this Hub dataset repo."
        ),
    ] = None,
) -> None:
    """Serve scheduled rebuilds; a run that finds nothing changed creates no new version."""
    from flows.runtime import settings

    corpus, out = corpus.resolve(), out.resolve()  # scheduled runs may start in another directory

    settings.configure(out / ".cache")
    from flows.executors.schedule import serve as serve_schedule

    err.print(f"serving scheduled builds ({cron}) of {corpus} into {out}; Ctrl-C stops")
    serve_schedule(cron, corpus, out, seed, prefer, publish_to)


from flows.cli.evaluation import evaluate_command, score_command  # noqa: E402

app.command("score")(score_command)
app.command("evaluate")(evaluate_command)

# review: `review`, `review-stats`, `review-export`, `review-import` (thin wrappers in review/cli.py)
from review.cli import register as _register_review  # noqa: E402

_register_review(app, err)

app.command()(audit)


# Commands whose process holds nothing but their own work: they end without freeing the heap one object
# at a time (jieba's dictionary alone is half a million; a tenth of `gbtbench inject`). A command that starts
# servers or threads (build, publish, review…) ends the usual way, which waits for them.
QUICK_EXIT = frozenset({"parse", "inject", "lint"})


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in QUICK_EXIT:
        app()
        return
    try:
        app()
        code: object = 0
    except SystemExit as stop:
        code = stop.code
    if code is not None and not isinstance(code, int):  # SystemExit("message"): printed, status 1
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()  # what the usual ending runs first (logging's flush, an LLM cache's close…)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError):  # a reader that stopped early (`| head`)
            stream.flush()
    os._exit(code or 0)


if __name__ == "__main__":
    main()
