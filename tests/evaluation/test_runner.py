"""What a model's review run records of itself, and where it goes."""

from __future__ import annotations

from pathlib import Path

from evaluation.runner import PROMPT_ID, model_meta, run_folder


def test_a_model_run_records_its_model_shots_prompt_and_calls() -> None:
    counts = {"counts": {"requests": 3}, "failures": {}}
    assert model_meta("m", "1", counts) == {"model": "m", "shots": 1, "prompt_id": PROMPT_ID, "llm": counts}


def test_a_run_s_folder_is_safe_for_any_model_name(tmp_path: Path) -> None:
    assert run_folder(tmp_path, "Qwen/Qwen2.5-7B", "v1") == tmp_path / "Qwen_Qwen2.5-7B" / "v1"
    assert run_folder(tmp_path, "..", "v1") == tmp_path / "model" / "v1"
