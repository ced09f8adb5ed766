"""The viewer's JSON API and file serving, over a real run directory (no browser)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from devicesworld.viewer import RunStore, ViewerError, ViewerServer, make_server, serve_in_thread
from tests.analysis.dw_run_fixtures import make_viewer_run, run_scripted, two_toy_task


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    return make_viewer_run(tmp_path / "run", n=3)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ViewerServer]:
    srv = make_server([make_viewer_run(tmp_path_factory.mktemp("api") / "run", n=3)], port=0)
    serve_in_thread(srv)
    yield srv
    srv.shutdown()
    srv.server_close()


def get(server: ViewerServer, path: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(server.url.rstrip("/") + path) as res:
            body = res.read()
            return res.status, json.loads(body) if res.headers["Content-Type"] == "application/json" else body
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def test_binds_localhost_only(server: ViewerServer) -> None:
    assert server.server_address[0] == "127.0.0.1"


def test_runs_tasks_metrics_diagnoses_episode(server: ViewerServer) -> None:
    status, runs = get(server, "/api/runs")
    assert status == 200 and runs[0]["n"] == 4 and runs[0]["n_success"] == 3
    _, tasks = get(server, "/api/runs/0/tasks")
    assert {t["task_id"] for t in tasks} == {"toy-0", "toy-1", "toy-2", "toy-wrong"}
    _, metrics = get(server, "/api/runs/0/metrics")
    assert metrics["success_rate"] == 0.75 and metrics["success_ci95"] is not None
    _, diag = get(server, "/api/runs/0/diagnoses")
    assert diag["by_task"]["toy-wrong"]["failure_type"] == "D2"
    _, ep = get(server, "/api/runs/0/episodes/toy-0")
    assert [s["action"]["action"] for s in ep["steps"]] == ["press", "press", "finish"]
    shot = ep["steps"][0]["screenshots"][0]
    status, png = get(server, f"/files/0/toy-0/{shot}")
    assert status == 200 and png.startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "path",
    [
        "/files/0/toy-0/..%2F..%2Fresults.jsonl",
        "/files/0/toy-0/steps.jsonl",
        "/files/0/toy-0/images/..%2F..%2Fresults.jsonl",
        "/files/0/toy-0/other/x.png",
        "/api/pairwise/0/9",
        "/files/0/nope/x.png",
        "/files/9/toy-0/x.png",
        "/api/runs/7/tasks",
        "/api/runs/x/tasks",
        "/api/runs/0/episodes/nope",
        "/etc/passwd",
        "/static/../../cli.py",
    ],
)
def test_bad_paths_are_404_with_a_message(server: ViewerServer, path: str) -> None:
    status, body = get(server, path)
    assert status == 404 and body["error"]


def test_static_app_is_served(server: ViewerServer) -> None:
    status, html = get(server, "/")
    assert status == 200 and b"/static/app.js" in html


def test_run_is_reread_when_results_grow(run_dir: Path) -> None:
    store = RunStore([run_dir])
    assert len(store.get(0).tasks()) == 4
    run_scripted(two_toy_task("late"), [], run_dir)
    assert len(store.get(0).tasks()) == 5


def test_a_missing_run_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ViewerError, match="does not exist"):
        make_server([tmp_path / "nope"])


def test_episode_steps_are_read_only_when_opened(run_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import devicesworld.viewer.store as store_mod
    from devicesworld.analysis.trajectory import read_trajectory

    opened: list[str] = []
    real = read_trajectory

    def spy(run_dir: Path, task_id: str) -> Any:
        opened.append(task_id)
        return real(run_dir, task_id)

    monkeypatch.setattr(store_mod, "read_trajectory", spy)
    entry = RunStore([run_dir]).get(0)
    entry.summary()
    entry.tasks()
    entry.metrics()
    assert opened == []
    entry.episode("toy-1")
    assert opened == ["toy-1"]


def test_an_empty_run_is_served(tmp_path: Path) -> None:
    (tmp_path / "results.jsonl").write_text("")
    entry = RunStore([tmp_path]).get(0)
    assert entry.summary()["n"] == 0 and entry.tasks() == []
    assert entry.metrics()["success_rate"] is None
    assert entry.diagnoses()["summary"]["n_failed"] == 0


def test_an_episode_carries_its_instruction_and_what_the_agent_saw(server: ViewerServer) -> None:
    status, ep = get(server, "/api/runs/0/episodes/toy-0")
    assert status == 200 and ep["result"]["instruction"] == "Make the toy show 3."
    first = ep["steps"][0]["observation"]
    assert set(first) == {"toy_0"} and '"screen": "a toy"' in first["toy_0"]


def test_every_trial_is_shown_and_invalid_episodes_are_counted_by_cause(tmp_path: Path) -> None:
    from devicesworld.runner.run import RunConfig, execute_run
    from devicesworld.spec import Task
    from tests.toykind import toy_task

    dies = toy_task(id="toy-dies", devices=[{"id": "toy_0", "kind": "toy", "profile": {"dies_at_action": 2}}])
    tasks = [Task.model_validate(toy_task(id="toy-a")), Task.model_validate(dies)]
    execute_run(tasks, RunConfig(agent="oracle", source="t", trials=3), tmp_path)
    entry = RunStore([tmp_path]).get(0)
    rows = entry.tasks()
    assert sorted(r["episode"] for r in rows if r["task_id"] == "toy-a") == ["toy-a", "toy-a~2", "toy-a~3"]
    assert [r["trial"] for r in rows if r["task_id"] == "toy-a"] == [1, 2, 3]
    summary = entry.summary()
    assert summary["n_episodes"] == 6 and summary["n"] == 3 and summary["success_rate"] == 1.0
    assert summary["invalid"] == {"device_failed": 3}
    assert summary["invalid_line"].startswith("Invalid episodes: 3/6 (50.0%): device_failed 3")
    third = entry.episode("toy-a~3")
    assert third["result"]["trial"] == 3 and third["trials"] == ["toy-a", "toy-a~2", "toy-a~3"]
    assert [s["action"]["action"] for s in third["steps"]] == ["press", "press", "finish"]
    assert entry.metrics()["invalid_by_cause"] == {"device_failed": 3}
    assert entry.diagnoses()["summary"]["n_failed"] == 0  # an invalid episode is no agent failure


def test_the_run_summary_names_agent_model_and_gives_cis_and_invalid_rate(run_dir: Path) -> None:
    store = RunStore([run_dir])
    summary = store.get(0).summary()
    assert summary["agent"] == "oracle" and summary["model"] is None and summary["started_at"]
    assert summary["success_ci95"] is not None and summary["score_ci95"] is not None
    assert summary["mean_score"] is not None and summary["invalid_rate"] == 0.0


def test_pairwise_groups_and_the_model_images_route(tmp_path: Path) -> None:
    a = make_viewer_run(tmp_path / "a", n=2)
    b = make_viewer_run(tmp_path / "b", n=1)
    pairs = RunStore([a, b]).pairwise(0, 1)
    assert [r["task_id"] for r in pairs["groups"]["both"]] == ["toy-0"]
    assert [r["task_id"] for r in pairs["groups"]["neither"]] == ["toy-wrong"]
    assert [r["task_id"] for r in pairs["unpaired"]] == ["toy-1"]
    images = a / "episodes" / "toy-0" / "images"
    images.mkdir()
    (images / "abc.png").write_bytes(b"\x89PNG")
    entry = RunStore([a]).get(0)
    assert entry.file("toy-0", "abc.png", "images") == (images / "abc.png").resolve()
    with pytest.raises(ViewerError):
        entry.file("toy-0", "abc.png", "..")
    with pytest.raises(ViewerError):
        RunStore([a]).pairwise(0, 3)
