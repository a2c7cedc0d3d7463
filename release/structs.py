"""Typed Arrow structs for the nested columns of a release, so viewers and filters see fields, not JSON.

`items.gold`, `items.pre_existing`, `instances.edit` and `instances.provenance` are lists of structs or
structs with fixed fields. The converters here are the only place that turns an `Edit`, an
`InjectionProvenance` or a gold entry into a row and back: `edit_from_row(row["edit"]) == instance.edit`.
A provenance field the schema does not know is refused loudly, so a new field cannot vanish silently.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

import pyarrow as pa

from injectors.edit import Edit
from injectors.edit import edit_from_row as edit_from_row
from injectors.instance import InjectionProvenance
from parsers.model import Section

SECTION_STRUCT = pa.struct(
    [
        ("number", pa.string()),
        ("title", pa.string()),
        ("text", pa.string()),
        ("level", pa.int32()),
        ("kind", pa.string()),
        ("annex_marker", pa.string()),
    ]
)
REPLACEMENT_STRUCT = pa.struct(
    [("field", pa.string()), ("start", pa.int32()), ("old", pa.string()), ("new", pa.string())]
)
RENAME_STRUCT = pa.struct([("old", pa.string()), ("new", pa.string())])
EDIT_STRUCT = pa.struct(
    [
        ("op", pa.string()),  # modify | remove | insert | move
        ("target", pa.int32()),  # position of the section in the original document
        ("replacements", pa.list_(REPLACEMENT_STRUCT)),
        ("span", pa.int32()),
        ("inserted", SECTION_STRUCT),  # insert: the new section (null otherwise)
        ("before", pa.int32()),  # move: position of the section it now precedes (null: the end)
        ("renames", pa.list_(RENAME_STRUCT)),  # number prefixes renamed in the whole document
    ]
)
PROVENANCE_STRUCT = pa.struct(
    [
        ("generator", pa.string()),  # rule | rule-template | llm
        ("injector_version", pa.string()),
        ("seed", pa.int64()),
        ("model", pa.string()),
        ("prompt_id", pa.string()),
        ("cache_key", pa.string()),
        ("fallback_reason", pa.string()),
        ("llm_attempts", pa.int32()),
        ("llm_failures", pa.list_(pa.string())),
        ("form", pa.string()),  # which of its type's forms the error takes (null: the type has one)
    ]
)
GOLD_STRUCT = pa.struct(
    [
        ("location", pa.string()),
        ("dimension", pa.string()),
        ("error_type", pa.string()),
        ("description", pa.string()),
    ]
)
VIOLATION_STRUCT = pa.struct(
    [
        ("location", pa.string()),
        ("dimension", pa.string()),
        ("error_type", pa.string()),
        ("message", pa.string()),
    ]
)
GOLD_LIST = pa.list_(GOLD_STRUCT)
VIOLATION_LIST = pa.list_(VIOLATION_STRUCT)


class UnknownProvenanceField(ValueError):
    """An instance's provenance has a field the release schema has no column for."""


def _names(struct: pa.StructType) -> list[str]:
    return [struct.field(i).name for i in range(struct.num_fields)]


def section_row(section: Section | None) -> dict[str, Any] | None:
    if section is None:
        return None
    return {name: getattr(section, name) for name in _names(SECTION_STRUCT)}


def edit_row(edit: Edit) -> dict[str, Any]:
    """The edit with every field typed; renames as {old, new} instead of pairs."""
    return {
        "op": edit.op,
        "target": edit.target,
        "replacements": [
            {"field": r.field, "start": r.start, "old": r.old, "new": r.new} for r in edit.replacements
        ],
        "span": edit.span,
        "inserted": section_row(edit.inserted),
        "before": edit.before,
        "renames": [{"old": old, "new": new} for old, new in edit.renames],
    }


def provenance_row(provenance: InjectionProvenance) -> dict[str, Any]:
    """Every provenance field in its column; one the schema lacks is an error, not a silent loss."""
    known = _names(PROVENANCE_STRUCT)
    values = {f.name: getattr(provenance, f.name) for f in fields(provenance)}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise UnknownProvenanceField(
            f"provenance field(s) {', '.join(unknown)} have no column: add them to release.structs"
        )
    row = {name: values.get(name) for name in known}
    if row["llm_failures"] is not None:
        row["llm_failures"] = list(row["llm_failures"])
    return row
