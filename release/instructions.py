"""Instruction sets in the PIXIU / TaxPraBen schema, and lm-evaluation-harness tasks that run them.

Every row is {id, query, answer, text, choices, gold} as in PIXIU's FLARE datasets: `query` is the whole
prompt (instruction, the one-shot exemplar if any, the input and "答案："), `text` the bare input,
`answer` the expected output. Classification tasks list their labels in `choices` and `gold` is the
index of the answer; generative tasks have empty `choices` and `gold` = -1. Two more columns say where a
row comes from: `doc_id`, and `exemplar_id` (the id of the zero-shot row used as the one-shot exemplar,
always from a different document; empty for zero-shot).

Tasks (each zero-shot and one-shot):

- review: the corrupted document → the JSON list of its errors (location, dimension, error_type,
  description): the benchmark itself.
- dimension: one changed place (original and corrupted) → its review dimension (5 choices).
- error_type: one changed place → its error type (one choice per registered type).
- localisation: the corrupted document and an error type → the section number(s) where that type occurs.
- correction: one modified section and its error type → the section as it should read.

Two more columns serve lm-eval's own few-shot assembly: `prompt` (the row's input after the instruction)
and `exemplar` (how the row reads when shown as another row's example; for the review task an excerpt of
the sections with errors, so one-shot review prompts stay short). The task YAMLs, their utils.py and the
group are written by release.lm_eval_tasks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, BinaryIO, Required, TypedDict

import pyarrow as pa

from injectors.edit import rename_all
from injectors.instance import ErrorInstance
from injectors.planner import InjectionResult
from injectors.taxonomy import DIMENSIONS, by_id, type_ids, types
from parsers.model import Section
from parsers.render import render_text
from release import lm_eval_tasks
from release.parquet import ParquetRows
from release.tables import gold_entries, ordered_instances, ordered_results

TASKS = ("review", "dimension", "error_type", "localisation", "correction")
SHOTS = ("zero_shot", "one_shot")
DIMENSION_CHOICES = tuple(DIMENSIONS)

INSTRUCTION_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("query", pa.string()),
        ("answer", pa.string()),
        ("text", pa.string()),
        ("choices", pa.list_(pa.string())),
        ("gold", pa.int64()),
        ("doc_id", pa.string()),
        ("exemplar_id", pa.string()),
        ("prompt", pa.string()),
        ("exemplar", pa.string()),
        # the data fingerprint of the release the row belongs to (not its version: two versions of the
        # same rows keep identical rows): lm-eval copies the row into every sample, so `gbtbench score`
        # can refuse samples made on another release's data
        ("release_fingerprint", pa.string()),
    ]
)

_ROLE = "你是标准化文件审查专家，熟悉GB/T 1.1—2020《标准化工作导则　第1部分：标准化文件的结构和起草规则》。"
_DIMENSION_LIST = "、".join(f"{code}（{zh}）" for code, (zh, _) in DIMENSIONS.items())


def _instructions(task: str) -> str:
    """The instruction of one task; the type list is read from the registry when a release is written."""
    type_list = "\n".join(f"{t.id} {t.name_zh}" for t in types())
    instructions = {
        "review": (
            f"{_ROLE}请审查下面的标准文件，找出其中全部的起草错误。审查维度：{_DIMENSION_LIST}。错误类型：\n{type_list}\n"
            "以JSON数组作答，每个错误一个对象："
            '{"location": 章条编号（如"5.2.1""附录A""前言"）, "dimension": 维度代码, '
            '"error_type": 错误类型代码, '
            '"description": "错误：…；修改建议：…；依据：…"}。只输出JSON数组。'
        ),
        "dimension": (
            f"{_ROLE}下面是标准文件中被改动的一处内容（改动前后对照）。请判断其中的错误属于哪个审查维度。"
            f"选项：{_DIMENSION_LIST}。只回答维度代码。"
        ),
        "error_type": (
            f"{_ROLE}下面是标准文件中被改动的一处内容（改动前后对照）。请判断其中的错误属于哪种错误类型。"
            f"选项：\n{type_list}\n只回答错误类型代码。"
        ),
        "localisation": (
            f"{_ROLE}下面的标准文件中存在指定类型的错误。请指出错误所在的章条编号（如“5.2.1”“附录A”“前言”）；"
            "若有多处，按在文件中出现的顺序用“、”分隔。只回答编号。"
        ),
        "correction": (
            f"{_ROLE}下面这一部分存在指定类型的错误。请改正该错误，输出改正后的完整内容（第一行为标题，其后为正文），"
            "不要改动与该错误无关的内容。只输出改正后的内容。"
        ),
    }
    return instructions[task]


class _TaskSpec(TypedDict, total=False):
    output_type: Required[str]
    max_gen_toks: int


_YAML_TEMPLATE: dict[str, _TaskSpec] = {
    "review": {"output_type": "generate_until", "max_gen_toks": 4096},
    "dimension": {"output_type": "multiple_choice"},
    "error_type": {"output_type": "multiple_choice"},
    "localisation": {"output_type": "generate_until", "max_gen_toks": 64},
    "correction": {"output_type": "generate_until", "max_gen_toks": 2048},
}


@dataclass(frozen=True)
class Example:
    """One task input before it becomes a row: the part of the prompt that varies, and its answer."""

    key: str  # unique within the task: doc_id, instance_id or doc_id:error_type
    doc_id: str
    prompt: str  # the input as shown after the instruction (may include a per-example hint)
    text: str
    answer: str
    choices: tuple[str, ...] = ()
    gold: int = -1
    shown: str = ""  # the prompt when this example is another's exemplar (empty: `prompt`)


def _section_text(section: Section) -> str:
    return f"{section.heading}\n{section.text}" if section.text else section.heading


def _change_text(instance: ErrorInstance) -> str:
    """Before and after of one instance, as a reviewer of the change would see it."""
    before = (
        "（原文件中没有这一部分）"
        if instance.original_section is None
        else _section_text(instance.original_section)
    )
    if instance.corrupted_section is None:
        after = "（这一部分已被删除）"
    elif instance.edit.op == "move":
        after = f"（这一部分被移动到了新的位置）\n{_section_text(instance.corrupted_section)}"
    else:
        after = _section_text(instance.corrupted_section)
    return f"位置：{instance.location}\n改动前：\n{before}\n改动后：\n{after}"


def _review(result: InjectionResult) -> list[Example]:
    text = render_text(result.corrupted)
    gold = gold_entries(result)
    answer = json.dumps(gold, ensure_ascii=False)
    places = {g["location"] for g in gold}
    sections = tuple(s for s in result.corrupted.sections if s.number in places)
    excerpt = replace(result.corrupted, sections=sections)
    shown = f"文件（节选：只列出有错误的部分）：\n{render_text(excerpt)}"
    doc_id = result.original.doc_id
    return [Example(doc_id, doc_id, f"文件：\n{text}", text, answer, shown=shown)]


def _classification(result: InjectionResult, by: str) -> list[Example]:
    examples = []
    for instance in ordered_instances(result):
        text = _change_text(instance)
        if by == "dimension":
            choices, label = DIMENSION_CHOICES, instance.dimension
        else:
            choices, label = type_ids(), instance.error_type
        examples.append(
            Example(
                instance.instance_id, instance.doc_id, text, text, label, tuple(choices), choices.index(label)
            )
        )
    return examples


def _localisation(result: InjectionResult) -> list[Example]:
    text = render_text(result.corrupted)
    locations: dict[str, list[str]] = {}
    for instance in ordered_instances(result):
        places = locations.setdefault(instance.error_type, [])
        if instance.location not in places:
            places.append(instance.location)
    examples = []
    for error_type in sorted(locations):
        kind = by_id()[error_type]
        hint = f"错误类型：{error_type} {kind.name_zh}（{DIMENSIONS[kind.dimension][0]}）"
        doc_id = result.original.doc_id
        examples.append(
            Example(
                f"{doc_id}:{error_type}",
                doc_id,
                f"{hint}\n文件：\n{text}",
                text,
                "、".join(locations[error_type]),
            )
        )
    return examples


def _correction(result: InjectionResult) -> list[Example]:
    """One example per in-section edit: the corrupted section → that section with only this error undone.

    The answer is the original section under the document's other renumberings (what the reader sees once
    this one error is fixed), so an edit that only renumbered the section (STR-04, TER-05) is undone too.
    An edit that removes, moves or adds a section leaves no section to rewrite in place and is left out;
    the dataset card says why for the types none of whose edits can have one (`ErrorType.no_correction`).
    """
    examples = []
    for instance in ordered_instances(result):
        if (
            instance.edit.op != "modify"
            or instance.original_section is None
            or instance.corrupted_section is None
        ):
            continue
        kind = by_id()[instance.error_type]
        text = _section_text(instance.corrupted_section)
        others = [r for i in result.instances if i is not instance for r in i.edit.renames]
        original = instance.original_section
        fixed = _section_text(replace(original, number=rename_all(original.number, others)))
        if fixed == text:  # nothing this task could ask for; never seen in the corpus (tested)
            continue
        hint = f"错误类型：{instance.error_type} {kind.name_zh}"
        examples.append(
            Example(instance.instance_id, instance.doc_id, f"{hint}\n内容：\n{text}", text, fixed)
        )
    return examples


def _document_examples(result: InjectionResult, task: str) -> list[Example]:
    if task == "review":
        return _review(result)
    if task in ("dimension", "error_type"):
        return _classification(result, task)
    if task == "localisation":
        return _localisation(result)
    if task == "correction":
        return _correction(result)
    raise ValueError(f"unknown task {task!r}: expected one of {', '.join(TASKS)}")


def examples_by_document(results: Sequence[InjectionResult], task: str) -> Iterator[list[Example]]:
    """A task's examples one document at a time, by doc_id (documents with none left out): a whole
    release's examples at once would hold every document several times over."""
    for result in ordered_results(results):
        examples = _document_examples(result, task)
        if examples:
            yield examples


