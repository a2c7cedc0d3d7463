"""The audit as one result: computed from a release folder, rendered as a table, written as JSON.

The JSON holds no time stamp and no absolute path, so auditing the same release twice gives the same file.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from injectors.language.novelty import forget_ngrams
from injectors.registry import definitions
from validation.audit import baseline, ngrams
from validation.audit import forms as form_audit
from validation.audit.baseline import TypeBaseline, audit_baseline
from validation.audit.forms import TypeForms, audit_forms
from validation.audit.integrity import IntegrityResult, audit_integrity
from validation.audit.joint import JointResult, audit_joint
from validation.audit.ngrams import TypeNgrams, audit_ngrams
from validation.audit.position import TypePosition, audit_positions
from validation.audit.release import Release, load_release

AUDIT_FILE = Path("validation") / "audit.json"


def judgement_types() -> tuple[str, ...]:
    """The types no checker decides on the corrupted document alone (the taxonomy's non-deterministic rows):
    their errors must be found by reading, so the pattern goals apply to them."""
    return tuple(d.error_type.id for d in definitions() if d.error_type.judgement)


LISTED = 20  # broken references and joint failures shown in the printed report (all are in the JSON)


@dataclass(frozen=True)
class Audit:
    documents: int
    instances: int
    seed: int
    ngrams: dict[str, TypeNgrams]
    baseline: dict[str, TypeBaseline]
    positions: dict[str, TypePosition]
    integrity: IntegrityResult
    joint: JointResult
    forms: dict[str, TypeForms]

    @property
    def types(self) -> list[str]:
        return list(self.ngrams)

    def goals(self) -> dict[str, bool]:
        """Each goal of the audit and whether this release meets it."""
        out = {}
        for t in judgement_types():
            if t in self.ngrams and self.ngrams[t].instances:
                out[f"{t} added n-grams <= {ngrams.GOAL:.0%}"] = self.ngrams[t].passed
            b = self.baseline.get(t)
            if b is not None and b.auc is not None:
                out[f"{t} surface AUC <= {baseline.GOAL}"] = bool(b.passed)
        for t, f in self.forms.items():
            if f.passed is not None:
                out[f"{t} most frequent form <= {form_audit.GOAL:.0%}"] = f.passed
        out["cross-references: 0 unexplained"] = not self.integrity.by_status("unexplained")
        out["joint validity: 100%"] = not self.joint.failures
        return out

    def to_dict(self) -> dict[str, Any]:
        per_type = []
        for t in self.types:
            per_type.append(
                {
                    "error_type": t,
                    "judgement": t in judgement_types(),
                    "instances": self.ngrams[t].instances,
                    "ngrams": {
                        "max_share": self.ngrams[t].max_share,
                        "passed": self.ngrams[t].passed,
                        "top": [asdict(n) for n in self.ngrams[t].top],
                    },
                    "baseline": {**asdict(self.baseline[t]), "passed": self.baseline[t].passed},
                    "position": asdict(self.positions[t]),
                    "joint_failures": len(self.joint.failures_of(t)),
                    "forms": {**asdict(self.forms[t]), "passed": self.forms[t].passed},
                }
            )
        broken = self.integrity.broken
        return {
            "documents": self.documents,
            "instances": self.instances,
            "seed": self.seed,
            "judgement_types": list(judgement_types()),
            "goals": self.goals(),
            "types": per_type,
            "cross_references": {
                "checked": self.integrity.references,
                "unexplained": len(self.integrity.by_status("unexplained")),
                "explained": len(self.integrity.by_status("explained")),
                "pre_existing": len(self.integrity.by_status("pre-existing")),
                "replay_failures": list(self.integrity.replay_failures),
                "broken": [asdict(b) for b in broken],
            },
            "joint_validity": {
                "instances": self.joint.instances,
                "valid_share": self.joint.valid_share,
                "failures": [asdict(f) for f in self.joint.failures],
            },
        }


def audit(release: Release, seed: int = 0) -> Audit:
    known = definitions()
    types = [d.error_type.id for d in known]
    types += sorted({i.error_type for i in release.instances} - set(types))
    wording = audit_ngrams(release, types)
    forget_ngrams()  # nothing after this counts n-grams
    return Audit(
        documents=len(release.documents),
        instances=len(release.instances),
        seed=seed,
        ngrams=wording,
        baseline=audit_baseline(release, types, seed),
        positions=audit_positions(release, types),
        integrity=audit_integrity(release),
        joint=audit_joint(release),
        forms=audit_forms(release, types, {d.error_type.id: d.injector.forms for d in known}),
    )


def audit_release(path: Path, seed: int = 0) -> Audit:
    """The audit of the release folder at `path` (raises AuditInputError when it is not one)."""
    return audit(load_release(Path(path)), seed)


def audit_and_write(release_dir: Path, seed: int = 0) -> Audit:
    """The audit of a release folder, written into it (`validation/audit.json`): what a build runs."""
    result = audit_release(release_dir, seed)
    write_audit(result, release_dir)
    return result


def write_audit(result: Audit, release_dir: Path) -> Path:
    path = Path(release_dir) / AUDIT_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(result.to_dict(), ensure_ascii=False, indent=2) + "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:  # written whole or not at all: a full disk leaves the former audit in place
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def _mark(passed: bool | None) -> str:
    return "" if passed is None else ("ok" if passed else "FAIL")


def rows(result: Audit) -> list[list[str]]:
    """One row per type: instances, top added n-gram and its share, AUC, position, most frequent form,
    joint failures."""
    out = []
    for t in result.types:
        n, b, p, f = result.ngrams[t], result.baseline[t], result.positions[t], result.forms[t]
        judged = t in judgement_types()
        top = f"{n.top[0].ngram} {n.top[0].share:.0%}" if n.top else "-"
        auc = f"{b.auc:.2f}" if b.auc is not None else "skip"
        out.append(
            [
                t + (" *" if judged else ""),
                str(n.instances),
                top,
                _mark(n.passed) if judged and n.instances else "",
                auc,
                _mark(b.passed) if judged else "",
                "-" if p.mean_relative is None else f"{p.mean_relative:.2f}",
                "-" if p.share_last is None else f"{p.share_last:.0%}",
                "-" if f.top is None else f"{f.top} {f.top_share:.0%} of {f.forms}",
                _mark(f.passed),
                str(len(result.joint.failures_of(t))),
            ]
        )
    return out


HEADER = [
    "type",
    "n",
    "top added n-gram",
    "n-gram",
    "AUC",
    "AUC goal",
    "pos",
    "last",
    "top form",
    "form goal",
    "joint fail",
]


def _summary(result: Audit) -> list[str]:
    i = result.integrity
    lines = [
        f"{result.documents} documents, {result.instances} instances; * = judgement type "
        f"(goals: no added n-gram in > {ngrams.GOAL:.0%} of instances, surface AUC <= {baseline.GOAL})",
        f"cross-references: {i.references} checked, {len(i.by_status('unexplained'))} unexplained "
        f"(goal 0), {len(i.by_status('explained'))} broken on purpose, "
        f"{len(i.by_status('pre-existing'))} already unresolved in the original",
        f"joint validity: {result.joint.valid_share:.1%} of {result.joint.instances} instances hold on "
        f"their final document (goal 100%)",
        f"forms: no form in > {form_audit.GOAL:.0%} of a type's instances, for types with "
        f"{form_audit.MIN_FORMS} forms or more and {form_audit.MIN_INSTANCES} instances or more",
    ]
    if i.replay_failures:
        lines.append(f"edits that did not replay to the published text: {len(i.replay_failures)} documents")
    skipped = [f"{t} ({b.skipped})" for t, b in result.baseline.items() if b.skipped and b.positives]
    if skipped:
        lines.append("surface baseline skipped: " + "; ".join(skipped))
    sampled = [f"{t} {b.positives} of {b.sampled_from}" for t, b in result.baseline.items() if b.sampled_from]
    if sampled:
        lines.append("surface baseline fitted on a seeded sample of instances: " + "; ".join(sampled))
    return lines


def _details(result: Audit) -> list[str]:
    lines = []
    unexplained = result.integrity.by_status("unexplained")
    for b in unexplained[:LISTED]:
        lines.append(f"unexplained reference: {b.doc_id} {b.section}: {b.quote} → {b.target} ({b.problem})")
    if len(unexplained) > LISTED:
        lines.append(f"… {len(unexplained) - LISTED} more unexplained references in {AUDIT_FILE}")
    for f in result.joint.failures[:LISTED]:
        lines.append(f"joint failure: {f.error_type} {f.doc_id} {f.location}: {f.reason}")
    if len(result.joint.failures) > LISTED:
        lines.append(f"… {len(result.joint.failures) - LISTED} more joint failures in {AUDIT_FILE}")
    return lines


def render_text(result: Audit) -> str:
    """The audit as a terminal prints it: aligned columns, then the summary and the failures."""
    table = [HEADER, *rows(result)]
    widths = [max(_width(r[c]) for r in table) for c in range(len(HEADER))]
    lines = [
        "  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(r, widths, strict=True)) for r in table
    ]
    return "\n".join([*(line.rstrip() for line in lines), "", *_summary(result), *_details(result)]) + "\n"


def render_markdown(result: Audit) -> str:
    """The audit as the dataset card shows it."""
    cells = [HEADER, ["---"] * len(HEADER), *rows(result)]
    table = "\n".join("| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in cells)
    return table + "\n\n" + "\n".join(f"- {line}" for line in _summary(result)) + "\n"


def _width(text: str) -> int:
    """Columns a string takes on a terminal: CJK characters are two wide."""
    return sum(2 if "\u2e80" <= ch <= "\uffef" else 1 for ch in text)
