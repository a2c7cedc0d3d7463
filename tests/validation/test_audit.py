"""The shortcut audit on small releases the tests write themselves (no text from any real standard).

Each release is real Parquet written by the release table builders from documents and instances built
here, so the audit reads exactly what a build publishes.
"""

from __future__ import annotations

import gc
import json
import random
import subprocess
import sys
import weakref
from dataclasses import replace
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from injectors.context import InjectionContext
from injectors.edit import Edit, Replacement, apply_edits
from injectors.instance import ErrorInstance, InjectionProvenance
from injectors.language.crossrefs import find_crossrefs, unresolved
from injectors.planner import InjectionResult, PlanConfig, candidate_instances
from parsers.model import Document, Section
from release.beside import beside
from release.tables import documents_table, instances_table, sections_table
from tests.injectors.test_final_descriptions import THREE_GRADES
from tests.injectors.types.nms.nms_documents import access_document
from validation.audit import AUDIT_FILE, audit_and_write, audit_release, render_markdown, render_text
from validation.audit.baseline import surface_auc
from validation.audit.integrity import audit_integrity
from validation.audit.joint import audit_joint
from validation.audit.release import AuditInputError, load_release

ROOT = Path(__file__).resolve().parents[2]
NOUNS = [
    "采集单元", "传感模块", "控制终端", "存储介质", "通信接口", "显示面板", "供电组件", "报警装置",
    "校准器具", "防护外壳", "连接线缆", "数据网关", "巡检机器", "定位标签", "计量表具", "密封部件",
]  # fmt: skip
VERBS = ["采集", "传输", "记录", "校验", "显示", "存储", "上报", "比对", "计算", "标定"]
QUALITIES = ["稳定", "可靠", "完整", "准确", "及时", "清晰", "安全", "一致"]
# words no generated document uses: what a varied injector might add, one pair per instance
FRESH = [
    ("晨雾", "蜂巢"), ("琥珀", "灯塔"), ("松柏", "瀑布"), ("珊瑚", "麦穗"), ("棉絮", "竹笛"),
    ("陶罐", "银杏"), ("贝壳", "风铃"), ("玉兰", "石磨"), ("芦苇", "铜镜"), ("稻田", "纸鸢"),
]  # fmt: skip


def sentence(rng: random.Random) -> str:
    a, b = rng.sample(NOUNS, 2)
    return f"{a}应{rng.choice(VERBS)}{b}的数据，结果应{rng.choice(QUALITIES)}。"


def standard(n: int, *, extra: dict[str, str] | None = None, terms: bool = False) -> Document:
    """A small standard: scope, optional terms, chapter 5 with clauses 5.1–5.4, chapter 6."""
    rng = random.Random(n)
    extra = extra or {}
    sections = [
        Section("1", "范围", f"本文件规定了{rng.choice(NOUNS)}的{rng.choice(VERBS)}要求。", 1, "scope"),
    ]
    if terms:
        sections += [
            Section("3", "术语和定义", "下列术语和定义适用于本文件。", 1, "terms"),
            Section("3.1", "数据帧 data frame", "按规定格式组织并一次传输的一组数据。", 2, "terms"),
            Section("3.2", "采集周期 acquisition period", "相邻两次采集之间的时间间隔。", 2, "terms"),
        ]
    sections.append(Section("5", "要求", "", 1, "clause"))
    for k in range(1, 5):
        number = f"5.{k}"
        text = extra.get(number, " ".join(sentence(rng) for _ in range(3)))
        sections.append(Section(number, f"{rng.choice(NOUNS)}要求", text, 2, "clause"))
    sections.append(Section("6", "试验方法", extra.get("6", sentence(rng)), 1, "clause"))
    return Document(
        f"doc{n:02d}",
        f"doc{n:02d}.txt",
        "text",
        f"GB/T 9{n:04d}—2025",
        "测试标准",
        "GB/T 1.1—2020",
        tuple(sections),
    )


