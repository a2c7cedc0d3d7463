"""Tests of SCP-05 范围界限模糊或矛盾 (Scope boundary vague or contradicted)."""

from __future__ import annotations

from collections import Counter

from injectors.checking import lint
from injectors.context import InjectionContext
from injectors.edit import apply_edits
from injectors.instance import ErrorInstance
from injectors.language.novelty import stock_ngrams
from injectors.language.words import words
from tests.injectors.types.scp.scp_documents import (
    CABINET_BODY,
    CABINET_SCOPE,
    EXCHANGE_BODY,
    EXCHANGE_SCOPE,
    POST_BODY,
    WIDE_SCOPE,
    YARD_BODY,
    added_text,
    alone_instances,
    charger_standard,
    corpus,
    corpus_instances,
    dropped_qualifiers,
    instances,
    run,
    standard,
)


def test_scp05_drops_a_qualifier_that_a_referred_object_shows() -> None:
    scope = (
        "本文件规定了环境监测终端的技术要求。\n"
        "本文件适用于连栋温室中使用的环境监测终端的设计和验收，简易大棚中使用的环境监测终端参照使用。"
    )
    body = """4 要求
4.1 测量
环境监测终端应测量空气温度。
4.2 供电
环境监测终端应采用直流供电。
"""
    document = standard(scope, body, title="农业 监测终端 技术要求")  # the title restricts nothing
    found = dropped_qualifiers(document)
    assert found, "no qualifier dropped although the referred 简易大棚 terminal shows the restriction"
    for instance in found:
        assert "删去了限定语“连栋温室中使用的”" in instance.description
        assert "只允许参照使用本文件的“简易大棚中使用的环境监测终端”也落入了这一界限" in instance.description
        assert "本文件适用于环境监测终端的设计和验收" in _corrupted(instance)


def test_scp05_takes_no_referred_object_of_another_kind_as_evidence() -> None:
    scope = (
        "本文件规定了电子式温度记录仪的技术要求。\n"
        "本文件适用于冷链运输过程中使用的电子式温度记录仪。温湿度记录仪的温度测量部分参照使用。"
    )
    body = """4 要求
4.1 测量
电子式温度记录仪应测量空气温度。
"""
    document = standard(scope, body, title="仓储 记录仪 技术要求")
    found = run("SCP-05", document, InjectionContext.from_documents([document]))
    assert all("参照使用" not in i.description for i in found)


def _corrupted(instance: ErrorInstance) -> str:
    assert instance.corrupted_section is not None
    return instance.corrupted_section.text


def test_scp05_excludes_a_regulated_object_but_no_test_equipment() -> None:
    body = POST_BODY.replace(
        "4.2 显示\n显示屏应能显示充电电量和费用。", "4.2 显示屏\n显示屏应能显示充电电量和费用。"
    )
    body = body.replace("6.1 计量试验", "6.1 试验设备\n试验设备应经过校准。\n6.2 计量试验")
    document = charger_standard(WIDE_SCOPE.replace("住宅小区内设置的", ""), body)
    found = [i for i in alone_instances("SCP-05", document, seeds=24) if added_text(i)]
    assert found
    for instance in found:
        assert "显示屏" in added_text(instance) and "试验设备" not in added_text(instance)
        # a sentence of its own: a display screen is not a thing of the kind the boundary lists
        assert "除外" not in added_text(instance) and "不在此列" not in added_text(instance)
        assert "4.2" in instance.description  # the clause that regulates what the scope now excludes


