"""What lines of a standard's PDF look like: page numbers, contents rows, list items, sentence ends."""

from __future__ import annotations

import re

_SPACE = re.compile(r"\s+")


_DIGITS = re.compile(r"\d+")


_WORDY = re.compile(r"[^\W\d_]")  # letters and CJK characters


_LINE = re.compile(r"[^\r\n]+")


_TOKEN = re.compile(r"\S+")


# Unicode non-characters: pdfium writes U+FFFE where a word is hyphenated at a line end, and none of
# them is text (the planes' last two code points and U+FDD0..U+FDEF)
_PLANE_ENDS = "".join(chr(plane * 0x10000 + 0xFFFE) + chr(plane * 0x10000 + 0xFFFF) for plane in range(17))
_NONCHARACTER = re.compile(f"[\ufdd0-\ufdef{_PLANE_ENDS}]")


_PAGE_NUMBER = re.compile(
    r"^(?:[-—–－~·\s]*(?:\d{1,4}|[IVX]{1,6}|[ivx]{1,6}|[Ⅰ-Ⅻ]|[ⅰ-ⅻ])[-—–－~·\s]*"
    r"|第\s*\d{1,4}\s*页(?:\s*[/，,]?\s*共\s*\d{1,4}\s*页)?|\d{1,4}\s*/\s*\d{1,4})$"
)


_TOC_LINE = re.compile(r"(?:[.．…·⋯_]{3,}|\s{3,})\s*[0-9IVXLⅠ-Ⅻ]+\s*$")


_NOT_LONE_PUNCTUATION = set("—-#*•·")


_SENTENCE_END = re.compile(r"[。；！？：.;!?:][）)」』”\"’]*$")


_LIST_START = re.compile(
    r"^(?:——|[•·●▪]|[a-z][)）]|\d{1,2}[)）]|[(（][a-z\d]{1,2}[)）]|"
    r"注\s*\d{0,2}\s*[：:]|注\s*\d{1,2}(?=\s)|示例\s*\d{0,2}\s*[：:]?)"
)


_REFERENCE = re.compile(
    r"^(?:\[\d{1,3}\]|(?:GB/[TZ]|GB|ISO/IEC|ISO|IEC|[A-Z]{1,5}/[TZ]|T/[A-Z]{2,12}|[A-Z]{2,5})\s*\d)"
)


_REFERENCE_CHAPTERS = ("规范性引用文件", "引用标准", "引用文件", "参考文献")


_LATIN_END = re.compile(r"[A-Za-z0-9,.;:%)\]]$")


_LATIN_START = re.compile(r"^[A-Za-z0-9(\[]")


_MAY_BE_HEADING = re.compile(r"^[\s\u3000]*[0-9０-９A-ZＡ-Ｚ附前序引参索目]")


_FIRST_TOKEN = re.compile(r"^[A-Za-z0-9.,/%_\-+:]+")
