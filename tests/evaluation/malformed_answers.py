"""Review answers written the way chat models write them when they miss the JSON format, each with the
errors a careful human reader finds in it. The text is made up for these tests (no standard's text).

Imported by the reader's tests and by bench/answers.py, which prints the share recovered.
"""

from __future__ import annotations

from dataclasses import dataclass

A = '{"location": "5.1", "dimension": "NMS", "error_type": "NMS-01", "description": "“应”误写为“宜”"}'
B = '{"location": "6.2", "dimension": "TER", "error_type": "TER-02", "description": "术语“样品”前后不一致"}'
C = '{"location": "附录A", "dimension": "STR", "error_type": "STR-03", "description": "附录未在正文中提及"}'
PA, PB, PC = ("5.1", "NMS-01"), ("6.2", "TER-02"), ("附录A", "STR-03")


@dataclass(frozen=True)
class Case:
    name: str
    raw: str
    expected: tuple[tuple[str, str], ...]  # (location, error_type) of every error the answer reports
    begun: int | None = None  # errors the text begins, when one is cut off (else: the expected ones)

    @property
    def shown(self) -> int:
        return len(self.expected) if self.begun is None else self.begun


CASES: tuple[Case, ...] = (
    Case("trailing comma after the last item", f"[{A}, {B},]", (PA, PB)),
    Case("trailing commas in objects and array", '[{"location": "5.1", "error_type": "NMS-01",},]', (PA,)),
    Case("citation before the answer", f"依据 GB/T 1.1—2020[1] 的规定，审查结果如下：\n[{A}, {B}]", (PA, PB)),
    Case(
        "two citations then a fenced answer",
        f"参照文献[1]和[2]，发现以下问题：\n```json\n[{A}, {B}, {C}]\n```",
        (PA, PB, PC),
    ),
    Case("full-width opening bracket, ASCII closing", f"［{A}，{B}]", (PA, PB)),
    Case("full-width comma between objects", f"[{A}，{B}]", (PA, PB)),
    Case(
        "full-width colons and commas inside objects",
        '[{"location"："5.1"，"dimension"："NMS"，"error_type"："NMS-01"}，{"location"："6.2"，"error_type"："TER-02"}]',
        (PA, PB),
    ),
    Case(
        "curly quotes as string delimiters",
        "[{“location”：“5.1”，“dimension”：“NMS”，“error_type”：“NMS-01”}]",
        (PA,),
    ),
    Case(
        "curly quotes in one item, ASCII in the next",
        '［{“location”：“5.1”，“error_type”：“NMS-01”}，{"location": "6.2", "error_type": "TER-02"}］',
        (PA, PB),
    ),
    Case(
        "all full-width structure",
        '［｛"location"："5.1"，"error_type"："NMS-01"｝，｛"location"："附录A"，"error_type"："STR-03"｝］',
        (PA, PC),
    ),
    Case(
        "Python literal with single quotes",
        "[{'location': '5.1', 'error_type': 'NMS-01'}, {'location': '6.2', 'error_type': 'TER-02'}]",
        (PA, PB),
    ),
    Case(
        "Python None and True",
        "[{'location': '5.1', 'error_type': 'NMS-01', 'description': None, 'certain': True}]",
        (PA,),
    ),
    Case("missing comma between objects", f"[{A}\n{B}]", (PA, PB)),
    Case(
        "missing comma between fields",
        '[{"location": "5.1" "error_type": "NMS-01"}, {"location": "6.2", "error_type": "TER-02"}]',
        (PA, PB),
    ),
    Case("cut off by the token limit", f'[{A}, {B}, {{"location": "7.1", "dimension": "NR', (PA, PB), 3),
    Case("cut off inside a fence", f"```json\n[{A}, {B}, {C}", (PA, PB, PC)),
    Case(
        "unquoted keys",
        '[{location: "5.1", error_type: "NMS-01"}, {location: "6.2", error_type: "TER-02"}]',
        (PA, PB),
    ),
    Case(
        "unescaped quotes inside a description",
        '[{"location": "5.1", "error_type": "NMS-01", "description": "将"应"改为"宜""}]',
        (PA,),
    ),
    Case("line comments between items", f"[\n  // 第一处\n  {A},\n  // 第二处\n  {B}\n]", (PA, PB)),
    Case("upper-case fence label and closing prose", f"```JSON\n[{A}]\n```\n以上为全部问题。", (PA,)),
    Case("json5 fence", f"```json5\n[{A}, {B},]\n```", (PA, PB)),
    Case("wrapped in errors with a trailing comma", f'{{"errors": [{A}, {B},]}}', (PA, PB)),
    Case(
        "Chinese keys",
        '[{"位置": "5.1", "维度": "NMS", "错误类型": "NMS-01", "描述": "用词不当"}, '
        '{"位置": "6.2", "维度": "TER", "错误类型": "TER-02", "描述": "术语不一致"}]',
        (PA, PB),
    ),
    Case("bracketed note in prose", f"审查意见（见[注1]）：\n\n[{A}, {C}]\n\n[注1] 仅供参考。", (PA, PC)),
    Case("label before the JSON", f"JSON: [{A}, {B}] 以上。", (PA, PB)),
    Case("one object per line", f"{A}\n{B}\n{C}", (PA, PB, PC)),
    Case("one object per line in a fence", f"```json\n{A}\n{B}\n```", (PA, PB)),
    Case(
        "raw newline inside a description",
        '[{"location": "5.1", "error_type": "NMS-01", "description": "第一行\n第二行"}]',
        (PA,),
    ),
    Case("reasoning with brackets first", f"<think>先看[1]，再看{{条款}}。</think>\n[{A}, {B}]", (PA, PB)),
    Case("answer as a JSON string", '"[{\\"location\\": \\"5.1\\", \\"error_type\\": \\"NMS-01\\"}]"', (PA,)),
    Case("ellipsis after the items", f"[{A}, {B}, ...]", (PA, PB)),
    Case("hash comment after the array", f"[{A}] # end of list", (PA,)),
    Case(
        "capitalised keys",
        '[{"Location": "5.1", "Error_Type": "NMS-01"}, {"Location": "6.2", "Error_Type": "TER-02"}]',
        (PA, PB),
    ),
    Case("byte order mark and fence", f"\ufeff```json\n[{A}]\n```", (PA,)),
    Case("tag-wrapped answer", f"<answer>\n[{A}, {B},]\n</answer>", (PA, PB)),
    Case("full-width brackets with trailing comma", f"［{A}，{B}，］", (PA, PB)),
    Case(
        "number location and trailing comma",
        '[{"location": 5.1, "error_type": "NMS-01"}, {"location": 6.2, "error_type": "TER-02"},]',
        (PA, PB),
    ),
    Case("draft then final answer", f"初稿：[{A}]\n\n最终答案：\n```json\n[{A}, {B}]\n```", (PA, PB)),
    Case("errors object with a citation first", f'见[3]。\n{{"errors": [{A}, {C}]}}', (PA, PC)),
    Case(
        "single-quoted strings with full-width commas",
        "[{'location': '5.1'，'error_type': 'NMS-01'}，{'location': '6.2'，'error_type': 'TER-02'}]",
        (PA, PB),
    ),
    Case(
        "markdown bullets around a fence",
        f"- 共发现 3 处问题\n```json\n[{A},\n{B},\n{C},\n]\n```\n- 完",
        (PA, PB, PC),
    ),
    Case(
        "square-bracket section reference inside a string",
        f'[{{"location": "[5.1]", "error_type": "NMS-01"}}, {B}]',
        (("[5.1]", "NMS-01"), PB),
    ),
    Case("empty answer in prose", "经审查，未发现错误：[]", ()),
    Case("empty list in a fence after a citation", "按[1]审查。\n```json\n[]\n```", ()),
)
