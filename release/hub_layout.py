"""Where each Hub config's data lives in `hf/`: one folder per config holding one `test` shard.

One folder per config lets `load_dataset("parquet", data_dir="hf/data/<config>")` read exactly that
config, and the file name `test-00000-of-00001.parquet` makes `datasets` name the split `test` (the
benchmark convention) with or without the card. A config whose table has no rows is not declared:
`datasets` (5.2) cannot load a split without rows ("Instruction 'test' corresponds to no data"), so the
card lists such tables as empty instead of declaring a config that fails to load.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

SPLIT = "test"
SHARD = f"{SPLIT}-00000-of-00001.parquet"
DATA_DIR = "data"

TABLE_CONFIGS = {
    "items": "one benchmark item per document: the corrupted document as text and its gold errors",
    "documents": "original and corrupted text of every document, with its id, format and error count",
    "instances": "every injected error: location, dimension, type, description, sections, edit, provenance",
    "sections": "every section of the original and the corrupted documents",
    "pre_existing": "per document, the violations the original already had (not injected; not to be scored)",
}
INSTRUCTION_DESCRIPTION = "instruction set (PIXIU schema: id, query, answer, text, choices, gold)"


@dataclass(frozen=True)
class HubConfig:
    """One config of the card: its name, its Parquet file in the release and its path under hf/."""

    name: str
    source: Path  # the Parquet file in the release folder
    rows: int
    description: str

    @property
    def path(self) -> str:
        return f"{DATA_DIR}/{self.name}/{SHARD}"


@dataclass(frozen=True)
class HubLayout:
    """The declared configs (rows > 0) and the empty tables left undeclared, in card order."""

    configs: tuple[HubConfig, ...]
    empty: tuple[str, ...]


def instruction_config_name(task: str, shot: str) -> str:
    return f"instructions_{task}_{shot}"


def hub_layout(
    root: Path, table_rows: Mapping[str, int], instructions: Sequence[tuple[str, str, str, int]]
) -> HubLayout:
    """Configs for the tables (`root/<name>.parquet`) and the instruction sets (task, shot, file, rows)."""
    candidates = [
        HubConfig(name, root / f"{name}.parquet", table_rows[name], what)
        for name, what in TABLE_CONFIGS.items()
    ]
    candidates += [
        HubConfig(instruction_config_name(task, shot), root / file, rows, INSTRUCTION_DESCRIPTION)
        for task, shot, file, rows in instructions
    ]
    return HubLayout(
        configs=tuple(c for c in candidates if c.rows > 0),
        empty=tuple(c.name for c in candidates if c.rows == 0),
    )


def write_hub_data(hf_dir: Path, layout: HubLayout) -> None:
    """Copy each declared config's Parquet file to hf/data/<config>/test-00000-of-00001.parquet."""
    for config in layout.configs:
        dest = hf_dir / config.path
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(config.source, dest)


_SEMVER = re.compile(r"v?(\d+)\.(\d+)\.(\d+)")


def card_configs(layout: HubLayout, version: str = "", fingerprint: str = "") -> list[dict[str, object]]:
    """The `configs` YAML list: a single `test` split each; `items` is the default.

    Each config carries the release's identity (its version, and a description naming the version and the
    data fingerprint): `datasets` keys its cache of a local folder by the folder's name and these config
    fields, and every release's folder is called `hf`, so without them a second release loaded into the
    same cache would be served the first one's rows."""
    out: list[dict[str, object]] = []
    semver = _SEMVER.fullmatch(version)
    for config in layout.configs:
        entry: dict[str, object] = {
            "config_name": config.name,
            "data_files": [{"split": SPLIT, "path": config.path}],
        }
        if version or fingerprint:
            entry["description"] = f"gbtbench {version} (data {fingerprint}): {config.description}"
        if semver:
            entry["version"] = ".".join(semver.groups())
        if config.name == "items":
            entry["default"] = True
        out.append(entry)
    return out


def arrow_copy_names(hf_dir: Path) -> set[str]:
    """The names in hf/ of the `save_to_disk` copy (dataset_dict.json and one folder per table).

    It is a second copy of the data for local `load_from_disk` users; the Hub serves the Parquet files,
    so publish leaves it out.
    """
    index = hf_dir / "dataset_dict.json"
    if not index.is_file():
        return set()
    try:
        splits = json.loads(index.read_text(encoding="utf-8")).get("splits", [])
    except (json.JSONDecodeError, UnicodeDecodeError, AttributeError):
        return set()
    return {index.name, *(str(s) for s in splits if str(s) not in (DATA_DIR, "README.md"))}


PUBLIC_HUB = "https://huggingface.co"
# what the card names the dataset repo with until it is published to one (`published_card`)
REPO_PLACEHOLDER = "<org>/<name>"


def published_card(card: str, repo_id: str, endpoint: str = PUBLIC_HUB) -> str:
    """The card as uploaded: its loading snippet and citation name the real repo on the Hub it goes to."""
    endpoint = endpoint.rstrip("/")
    card = card.replace(f"{PUBLIC_HUB}/datasets/{REPO_PLACEHOLDER}", f"{endpoint}/datasets/{repo_id}")
    return card.replace(REPO_PLACEHOLDER, repo_id)