def injected(original: Document, errors: list[tuple[str, Edit]]) -> InjectionResult:
    applied = apply_edits(original, [e for _, e in errors])
    instances = tuple(
        ErrorInstance(
            instance_id=f"{original.doc_id}-{n}",
            doc_id=original.doc_id,
            error_type=error_type,
            location=applied.locations[n],
            original_section=None if edit.op == "insert" else original.sections[edit.target],
            corrupted_section=applied.sections[n],
            edit=edit,
            description="错误：示例；修改建议：示例；依据：GB/T 1.1—2020 8.5",
            provenance=InjectionProvenance("rule-template", "test", 0),
        )
        for n, (error_type, edit) in enumerate(errors)
    )
    return InjectionResult(original, applied.document, instances, (), {})


def write(folder: Path, results: list[InjectionResult]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, build in (("documents", documents_table), ("sections", sections_table)):
        pq.write_table(build(results), folder / f"{name}.parquet")
    pq.write_table(instances_table(results), folder / "instances.parquet")
    return folder


def position(document: Document, number: str) -> int:
    return next(i for i, s in enumerate(document.sections) if s.number == number)


def appended(document: Document, number: str, added: str) -> Edit:
    """An SCP-03-like edit: a sentence appended to a clause."""
    at = position(document, number)
    text = document.sections[at].text
    return Edit("modify", at, (Replacement("text", len(text), "", added),))


def stock_release(folder: Path, phrase: str | None) -> Path:
    """Ten documents, one SCP-03 each: the same stock phrase everywhere, or a different sentence each."""
    results = []
    for n in range(10):
        d = standard(n)
        added = phrase if phrase is not None else f"{FRESH[n][0]}和{FRESH[n][1]}。"
        results.append(injected(d, [("SCP-03", appended(d, "5.2", added))]))
    return write(folder, results)


def test_stock_phrase_in_every_instance_fails_the_ngram_goal(tmp_path: Path) -> None:
    result = audit_release(stock_release(tmp_path / "r", "也应符合本条的全部规定。"))
    scp03 = result.ngrams["SCP-03"]
    assert scp03.instances == 10
    assert scp03.max_share == 1.0
    assert not scp03.passed
    assert any("本条" in n.ngram for n in scp03.top)
    assert result.goals()["SCP-03 added n-grams <= 10%"] is False


def test_varied_phrasing_passes_the_ngram_goal(tmp_path: Path) -> None:
    result = audit_release(stock_release(tmp_path / "r", None))
    scp03 = result.ngrams["SCP-03"]
    assert scp03.instances == 10
    assert scp03.max_share <= 0.10
    assert scp03.passed


def test_stale_reference_after_a_deleted_clause_is_one_unexplained(tmp_path: Path) -> None:
    d = standard(1, extra={"6": "试验结果的判定见5.3，记录格式见9.9。"})
    assert [r.target for r in find_crossrefs(d.section("6").text)] == ["5.3", "9.9"]
    result = injected(d, [("STR-01", Edit("remove", position(d, "5.3")))])
    release = load_release(write(tmp_path / "r", [result]))
    integrity = audit_integrity(release)
    unexplained = integrity.by_status("unexplained")
    assert [(b.section, b.target, b.problem) for b in unexplained] == [("6", "5.3", "target removed")]
    # 9.9 was already unresolved in the original: reported, but not against the release
    assert [b.target for b in integrity.by_status("pre-existing")] == ["9.9"]
    assert integrity.replay_failures == ()


def test_references_kept_consistent_are_not_counted(tmp_path: Path) -> None:
    d = standard(2, extra={"6": "试验结果的判定见5.3。"})
    result = injected(d, [("SCP-03", appended(d, "5.1", "另见5.4。"))])
    integrity = audit_integrity(load_release(write(tmp_path / "r", [result])))
    assert integrity.references == 2
    assert integrity.broken == ()


def test_reference_an_instance_writes_broken_is_explained(tmp_path: Path) -> None:
    d = standard(3)
    result = injected(d, [("SCP-03", appended(d, "5.1", "其余要求见7.8。"))])
    integrity = audit_integrity(load_release(write(tmp_path / "r", [result])))
    assert [(b.target, b.status, b.instance_id) for b in integrity.broken] == [
        ("7.8", "explained", "doc03-0")
    ]


def test_caption_renumbered_by_its_own_instance_is_explained(tmp_path: Path) -> None:
    d = standard(9, extra={"5.1": "参数见表2。"} | {"6": "表2　试验参数\n温度 | 湿度"})
    at = position(d, "6")
    edit = Edit("modify", at, (Replacement("text", 1, "2", "7"),))  # an annex-numbering-like error
    integrity = audit_integrity(load_release(write(tmp_path / "r", [injected(d, [("STR-05", edit)])])))
    assert [(b.target, b.status, b.instance_id) for b in integrity.broken] == [
        ("表2", "explained", "doc09-0")
    ]


def test_renumbered_chapter_leaves_carried_reference_stale(tmp_path: Path) -> None:
    d = standard(4, extra={"5.1": "结果按6测得。"} | {"5.2": "其余见第6章。"})
    # chapter 5's clause 5.4 deleted and chapter 6 renumbered 5.4 (a structural edit that forgets references)
    edit = Edit("remove", position(d, "5.4"), renames=(("6", "5.4"),))
    integrity = audit_integrity(load_release(write(tmp_path / "r", [injected(d, [("STR-04", edit)])])))
    assert [(b.target, b.problem, b.status) for b in integrity.by_status("unexplained")] == [
        ("6", "renumbered to 5.4", "unexplained")
    ]


def test_instance_whose_term_another_instance_removed_fails_joint_validity(tmp_path: Path) -> None:
    body = "数据帧应完整。每个数据帧应带校验码。数据帧长度应固定。"
    d = standard(5, terms=True, extra={"5.1": body})
    at = position(d, "5.1")
    ter03 = Edit("modify", at, (Replacement("text", body.index("每个数据帧") + 2, "数据帧", "数据包"),))
    alone = injected(d, [("TER-03", ter03)])
    assert audit_joint(load_release(write(tmp_path / "alone", [alone]))).failures_of("TER-03") == []
    both = injected(d, [("TER-03", ter03), ("STR-01", Edit("remove", position(d, "3.1")))])
    joint = audit_joint(load_release(write(tmp_path / "both", [both])))
    failures = joint.failures_of("TER-03")
    assert len(failures) == 1
    assert "数据帧" in failures[0].reason and "no longer defined" in failures[0].reason
    assert joint.valid_share < 1.0


def test_joint_validity_finds_a_description_quoting_a_clause_another_instance_changed(tmp_path: Path) -> None:
    """Two NMS-02 instances shipped together (the planner would keep one): 4.1's description quotes 5.1's
    permission, which 5.1 no longer grants; the audit reports 4.1 and only 4.1."""
    doc = access_document(THREE_GRADES)
    config = PlanConfig(min_errors=1, max_errors=18, types=("NMS-02",))
    found = candidate_instances(doc, 0, InjectionContext.from_documents([doc]), config).instances
    applied = apply_edits(doc, [i.edit for i in found])
    placed = tuple(replace(i, location=applied.locations[n]) for n, i in enumerate(found))
    result = InjectionResult(doc, applied.document, placed, (), {})
    joint = audit_joint(load_release(write(tmp_path / "r", [result])))
    assert [(f.location, "from 5.1" in f.reason) for f in joint.failures] == [("4.1", True)]


def test_joint_validity_finds_the_instance_where_a_standard_repeats_a_number(tmp_path: Path) -> None:
    d = standard(10)
    twin = replace(d.sections[position(d, "5.3")], text="重复编号的条。")
    d = replace(d, sections=(*d.sections[:4], twin, *d.sections[4:]))  # 5.3 printed twice, as in some PDFs
    at = max(i for i, s in enumerate(d.sections) if s.number == "5.3")
    edit = Edit("modify", at, (Replacement("text", 0, "", "另外对外部接口也作出规定。"),))
    joint = audit_joint(load_release(write(tmp_path / "r", [injected(d, [("SCP-03", edit)])])))
    assert joint.failures == ()


def classifier_data(marked: bool) -> tuple[list[str], list[int], list[str]]:
    rng = random.Random(7)
    texts, labels, groups = [], [], []
    for doc in range(10):
        for k in range(18):
            positive = k < 3
            text = " ".join(sentence(rng) for _ in range(2))
            if positive and marked:
                text += "【依据本条款另行规定】"
            texts.append(text)
            labels.append(int(positive))
            groups.append(f"d{doc}")
    return texts, labels, groups


def test_surface_classifier_finds_a_marked_set_and_not_an_unmarked_one() -> None:
    marked = surface_auc(*classifier_data(True), seed=0)
    unmarked = surface_auc(*classifier_data(False), seed=0)
    assert marked >= 0.95
    assert 0.3 <= unmarked <= 0.7
    assert surface_auc(*classifier_data(False), seed=0) == unmarked  # deterministic


def test_surface_baseline_skips_types_with_too_few_instances(tmp_path: Path) -> None:
    result = audit_release(stock_release(tmp_path / "r", "也应符合本条的全部规定。"))
    assert result.baseline["SCP-03"].auc is not None  # ten instances in ten documents
    assert result.baseline["SCP-03"].auc >= 0.9  # the stock phrase gives it away
    assert result.baseline["NMS-01"].auc is None and "too few" in result.baseline["NMS-01"].skipped


def test_surface_baseline_of_a_large_release_fits_on_a_seeded_sample(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond MAX_POSITIVES instances of a type the classifier sees a seeded sample, and the summary (so
    the dataset card) says so; below it every instance is used and nothing is said."""
    from validation.audit import baseline

    release = stock_release(tmp_path / "r", "也应符合本条的全部规定。")
    whole = audit_release(release)
    assert whole.baseline["SCP-03"].sampled_from == 0 and whole.baseline["SCP-03"].positives == 10
    assert "seeded sample" not in render_markdown(whole)
    monkeypatch.setattr(baseline, "MAX_POSITIVES", 6)
    sampled = audit_release(release)
    b = sampled.baseline["SCP-03"]
    assert (b.positives, b.sampled_from) == (6, 10) and b.auc is not None and b.auc >= 0.9
    assert "surface baseline fitted on a seeded sample of instances: SCP-03 6 of 10" in render_markdown(
        sampled
    )
    assert audit_release(release).baseline["SCP-03"] == b  # seeded: the same sample each time


def test_position_of_appended_lines_and_clauses(tmp_path: Path) -> None:
    result = audit_release(stock_release(tmp_path / "r", "也应符合本条的全部规定。"))
    position_ = result.positions["SCP-03"]
    assert position_.instances == 10
    assert position_.share_last == 0.0  # 5.2 is never the last clause
    assert position_.mean_relative is not None and 0 < position_.mean_relative < 0.5


def test_inserted_sections_always_last_show_as_position_bias(tmp_path: Path) -> None:
    results = []
    for n in range(6):
        d = standard(n)
        # half appended at the end of chapter 5, half between its clauses (own number, no renumbering)
        after, number = ("5.4", "5.5") if n < 3 else ("5.2", "5.2a")
        new = Section(number, "新增要求", "新增条款的内容。", 2, "clause")
        results.append(injected(d, [("TER-02", Edit("insert", position(d, after), inserted=new))]))
    placed = audit_release(write(tmp_path / "r", results)).positions["TER-02"]
    assert placed.instances == 6
    assert placed.share_last == 0.5


def test_audit_is_reproducible_and_rendered(tmp_path: Path) -> None:
    folder = stock_release(tmp_path / "r", "也应符合本条的全部规定。")
    first = audit_release(folder).to_dict()
    assert audit_release(folder).to_dict() == first
    text = render_text(audit_release(folder))
    assert "SCP-03 *" in text and "FAIL" in text and "joint validity" in text
    assert "| SCP-03 * | 10 |" in render_markdown(audit_release(folder))


def test_the_audit_a_large_build_runs_in_a_second_process_is_the_audit(tmp_path: Path) -> None:
    """A build of 50 documents or more audits its release in a spawned process (`release.writer`): the
    child reads the tables alone, writes audit.json, and returns the audit the release's card shows."""
    folder = stock_release(tmp_path / "r", "也应符合本条的全部规定。")
    with beside(audit_and_write, folder, 3) as auditing:
        returned = auditing.result()
    expected = audit_release(folder, 3).to_dict()
    assert returned.to_dict() == expected and returned.documents > 0
    assert json.loads((folder / AUDIT_FILE).read_text(encoding="utf-8")) == expected


def test_the_audit_lets_go_of_the_ngrams_it_counted(tmp_path: Path) -> None:
    """Counting n-grams fills a cache per line (100 MB at 500 documents) that nothing after it reads: the
    audit empties it before the surface classifier, and the result is the same."""
    from injectors.language.novelty import line_ngrams

    folder = stock_release(tmp_path / "r", "也应符合本条的全部规定。")
    first = audit_release(folder).to_dict()
    assert line_ngrams.cache_info().currsize == 0
    assert audit_release(folder).to_dict() == first


def test_the_audit_reads_a_release_one_document_at_a_time(tmp_path: Path) -> None:
    """A release's sections table is every text twice over: each pass of the audit reads it again, and a
    document it has passed is let go (the held tuple kept all 500 of a large build, about 100 MB)."""
    release = load_release(stock_release(tmp_path / "r", None))
    passed = []
    for document in release.documents:
        passed.append(weakref.ref(document))
        del document
    gc.collect()
    assert len(passed) == 10 and sum(r() is not None for r in passed) <= 1
    assert [d.original.doc_id for d in release.documents] == [f"doc{n:02d}" for n in range(10)]
    assert [i.doc_id for i in release.instances] == [f"doc{n:02d}" for n in range(10)]


def test_a_sections_table_in_another_order_gives_the_same_audit(tmp_path: Path) -> None:
    """A release written by other tools need not group each document's sections: it is then read whole."""
    folder = stock_release(tmp_path / "r", "也应符合本条的全部规定。")
    expected = audit_release(folder, 1).to_dict()
    sections = pq.read_table(folder / "sections.parquet")
    pq.write_table(sections.take(list(reversed(range(sections.num_rows)))), folder / "sections.parquet")
    release = load_release(folder)
    assert isinstance(release.documents, tuple)
    assert audit_release(folder, 1).to_dict() == expected


def test_unresolved_lists_what_points_nowhere() -> None:
    d = standard(
        8, extra={"5.1": "见表1和图2，按公式（3）计算，其余见附录C。"} | {"6": "表1　参数\n值 | 单位"}
    )
    assert sorted(r.target for _, r in unresolved(d)) == ["公式（3）", "图2", "附录C"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "flows.cli", "audit", *args]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, check=False)


def test_cli_prints_the_table_and_writes_audit_json(tmp_path: Path) -> None:
    folder = stock_release(tmp_path / "r", "也应符合本条的全部规定。")
    done = cli(str(folder))
    assert done.returncode == 1, done.stderr  # the stock phrase misses a goal
    assert "SCP-03 *" in done.stdout and "Traceback" not in done.stderr
    written = json.loads((folder / AUDIT_FILE).read_text(encoding="utf-8"))
    assert written["goals"]["SCP-03 added n-grams <= 10%"] is False
    as_json = cli(str(folder), "--json")
    assert json.loads(as_json.stdout) == written


def test_cli_names_a_folder_that_is_not_a_release(tmp_path: Path) -> None:
    done = cli(str(tmp_path))
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        == f"ERROR: {tmp_path}: documents.parquet not found: not a gbtbench release folder"
    )
    with pytest.raises(AuditInputError):
        load_release(tmp_path / "missing")