def test_scp05_exclusions_land_in_several_places() -> None:
    scope = CABINET_SCOPE + "\n学校内设置的工具柜参照使用。"
    body = CABINET_BODY.replace("5 试验方法", "4.4 照明装置\n照明装置应在柜门开启时自动点亮。\n5 试验方法")
    document = standard(scope, body)
    places: Counter[str] = Counter()
    for instance in instances("SCP-05", document, seeds=24):
        (replacement,) = instance.edit.replacements
        if replacement.old:
            places["qualifier"] += 1
            continue
        lines = [line for line in _corrupted(instance).splitlines() if line.strip()]
        places["last line" if replacement.new.strip() in lines[-1] else "inside"] += 1
        corrupted = apply_edits(document, [instance.edit]).document
        assert not [v for v in lint(corrupted, ["SCP-01", "SCP-02"]) if v.location == "1"]
    assert places["inside"] >= 1
    assert places["last line"] < sum(places.values())


_LAMP_BODY = CABINET_BODY.replace("5 试验方法", "4.4 照明装置\n照明装置应在柜门开启时自动点亮。\n5 试验方法")


_PLAIN_SCOPE = "本文件规定了社区共享工具柜的柜体结构和门锁要求。\n本文件适用于社区共享工具柜的设计和制造。"


def test_scp05_exclusion_wordings_share_no_stock_phrase() -> None:
    """An added exclusion takes one of many wordings, and no two wordings add the same new phrase (beyond
    the object's own words): a phrase such as "的适用范围" in every other instance lets a classifier find
    the type without reading the body."""
    documents = corpus(_PLAIN_SCOPE, _LAMP_BODY, 16)
    found = [i for i in corpus_instances("SCP-05", documents) if not i.edit.replacements[0].old]
    forms = Counter(i.provenance.form for i in found)
    assert len(forms) >= 10, forms
    phrases: dict[str, set[str]] = {}
    by_id = {d.doc_id: d for d in documents}
    for instance in found:
        document = by_id[instance.doc_id]
        obj = next(o for o in ("照明装置", "门锁", "柜体") if o in added_text(instance))
        assert instance.corrupted_section is not None and instance.provenance.form
        for gram in stock_ngrams(_corrupted(instance), document, words(obj)):
            phrases.setdefault("".join(gram), set()).add(instance.provenance.form)
    shared = {p: f for p, f in phrases.items() if len(f) > 1}
    assert not shared, shared


def test_scp05_documents_of_one_corpus_take_different_exclusion_wordings() -> None:
    """Where every wording adds new words, the documents of a corpus take different ones, whatever the
    seed: a random choice let two documents of a release of eight say "……不受本文件约束"."""
    documents = corpus(_PLAIN_SCOPE, _LAMP_BODY, 8)
    for seed in range(3):
        forms = [i.provenance.form for i in corpus_instances("SCP-05", documents, seed)]
        assert len(forms) == len(documents) and len(set(forms)) == len(forms), forms


def test_scp05_drops_no_qualifier_that_nothing_else_in_the_document_names() -> None:
    scope = "本文件规定了社区共享工具柜的柜体结构和门锁要求。\n本文件适用于住宅小区内设置的社区共享工具柜。"
    document = standard(scope, CABINET_BODY, title="社区 共享工具柜 技术要求")
    found = run("SCP-05", document, InjectionContext.from_documents([document]))
    assert all("限定语" not in i.description for i in found)  # 住宅小区 appears nowhere else


def test_scp05_drops_a_qualifier_that_only_the_body_still_names() -> None:
    scope = "本文件规定了共享工具柜的柜体结构和门锁要求。\n本文件适用于住宅小区内设置的共享工具柜。"
    document = standard(scope, YARD_BODY, title="社区 共享工具柜 技术要求")
    found = dropped_qualifiers(document)
    assert found, "no qualifier dropped although clauses 4.1 and 4.3 still name 住宅小区"
    for instance in found:
        assert "住宅小区内设置的" in instance.description
        assert "正文第4.1条、第4.3条的规定仍针对“住宅小区”" in instance.description


