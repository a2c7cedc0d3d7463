"""The word-tag table answers as the dict it replaces: every word's flag, absent words, words added later,
copies that do not share what is added, and a pickle that keeps it all."""

from __future__ import annotations

import pickle
import random

from injectors.language.tag_table import TagTable


def _sample(n: int = 3000, seed: int = 7) -> dict[str, str]:
    rng = random.Random(seed)
    chars, flags = "标准应宜可能记录安装检验方法要求", ["n", "v", "a", "d", "m", "x", "nr"]
    out = {}
    while len(out) < n:
        word = "".join(rng.choice(chars) for _ in range(rng.randint(1, 5)))
        out[word] = rng.choice(flags)
    return out


def test_every_word_and_no_other_is_found() -> None:
    tags = _sample()
    table = TagTable.from_dict(tags)
    assert len(table) == len(tags)
    for word, flag in tags.items():
        assert table.get(word) == flag and table[word] == flag and word in table
    missing = ["", "不锈钢", "标准应宜可能记录", "z", "标" * 9]
    for word in (w for w in missing if w not in tags):
        assert table.get(word) is None and table.get(word, "x") == "x" and word not in table
    assert table == tags and dict(table.items()) == tags


def test_words_added_are_in_front_and_a_copy_has_its_own() -> None:
    tags = _sample(200)
    table = TagTable.from_dict(tags)
    some = next(iter(tags))
    table.get("新词")  # looked up while absent: remembered as absent, then added
    table.update({"新词": "n", some: "zz"})
    assert table.get("新词") == "n" and table[some] == "zz" and len(table) == len(tags) + 1
    twin = table.copy()
    twin.update([("另一个", "v")])
    assert "另一个" in twin and "另一个" not in table and twin["新词"] == "n"
    assert table == {**tags, "新词": "n", some: "zz"}


def test_a_pickled_table_is_the_same_table() -> None:
    tags = _sample(500)
    table = TagTable.from_dict(tags)
    assert pickle.loads(pickle.dumps(table)) == tags
    table.update({"新词": "n"})
    again = pickle.loads(pickle.dumps(table))
    assert again == {**tags, "新词": "n"} and again.get("新词") == "n"