def task_examples(results: Sequence[InjectionResult], task: str) -> list[Example]:
    """A task's examples over the build, by doc_id and then document order."""
    if task not in TASKS:
        raise ValueError(f"unknown task {task!r}: expected one of {', '.join(TASKS)}")
    return [e for examples in examples_by_document(results, task) for e in examples]


def exemplars(examples: Sequence[Example]) -> list[Example | None]:
    """Per example, the one at the same rank in the next document (cyclically) that has any.

    Deterministic and never from the example's own document; None when no other document has examples.
    """
    by_doc: dict[str, list[Example]] = {}
    for e in examples:
        by_doc.setdefault(e.doc_id, []).append(e)
    pairs = {id(e): exemplar for e, exemplar in _with_exemplars(iter(by_doc.values()))}
    return [pairs.get(id(e)) for e in examples]


def _with_exemplars(documents: Iterator[list[Example]]) -> Iterator[tuple[Example, Example]]:
    """(example, its exemplar) over documents in order, holding only the current document, the next one
    and the first (the last document's exemplars come from the first); none for a lone document."""
    first = next(documents, None)
    if first is None:
        return
    current = first
    for following in documents:
        yield from ((e, following[n % len(following)]) for n, e in enumerate(current))
        current = following
    if current is not first:
        yield from ((e, first[n % len(first)]) for n, e in enumerate(current))