def test_scp05_takes_no_actor_of_the_work_for_a_restriction() -> None:
    """Dropping "指导物业服务企业开展住宅小区内的" loses who does the work, not what the document covers: the
    first scope sentence still bounds that to 住宅小区."""
    scope = (
        "本文件规定了住宅小区共享工具柜的运行维护要求。\n"
        "本文件适用于指导物业服务企业开展住宅小区内的共享工具柜的运行维护。"
    )
    body = YARD_BODY.replace("门锁宜具有远程开启功能。", "物业服务企业宜每月检查门锁。").replace(
        "在自然光下目视检查", "物业服务企业在自然光下目视检查"
    )
    document = standard(scope, body, title="社区 共享工具柜 技术要求")
    assert not dropped_qualifiers(document)


def test_scp05_drops_a_qualifier_that_the_scopes_other_objects_contrast_with() -> None:
    """ "其他场所的……可参照执行" is other than what the qualifier named: without it, "其他" has nothing to be
    other than, and the boundary no longer says what the document applies to directly."""
    scope = (
        "本文件规定了共享工具柜的柜体结构和门锁要求。\n"
        "本文件适用于住宅小区内设置的共享工具柜，其他场所设置的共享工具柜可参照执行。"
    )
    document = standard(scope, CABINET_BODY, title="社区 共享工具柜 技术要求")
    found = dropped_qualifiers(document)
    assert found
    for instance in found:
        assert "本文件适用于共享工具柜，其他场所设置的共享工具柜可参照执行。" in _corrupted(instance)
        assert "范围中“其他场所设置的共享工具柜可参照执行”的“其他”已无所指" in instance.description


def test_scp05_excludes_no_object_that_the_body_only_permits() -> None:
    """ "柜体可配置照明装置" lets a cabinet have a lamp; it regulates nothing about it, so a scope
    excluding the lamp contradicts no provision (one that requires something of it does)."""
    permitted = CABINET_BODY.replace("5 试验方法", "4.4 照明装置\n根据需要，柜体可配置照明装置。\n5 试验方法")
    document = standard(_PLAIN_SCOPE, permitted)
    assert all("照明装置" not in added_text(i) for i in alone_instances("SCP-05", document))
    required = standard(_PLAIN_SCOPE, _LAMP_BODY)
    assert any("照明装置" in added_text(i) for i in alone_instances("SCP-05", required))


def test_scp05_varies_the_exclusion_wording_a_document_lacks() -> None:
    """A scope that never words an exclusion still offers one (a type real scopes never offered vanished
    from releases of real standards), in varied forms so that no one phrase ("。本文件不……") marks the
    type; one that already excludes gets the object as a new list item or in a wording of its own (not
    every such scope grows its list), never a "也不适用" ahead of the exclusion it would echo."""
    scope = "本文件规定了社区共享工具柜的柜体结构、门锁和电气安全要求。\n本文件适用于社区共享工具柜。"
    body = CABINET_BODY.replace("5 试验方法", "4.4 照明装置\n照明装置应在柜门开启时自动点亮。\n5 试验方法")
    found = [i for i in corpus_instances("SCP-05", corpus(scope, body, 10)) if added_text(i)]
    assert found
    forms = Counter(i.provenance.form for i in found)
    assert len(forms) >= 4 and max(forms.values()) <= 0.4 * len(found), forms
    for instance in found:
        assert "照明装置" in added_text(instance) and "4.4" in instance.description
    excluding = standard(scope + "\n本文件不适用于快递自提柜。", body)
    found = [i for i in instances("SCP-05", excluding, seeds=12) if added_text(i)]
    forms = Counter(i.provenance.form for i in found)
    assert forms["排除列表增项"] and len(forms) >= 2, forms
    for instance in found:
        text = _corrupted(instance)
        if instance.provenance.form == "排除列表增项":
            assert "本文件不适用于" + added_text(instance) + "快递自提柜" in text
        else:
            assert "照明装置" in added_text(instance) and "也不适用" not in text
            assert text.index(added_text(instance)) < text.index("本文件不适用于快递自提柜")


_MODULE_TERM = "下列术语和定义适用于本文件。\n3.1\n计量模块 metering module\n终端中测量充电电量的部件。"


