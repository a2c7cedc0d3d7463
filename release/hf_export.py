"""The Hugging Face export of a release: `hf/` as a DatasetDict plus one folder per Hub config.

`load_from_disk(hf/)` gives every public table; `hf/data/<config>/` holds the Parquet file each of the
card's configs points at (copied from the release, so the bytes are the ones the manifest hashes).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from release.hub_layout import HubLayout, hub_layout, write_hub_data
from release.instructions import InstructionFiles
from release.tables import ReleaseTables

HF_FOLDER = "hf"
DATASET_DICT_JSON = "dataset_dict.json"  # what `datasets.load_from_disk` reads the splits from


@contextmanager
def _quiet_datasets() -> Iterator[None]:
    """datasets' progress bars off while saving, restored afterwards (the caller may want them)."""
    import datasets

    was_disabled = datasets.are_progress_bars_disabled()
    datasets.disable_progress_bars()
    try:
        yield
    finally:
        if not was_disabled:
            datasets.enable_progress_bars()


def save_dataset_dict(hf_dir: Path, tables: ReleaseTables) -> None:
    """The public tables as one DatasetDict keyed by table name (`load_from_disk(hf_dir)`).

    Saved a table at a time, as `DatasetDict.save_to_disk` lays it out (a folder per split and
    `dataset_dict.json`), so that each table is let go once written: all of a large release's tables at
    once were 200 MB more at their peak."""
    import datasets
    from datasets.table import InMemoryTable

    hf_dir.mkdir(parents=True, exist_ok=True)
    with _quiet_datasets():
        for name, _ in tables.files:
            split = datasets.Dataset(InMemoryTable(tables.table(name).replace_schema_metadata(None)))
            # One shard: datasets writes no shard at all for an empty table, and then cannot load it.
            split.save_to_disk(str(hf_dir / name), num_shards=1)
    splits = [name for name, _ in tables.files]
    (hf_dir / DATASET_DICT_JSON).write_text(json.dumps({"splits": splits}), encoding="utf-8")


def export_hf(root: Path, tables: ReleaseTables, written: Sequence[InstructionFiles]) -> HubLayout:
    """`root/hf/`: the DatasetDict, and one folder per Hub config (`data/<config>/`); returns the layout."""
    hf = root / HF_FOLDER
    save_dataset_dict(hf, tables)
    layout = hub_layout(
        root,
        {name: table.num_rows for name, table in tables.as_dict().items()},
        [(w.task, w.shot, f"instructions/{w.parquet}", w.rows) for w in written],
    )
    write_hub_data(hf, layout)
    return layout
