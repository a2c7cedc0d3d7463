"""The shortcut audit of a release: can its errors be found by pattern instead of by reviewing?

`audit_release(path)` reads a release folder's tables and measures, per error type, the stock wording its
injectors add (ngrams), a surface classifier's ROC AUC (baseline), where its errors sit (position), how
often it takes its most frequent form (forms), and,
per document, whether cross-references still resolve (integrity) and every instance still holds with all
the others applied (joint). `gbtbench audit` prints it and writes `validation/audit.json`; the build puts
the table into the dataset card. Plain Python: no Prefect, no release writer.
"""

from validation.audit.release import AuditInputError
from validation.audit.report import (
    AUDIT_FILE,
    Audit,
    audit_and_write,
    audit_release,
    judgement_types,
    render_markdown,
    render_text,
    write_audit,
)

__all__ = [
    "AUDIT_FILE",
    "Audit",
    "AuditInputError",
    "audit_and_write",
    "audit_release",
    "judgement_types",
    "render_markdown",
    "render_text",
    "write_audit",
]
