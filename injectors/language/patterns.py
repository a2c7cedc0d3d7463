"""Line and text patterns every dimension reads the same way: Chinese characters, notes and examples,
captions, cited standard numbers, and the refusals an LLM may write instead of an answer.
"""

from __future__ import annotations

import regex

HAN = regex.compile(r"\p{Han}")  # a Chinese character
HAN_WORD = regex.compile(r"\p{Han}+")  # with fullmatch: a word of Chinese characters only

# A note or an example (条文的注、示例), the places where a provision must not stand.
NOTE = regex.compile(r"^\s*注\s*[0-9０-９]*\s*[：:]")
EXAMPLE = regex.compile(r"^\s*示例\s*[0-9０-９]*\s*(?:[：:]|$)")
# Any line that opens a note or an example, also as a table row ("| 注：") or numbered without a colon
# ("注 2 所列……"), or "注" alone on its line with the note below.
NOTE_LINE = regex.compile(
    r"^\s*(?:\|\s*)?(?:注\s*[0-9０-９]*\s*[：:]|注\s*[0-9０-９]+\s|注\s*$|示例\s*[0-9０-９]*\s*(?:[：:]|$))"
)

CAPTION = regex.compile(r"^\s*(?:表|图)\s*[A-Z]?\s*[.．]?\s*\d")

# A cited standard number ("GB/T 1.1", "ISO/IEC 27001", "T/CSAE 53", "HJ 212", "JJF 1059") or an annex.
STANDARD_NUMBER = regex.compile(
    r"(?:GB|ISO|IEC|ITU|IEEE|[A-Z]{2,4}/[TZ]|T/[A-Z]{2,12}|HJ|JJF|JJG)\s*/?\s*[TZ]?\s*\d"
)
CITATION = regex.compile(rf"{STANDARD_NUMBER.pattern}|附\s*录\s*[A-Z]")

# A refusal or an apology in place of the rewrite asked for, in Chinese or English.
REFUSAL = regex.compile(
    r"抱歉|对不起|很遗憾|我(?:不能|无法|不会|没法)|无法(?:帮助|协助|完成|提供|满足)|不能(?:帮助|协助|提供)"
    r"|作为(?:一个|一名)?(?:AI|人工智能|语言模型|助手)|我是(?:一个)?(?:AI|人工智能|语言模型)"
    r"|(?i:\bsorry\b|\bapologi[sz]e|\bI\s*(?:can(?:no|')?t|am\s+unable|won't|'m\s+unable|'m\s+sorry|am\s+sorry)"
    r"|\bas\s+an\s+AI\b|language\s+model|cannot\s+(?:assist|help)\s+with)"
)
