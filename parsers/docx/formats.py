"""Word number formats: how a list counter value prints (decimal, chineseCounting, letters, roman …).

Also the symbol-font characters (Symbol, Wingdings) that Word stores as private-use code points, so a
bullet or a "±" typed in a symbol font reads as the character it shows.
"""

from __future__ import annotations

_CHINESE_DIGITS = "零一二三四五六七八九"
_LEGAL_DIGITS = "零壹贰叁肆伍陆柒捌玖"
_HEAVENLY_STEMS = "甲乙丙丁戊己庚辛壬癸"
_EARTHLY_BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
_CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
_PAREN = "⑴⑵⑶⑷⑸⑹⑺⑻⑼⑽⑾⑿⒀⒁⒂⒃⒄⒅⒆⒇"
_FULLSTOP = "⒈⒉⒊⒋⒌⒍⒎⒏⒐⒑⒒⒓⒔⒕⒖⒗⒘⒙⒚⒛"
# Symbol-font characters (Word stores them as U+F0xx with the font's own code): Greek letters and the
# signs technical text uses, so "±0.5 ℃" typed in Symbol reads as such.
_SYMBOL_FONT = dict(
    zip(
        [*range(0x41, 0x5B), *range(0x61, 0x7B)],
        "ΑΒΧΔΕΦΓΗΙϑΚΛΜΝΟΠΘΡΣΤΥςΩΞΨΖαβχδεφγηιϕκλμνοπθρστυϖωξψζ",
        strict=True,
    )
) | {
    0x22: "∀", 0x24: "∃", 0x2D: "−", 0x5E: "⊥", 0x7E: "∼", 0xA2: "′", 0xA3: "≤", 0xA5: "∞",
    0xAC: "←", 0xAD: "↑", 0xAE: "→", 0xAF: "↓", 0xB0: "°", 0xB1: "±", 0xB2: "″", 0xB3: "≥",
    0xB4: "×", 0xB6: "∂", 0xB7: "•", 0xB8: "÷", 0xB9: "≠", 0xBA: "≡", 0xBB: "≈", 0xBC: "…",
    0xC6: "∅", 0xC7: "∩", 0xC8: "∪", 0xCE: "∈", 0xD1: "∇", 0xD6: "√", 0xD7: "⋅", 0xD8: "¬",
    0xD9: "∧", 0xDA: "∨", 0xDB: "⇔", 0xDE: "⇒", 0xE5: "∑", 0xF2: "∫",
}  # fmt: skip
_WINGDINGS = {0x6C: "●", 0x6E: "■", 0x75: "◆", 0x76: "❖", 0xA7: "▪", 0xA8: "◆", 0xD8: "➢", 0xFC: "✓"}


def _font_char(code: int, font: str | None) -> str:
    """A character of a symbol font as Unicode; unknown private-use characters print as a bullet."""
    low = code & 0xFF if code >= 0xF000 or code < 0x100 else None
    name = (font or "").lower()
    if low is not None and name.startswith("wingdings") and low in _WINGDINGS:
        return _WINGDINGS[low]
    if low is not None and (name == "symbol" or code >= 0xF000) and low in _SYMBOL_FONT:
        return _SYMBOL_FONT[low]
    return "•" if 0xE000 <= code <= 0xF8FF else chr(code)


def _letters(n: int, upper: bool) -> str:
    """Word's letter numbering: A … Z, AA … ZZ, AAA … (the letter repeats)."""
    if n < 1:
        return str(n)
    letter = chr(ord("A") + (n - 1) % 26) * ((n - 1) // 26 + 1)
    return letter if upper else letter.lower()


def _roman(n: int, upper: bool) -> str:
    if not 0 < n < 4000:
        return str(n)
    out = ""
    for value, symbol in (
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ):
        count, n = divmod(n, value)
        out += symbol * count
    return out if upper else out.lower()


def _chinese(n: int, digits: str = _CHINESE_DIGITS, ten: str = "十", hundred: str = "百") -> str:
    """Chinese counting (一 … 十 … 九十九, 一百 … 九百九十九), as Word's chineseCounting shows it."""
    if not 0 <= n < 1000:
        return str(n)
    if n < 10:
        return digits[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return (digits[tens] if tens > 1 else "") + ten + (digits[ones] if ones else "")
    hundreds, rest = divmod(n, 100)
    if rest == 0:
        tail = ""
    elif rest < 10:
        tail = digits[0] + digits[rest]  # 一百零五
    elif rest < 20:
        tail = digits[1] + _chinese(rest, digits, ten, hundred)  # 一百一十五
    else:
        tail = _chinese(rest, digits, ten, hundred)
    return digits[hundreds] + hundred + tail


def format_number(n: int, fmt: str) -> str:
    """One counter value printed in a w:numFmt (unknown formats print as decimal, as Word falls back)."""
    if fmt in ("none", "bullet"):
        return ""
    if fmt in ("upperLetter", "lowerLetter"):
        return _letters(n, fmt == "upperLetter")
    if fmt in ("upperRoman", "lowerRoman"):
        return _roman(n, fmt == "upperRoman")
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt in ("decimalFullWidth", "decimalFullWidth2"):
        return str(n).translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    if fmt in (
        "chineseCounting",
        "chineseCountingThousand",
        "japaneseCounting",
        "taiwaneseCounting",
        "taiwaneseCountingThousand",
        "koreanCounting",
    ):
        return _chinese(n)
    if fmt == "ideographDigital":
        return str(n).translate(str.maketrans("0123456789", "〇一二三四五六七八九"))
    if fmt == "chineseLegalSimplified":
        return _chinese(n, _LEGAL_DIGITS, "拾", "佰")
    if fmt == "ideographTraditional" and 1 <= n <= 10:
        return _HEAVENLY_STEMS[n - 1]
    if fmt == "ideographZodiac" and 1 <= n <= 12:
        return _EARTHLY_BRANCHES[n - 1]
    if (
        fmt in ("decimalEnclosedCircle", "decimalEnclosedCircleChinese", "ideographEnclosedCircle")
        and 1 <= n <= 20
    ):
        return _CIRCLED[n - 1]
    if fmt == "decimalEnclosedParen" and 1 <= n <= 20:
        return _PAREN[n - 1]
    if fmt == "decimalEnclosedFullstop" and 1 <= n <= 20:
        return _FULLSTOP[n - 1]
    if fmt == "ordinal":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return str(n)