def test_scp05_excludes_no_term_that_only_another_subjects_requirement_mentions() -> None:
    """ "显示屏应能显示计量模块的状态" requires something of the display, not of the metering module: a scope
    excluding the module contradicts nothing ("计量模块应每年校准" does)."""
    scope = WIDE_SCOPE.replace("住宅小区内设置的", "")
    mentioned = POST_BODY.replace("充电电量和费用", "充电电量和计量模块的状态")
    document = charger_standard(scope, mentioned, terms=_MODULE_TERM)
    assert all("计量模块" not in added_text(i) for i in alone_instances("SCP-05", document))
    regulated = mentioned.replace("计量数据应每分钟刷新一次。", "计量模块应每年校准一次。")
    document = charger_standard(scope, regulated, terms=_MODULE_TERM)
    assert any("计量模块" in added_text(i) for i in alone_instances("SCP-05", document))


def test_scp05_excludes_no_operation_that_a_protocol_clause_specifies() -> None:
    """A clause titled "查询报文" specifies an operation on messages, not a thing a scope could leave out."""
    body = EXCHANGE_BODY.replace("5.2 数据\n", "5.2 查询报文\n查询报文应包含查询条件。\n5.3 数据\n")
    document = standard(EXCHANGE_SCOPE, body, title="社区服务平台 数据交换 报文格式")
    assert all("查询报文" not in added_text(i) for i in alone_instances("SCP-05", document))
    named = standard(
        EXCHANGE_SCOPE, body.replace("查询报文", "心跳报文"), title="社区服务平台 数据交换 报文格式"
    )
    assert any("心跳报文" in added_text(i) for i in alone_instances("SCP-05", named))


def test_scp05_excludes_from_a_boundary_of_actors_only_what_is_said_about_a_thing() -> None:
    """After "本文件适用于从事共享工具柜运营的企业。" a "照明装置排除在外" leaves a thing out of a set of
    companies; an exclusion of the requirements or content about it is what a drafter would write."""
    scope = "本文件规定了社区共享工具柜的柜体结构和门锁要求。\n本文件适用于从事社区共享工具柜运营的企业。"
    found = [i for i in corpus_instances("SCP-05", corpus(scope, _LAMP_BODY, 8)) if added_text(i)]
    assert found
    for instance in found:
        text = added_text(instance)
        assert "照明装置" in text
        assert any(w in text for w in ("要求", "规定", "内容", "规范")), text


def test_scp05_excludes_a_side_matter_never_what_the_document_is_built_on() -> None:
    """计量模块 defined, regulated in one clause and named in its test: a drafter may exclude it and forget
    those two clauses, and the fix that keeps the exclusion names both. Named in three more clauses, it is
    what the terminal is built around: a scope excluding it is no slip a drafter makes."""
    scope = WIDE_SCOPE.replace("住宅小区内设置的", "")
    side = POST_BODY.replace("计量数据应每分钟刷新一次。", "计量模块应每年校准一次。").replace(
        "用标准电能表比对计量数据。", "用标准电能表比对计量模块的数据。"
    )
    document = charger_standard(scope, side, terms=_MODULE_TERM)
    found = [i for i in alone_instances("SCP-05", document) if "计量模块" in added_text(i)]
    assert found
    assert all("同时删去正文第4.1条、第6.1条中关于计量模块的规定" in i.description for i in found)
    core = side.replace(
        "6 试验方法",
        "5.2 计量模块数据\n计量模块上报的电量应带时间标签。\n计量模块的时钟应每日校时。\n"
        "5.3 计量模块存储\n计量模块应保存最近100次充电记录。\n5.4 计量模块报警\n计量模块失效时应报警。\n"
        "6 试验方法",
    )
    document = charger_standard(scope, core, terms=_MODULE_TERM)
    assert all("计量模块" not in added_text(i) for i in alone_instances("SCP-05", document))
