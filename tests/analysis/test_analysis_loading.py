from __future__ import annotations

import json
from pathlib import Path

import pytest

from devicesworld.analysis import ReportError, load_results, load_run
from tests.analysis.dw_analysis_builders import ep


def _line(task_id: str, success: bool, **kw: object) -> str:
    return ep(task_id, success, **kw).model_dump_json() + "\n"


def test_missing_directory_or_file_raises(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="does not exist"):
        load_results(tmp_path / "nope")
    with pytest.raises(ReportError, match=r"results\.jsonl"):
        load_results(tmp_path)


def test_skips_truncated_last_line(tmp_path: Path) -> None:
    text = _line("t1", True) + _line("t2", False)
    truncated = _line("t3", True)[:25]  # killed mid-write, no newline
    (tmp_path / "results.jsonl").write_text(text + truncated)
    warnings: list[str] = []
    results = load_results(tmp_path, warnings=warnings)
    assert [r.task_id for r in results] == ["t1", "t2"]
    assert len(warnings) == 1
    assert "line 3" in warnings[0] and "truncated" in warnings[0]


def test_truncated_inside_multibyte_character(tmp_path: Path) -> None:
    full = _line("t2", True, error="caf\u00e9").encode()
    cut = full[: full.index(b"\xc3") + 1]
    (tmp_path / "results.jsonl").write_bytes(_line("t1", True).encode() + cut)
    run = load_run(tmp_path)
    assert [r.task_id for r in run.results] == ["t1"]
    assert len(run.warnings) == 1


def test_corrupt_middle_line_reported_with_line_number(tmp_path: Path) -> None:
    text = _line("t1", True) + "{not json\n" + '{"task_id": "x"}\n' + _line("t4", False)
    (tmp_path / "results.jsonl").write_text(text)
    run = load_run(tmp_path)
    assert [r.task_id for r in run.results] == ["t1", "t4"]
    assert len(run.warnings) == 2
    assert "line 2" in run.warnings[0] and "invalid JSON" in run.warnings[0]
    assert "line 3" in run.warnings[1] and "not an episode result" in run.warnings[1]
    with pytest.raises(ReportError, match="line 2"):
        load_run(tmp_path, strict=True)


def test_last_duplicate_wins(tmp_path: Path) -> None:
    text = _line("t1", False, score=0.0) + _line("t2", True) + _line("t1", True, score=1.0) + "\n\n"
    (tmp_path / "results.jsonl").write_text(text)
    run = load_run(tmp_path)
    assert [r.task_id for r in run.results] == ["t2", "t1"]
    t1 = run.results[1]
    assert t1.success and t1.score == 1.0
    assert any("more than once" in w and "t1" in w for w in run.warnings)


def test_reads_run_json(tmp_path: Path) -> None:
    (tmp_path / "results.jsonl").write_text(_line("t1", True))
    assert load_run(tmp_path).config is None
    (tmp_path / "run.json").write_text(json.dumps({"agent": "oracle", "suite": "smoke"}))
    run = load_run(tmp_path)
    assert run.config == {"agent": "oracle", "suite": "smoke"}
    assert run.run_dir == tmp_path
    (tmp_path / "run.json").write_text("[1, 2]")
    run = load_run(tmp_path)
    assert run.config is None
    assert any("run.json" in w for w in run.warnings)


def test_accepts_results_file_path_and_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text("")
    assert load_results(path) == []
    assert load_results(tmp_path) == []


def test_a_text_only_llm_run_is_labelled_so(tmp_path: Path) -> None:
    from devicesworld.analysis.loading import load_run
    from devicesworld.analysis.report import run_label
    from tests.analysis.dw_run_fixtures import make_viewer_run

    run_dir = make_viewer_run(tmp_path / "run", n=1)
    assert "[text-only]" not in run_label(load_run(run_dir))
    manifest = json.loads((run_dir / "run.json").read_text())
    manifest["config"]["agent_extra"] = {"vision": False}
    (run_dir / "run.json").write_text(json.dumps(manifest))
    assert run_label(load_run(run_dir)).endswith("[text-only]")
    # and the terminal report shows it: the label is text, not a rich markup tag to swallow
    from click.testing import CliRunner

    from devicesworld.cli import main

    res = CliRunner().invoke(main, ["report", str(run_dir)], terminal_width=200)
    assert res.exit_code == 0, res.output
    titled = [line for line in res.output.splitlines() if "[text-only]" in line]
    assert len(titled) >= 3, res.output  # the metrics title, Table 1, the failure figures
