"""The DOCX reader, split along its seams: package safety, styles and numbering, number formats, body walk.

`package` refuses unsafe or non-DOCX files before any part is parsed; `styles` reads styles and
numbering.xml and replays Word's list counters; `formats` prints counter values (decimal,
chineseCounting, letters …); `body` walks paragraphs and tables into lines; `reader` ties them
together and hands the lines to the shared assembler.
"""

from parsers.docx.formats import format_number
from parsers.docx.reader import parse_docx, read_lines

__all__ = ["format_number", "parse_docx", "read_lines"]