@pytest.mark.skipif(not (ROOT.parent / "shared" / "corpus-real").is_dir(), reason="real corpus absent")
def test_crossrefs_on_real_standards_mostly_resolve() -> None:
    """On real standards the finder must not drown the audit in false references."""
    from parsers import parse_file
    from parsers.errors import ParseError

    total = bad = 0
    for path in sorted((ROOT.parent / "shared" / "corpus-real").glob("*.*")):
        if path.suffix not in (".pdf", ".md", ".docx", ".txt"):
            continue
        try:
            document = parse_file(path)
        except ParseError:
            continue
        from injectors.language.crossrefs import section_crossrefs

        total += sum(len(section_crossrefs(s)) for s in document.sections)
        bad += len(list(unresolved(document)))
    assert total > 0
    assert bad / total < 0.2


def test_a_written_release_carries_its_audit_and_the_card_shows_it(tmp_path: Path) -> None:
    from release.config import BuildConfig
    from release.writer import write_release
    from tests.support.release_data import SEED
    from tests.support.release_data import injected as injected_corpus

    written = write_release(list(injected_corpus(3)), BuildConfig(seed=SEED, version="v0.0.9"), tmp_path)
    stored = json.loads((written.path / AUDIT_FILE).read_text(encoding="utf-8"))
    assert stored == audit_release(written.path, SEED).to_dict()  # the same audit `gbtbench audit` gives
    assert stored["instances"] == sum(len(r.instances) for r in injected_corpus(3))
    card = (written.path / "hf" / "README.md").read_text(encoding="utf-8")
    audit_part = card.split("## Audit", 1)[1].split("## Error types", 1)[0]
    assert "| SCP-03 * |" in audit_part and "joint validity" in audit_part


