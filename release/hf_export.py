"""The Hugging Face export of a release: `hf/` as a DatasetDict plus one folder per Hub config.

`load_from_disk(hf/)` gives every public table; `hf/data/<config>/` holds the Parquet file each of the
card's configs points at (copied from the release, so the bytes are the ones the manifest hashes).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from release.hub_layout import HubLayout, hub_layout, write_hub_data
from release.instructions import InstructionFiles
from release.tables import ReleaseTables

HF_FOLDER = "hf"


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
    """The public tables as one DatasetDict keyed by table name."""
    import datasets
    from datasets.table import InMemoryTable

    splits = {
        name: datasets.Dataset(InMemoryTable(table.replace_schema_metadata(None)))
        for name, table in tables.as_dict().items()
    }
    with _quiet_datasets():
        # One shard per table: datasets writes no shard at all for an empty table, and then cannot load it.
        datasets.DatasetDict(splits).save_to_disk(str(hf_dir), num_shards={name: 1 for name in splits})


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
