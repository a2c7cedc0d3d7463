"""Tests of injectors.types.scp.siblings: products of the scope object's kind that a document names in its
references, definitions, introduction or annexes."""

from __future__ import annotations

from injectors.types.scp.siblings import named_siblings, referenced_products
from tests.injectors.types.scp.scp_documents import (
    SERVER_ANNEX,
    SERVER_BODY,
    SERVER_SCOPE,
    counter_standard,
    server_standard,
)


def test_products_of_cited_standards_are_read_from_their_titles() -> None:
    products = referenced_products(counter_standard())
    assert "公交车车载视频监控终端" not in products  # the field's name is no part of the product's
    assert "车载视频监控终端" in products and "客流分析系统" in products
    assert "城市公交GPS导航系统" in products  # a bibliography title, the PDF's spaces around Latin closed
    assert "调度平台" not in products  # an interface specification names no product
    assert "电子站牌" in products


def test_a_product_the_annex_names_is_read_as_a_sibling_of_the_scope_object() -> None:
    found = named_siblings(server_standard(), ("票务结算服务器",))
    assert found == ["线路调度服务器"]
    # a kind of the object itself (双机票务结算服务器), the object shortened (结算服务器) and a caption's
    # words (表A.2 网关服务器……) are no siblings


def test_no_sibling_from_a_generic_head_word() -> None:
    scope = SERVER_SCOPE.replace("票务结算服务器", "票务结算系统")
    document = server_standard(
        scope, SERVER_BODY.replace("服务器", "系统"), SERVER_ANNEX.replace("服务器", "系统")
    )
    assert named_siblings(document, ("票务结算系统",)) == []
