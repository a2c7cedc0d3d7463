"""OOXML names and attribute readers shared by the DOCX modules (namespaces, tags, Word toggles)."""

from __future__ import annotations

from lxml import etree

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"


def _w(tag: str) -> str:
    return f"{{{W_NS}}}{tag}"


P, TBL, TR, TC, R, T = _w("p"), _w("tbl"), _w("tr"), _w("tc"), _w("r"), _w("t")
PPR, RPR, SDT, SDT_CONTENT = _w("pPr"), _w("rPr"), _w("sdt"), _w("sdtContent")
TXBX_CONTENT = _w("txbxContent")
ALTERNATE_CONTENT = f"{{{MC_NS}}}AlternateContent"
MC_CHOICE, MC_FALLBACK = f"{{{MC_NS}}}Choice", f"{{{MC_NS}}}Fallback"
VAL = _w("val")


def _val(el: etree._Element | None, attr: str = VAL) -> str | None:
    return None if el is None else el.get(attr)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _on(el: etree._Element | None) -> bool:
    """A Word toggle property: present and not switched off."""
    return el is not None and el.get(VAL, "true").lower() not in ("0", "false", "off")


def _on_attr(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true", "on")
