"""`gbtbench parse`, `inject` and `lint`: the commands that read standards one file at a time."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Annotated

import typer

from flows.cli.common_options import DEFAULT_CORPUS, Seed, parse_range
from flows.cli.console import FAILED, UNUSABLE, err, error, progress_bar
from flows.cli.llm_options import LLMCachePath, LLMMode, LLMTypes, open_llm, report_llm
from flows.cli.llm_ticker import llm_ticker
from flows.cli.output_errors import reports_os_errors
from flows.injection_budget import InjectionBudget
from parsers import ParseOutcome, expand_paths, parse_many
from parsers.deadline import parse_with_deadline
from parsers.errors import ParseError
from parsers.model import Document
from parsers.structure_quality import StructureReport, check_structure, gate

PROJECT_CORPUS = DEFAULT_CORPUS / "docx"  # what `inject` draws template material from, when it exists


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