def _as_exemplar(example: Example) -> str:
    return f"{example.shown or example.prompt}\n答案："


def _row(
    task: str, shot: str, example: Example, exemplar: Example | None, instruction: str
) -> dict[str, Any]:
    """A row; its query is exactly what lm-eval assembles from description (`instruction`: the task's,
    read once per task, not per row), exemplar and prompt."""
    shown = f"示例：\n{_as_exemplar(exemplar)}{exemplar.answer}\n\n" if exemplar is not None else ""
    return {
        "id": f"{task}_{shot}_{example.key}",
        "query": f"{instruction}\n\n{shown}{example.prompt}\n答案：",
        "answer": example.answer,
        "text": example.text,
        "choices": list(example.choices),
        "gold": example.gold,
        "doc_id": example.doc_id,
        "exemplar_id": "" if exemplar is None else f"{task}_zero_shot_{exemplar.key}",
        "prompt": f"{example.prompt}\n答案：",
        "exemplar": _as_exemplar(example),
    }


def instruction_rows(results: Sequence[InjectionResult], task: str, shot: str) -> list[dict[str, Any]]:
    """Rows of one task and shot; a one-shot row is left out when no other document has an exemplar."""
    if shot not in SHOTS:
        raise ValueError(f"unknown shot {shot!r}: expected one of {', '.join(SHOTS)}")
    examples, instruction = task_examples(results, task), _instructions(task)
    if shot == "zero_shot":
        return [_row(task, shot, e, None, instruction) for e in examples]
    return [
        _row(task, shot, example, exemplar, instruction)
        for example, exemplar in zip(examples, exemplars(examples), strict=True)
        if exemplar is not None
    ]


def lm_eval_task(task: str, shot: str, data_file: str) -> dict[str, Any]:
    """An lm-evaluation-harness (0.4.x) task config reading one JSONL file beside it."""
    spec = _YAML_TEMPLATE[task]
    return lm_eval_tasks.task_config(
        task,
        shot,
        data_file,
        instruction=_instructions(task),
        output_type=spec["output_type"],
        max_gen_toks=spec.get("max_gen_toks", 0),
    )


@dataclass(frozen=True)
class InstructionFiles:
    """What was written for one task and shot (paths relative to the instructions folder)."""

    task: str
    shot: str
    rows: int
    jsonl: str
    parquet: str
    yaml: str
    sha256: str  # the Parquet rows' content hash (`release.parquet.parquet_hash`)