def _scoped(n: int, scope: str) -> Document:
    d = standard(n)
    return replace(d, sections=(replace(d.sections[0], text=scope), *d.sections[1:]))


def test_a_type_given_to_one_kind_of_document_is_not_told_apart_by_the_kind(tmp_path: Path) -> None:
    """Ten service standards get an SCP-04-like aspect (a different one each); ten product standards get
    nothing. Against other documents' scopes alone, the classifier would learn service vs product; with
    each instance's own original scope beside it, only the added words could give it away."""
    results = []
    for n in range(20):
        a, b = FRESH[n % len(FRESH)]
        if n < 10:
            d = _scoped(n, f"本文件规定了{a}系统的总体要求、{b}要求和安全要求，描述了相应的试验方法。")
            at = d.sections[0].text.index("和")
            edit = Edit(
                "modify", 0, (Replacement("text", at, "", f"、{FRESH[(n + 3) % len(FRESH)][1]}要求"),)
            )
            results.append(injected(d, [("SCP-04", edit)]))
        else:
            scope = f"本标准规定了{a}{b}的分类、要求、试验方法、检验规则以及标志、包装、运输和贮存。"
            results.append(injected(_scoped(n, scope), []))
    result = audit_release(write(tmp_path / "r", results))
    assert result.baseline["SCP-04"].negatives == 20  # every scope, the instances' own among them
    assert result.baseline["SCP-04"].auc is not None and result.baseline["SCP-04"].auc <= 0.7