class _ShotFiles:
    """One task and shot's JSONL and Parquet, written a row at a time (opened at the first row)."""

    def __init__(self, out_dir: Path, task: str, shot: str, fingerprint: str = "") -> None:
        self.out_dir, self.task, self.shot = out_dir, task, shot
        self.release = {"release_fingerprint": fingerprint}
        self.instruction = _instructions(task)
        self.stem = f"{task}_{shot}"
        self.rows = 0
        self._jsonl: BinaryIO | None = None
        self._parquet: ParquetRows | None = None

    def add(self, row: dict[str, Any]) -> None:
        if self._jsonl is None:
            self._jsonl = (self.out_dir / f"{self.stem}.jsonl").open("wb")
            self._parquet = ParquetRows(self.out_dir / f"{self.stem}.parquet", INSTRUCTION_SCHEMA)
        assert self._parquet is not None
        # one encoding per row: the JSONL line is the canonical JSON the Parquet rows' hash reads
        self._jsonl.write(self._parquet.add({**row, **self.release}) + b"\n")
        self.rows += 1

    def close(self) -> InstructionFiles | None:
        """The files written (None: no row, no file); the lm-eval task is written beside them."""
        if self._jsonl is None or self._parquet is None:
            return None
        self._jsonl.close()
        rows_hash = self._parquet.close()
        config = lm_eval_task(self.task, self.shot, f"{self.stem}.jsonl")
        yaml_name = f"gbtbench_{self.stem}.yaml"
        (self.out_dir / yaml_name).write_text(lm_eval_tasks.dump(config), encoding="utf-8")
        return InstructionFiles(
            self.task,
            self.shot,
            self.rows,
            f"{self.stem}.jsonl",
            f"{self.stem}.parquet",
            yaml_name,
            rows_hash,
        )


def write_instructions(
    results: Sequence[InjectionResult], out_dir: Path, fingerprint: str = ""
) -> list[InstructionFiles]:
    """JSONL, Parquet and lm-eval YAML per task and shot, both shots in one pass over the documents;
    every row names the release's data `fingerprint`.

    Rows are streamed to disk: a localisation row carries its whole document several times, so a large
    release's rows would not fit in memory at once.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for task in TASKS:
        zero = _ShotFiles(out_dir, task, "zero_shot", fingerprint)
        one = _ShotFiles(out_dir, task, "one_shot", fingerprint)
        for example, exemplar in _with_exemplars(_zero_shot(examples_by_document(results, task), zero)):
            one.add(_row(task, "one_shot", example, exemplar, one.instruction))
        written += [f for f in (zero.close(), one.close()) if f is not None]
    lm_eval_tasks.write_support(out_dir, [f"gbtbench_review_{w.shot}" for w in written if w.task == "review"])
    (out_dir / "README.md").write_text(_readme(written), encoding="utf-8")
    return written


def _zero_shot(documents: Iterator[list[Example]], files: _ShotFiles) -> Iterator[list[Example]]:
    """Each document's examples, passed on after their zero-shot rows are written."""
    for examples in documents:
        for example in examples:
            files.add(_row(files.task, "zero_shot", example, None, files.instruction))
        yield examples


def _readme(written: list[InstructionFiles]) -> str:
    lines = [
        "# gbtbench instruction sets",
        "",
        "PIXIU / TaxPraBen schema: `{id, query, answer, text, choices, gold}`, plus `doc_id`, `exemplar_id`.",
        "Classification tasks: `gold` indexes `choices`. Generative tasks: `choices` is empty, `gold` is -1.",
        "",
        "Run with lm-evaluation-harness from any directory (utils.py finds the data beside it), or read the",
        "published release from the Hub with `--metadata`:",
        "",
        "```bash",
        "lm_eval --model <model> --model_args <args> --include_path path/to/instructions --tasks gbtbench",
        "lm_eval ... --include_path path/to/instructions --tasks gbtbench_review \\",
        '    --metadata \'{"dataset": "ORG/NAME", "revision": "v0.1.0"}\'',
        "```",
        "",
        "| task | shot | rows | data | lm-eval task |",
        "|---|---|---|---|---|",
    ]
    for w in written:
        lines.append(f"| {w.task} | {w.shot} | {w.rows} | `{w.jsonl}`, `{w.parquet}` | `{w.yaml[:-5]}` |")
    lines.append("")
    lines.append(
        "The review task reports the GB/T-Bench reference protocol's diagnosis recall, DMTR_1/5/10 and CMCS "
        "(group `gbtbench_review`: both shots in one aggregate); `gbtbench score` on lm-eval's --log_samples "
        "output adds our protocol (precision, F1, intervals). One-shot tasks run as lm-eval 1-shot tasks "
        "with the exemplar each row names. Exact match on the other generative tasks is a smoke test."
    )
    return "\n".join(lines) + "\n"