def _with_symbols(n: int) -> Document:
    """`standard(n)` with a chapter 4 listing five made-up abbreviations (letters and names vary by n)."""
    rng = random.Random(100 + n)
    lines = []
    for _ in range(5):
        letters = "".join(rng.sample("ABCDEFGHJKLMNPQRSTUVWXYZ", 3))
        lines.append(f"{letters}：{''.join(rng.sample(NOUNS, 2))}")
    d = standard(n)
    symbols = Section("4", "缩略语", "下列缩略语适用于本文件。\n" + "\n".join(lines), 1, "symbols")
    return replace(d, sections=(d.sections[0], symbols, *d.sections[1:]))


def _kind_release(folder: Path, cue: str) -> Path:
    """Twenty documents with a symbols list each; six get an edit in it, four in clause 5.2, ten nothing.
    The edit rewrites the last entry of the list, or the clause's first sentence, in the documents' own
    words (so it shows nothing), and writes `cue` after it."""
    results = []
    for n in range(20):
        d = _with_symbols(n)
        if n < 10:
            number = "4" if n < 6 else "5.2"
            at = position(d, number)
            text = d.sections[at].text
            rng = random.Random(200 + n)
            if number == "4":
                start, end = text.rindex("：") + 1, len(text)
                new = "".join(rng.sample(NOUNS, 2))
            else:
                start, end = 0, text.index("。") + 1
                new = sentence(rng)
            edit = Edit("modify", at, (Replacement("text", start, text[start:end], new + cue),))
            results.append(injected(d, [("TER-01", edit)]))
        else:
            results.append(injected(d, []))
    return write(folder, results)


def test_a_type_given_mostly_to_one_kind_of_section_is_not_told_apart_by_the_kind(tmp_path: Path) -> None:
    """Most instances are symbols lists, most clean sections are clauses: drawn without regard to kind, the
    negatives are nearly all clauses and a classifier scores high for spotting a symbols list. Drawn in the
    positives' kind proportions, only what the edit writes can give the type away."""
    kind_only = audit_release(_kind_release(tmp_path / "plain", "")).baseline["TER-01"]
    assert kind_only.auc is not None and kind_only.auc <= 0.6
    cued = audit_release(_kind_release(tmp_path / "cued", "（另见有关约定）")).baseline["TER-01"]
    assert cued.auc is not None and cued.auc >= 0.9
    assert cued.negatives == 20 + 80  # every symbols list; twenty clauses per clause positive
