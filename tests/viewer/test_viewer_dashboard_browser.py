"""The dashboard in a real browser: the run list (agent, model, date, CIs, invalid rate) refreshing
while a run writes, two runs compared task by task, and the images an llm agent saw beside its prompt.

Headless Debian Chromium through Playwright: the ``browser`` and ``serve_runs`` fixtures are in
``conftest.py`` (skips saying why when either is missing, fails under ``DEVICESWORLD_REQUIRE_SYSTEM=1``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from devicesworld.agents import AgentOptions, get_agent
from devicesworld.agents.llm.testserver import ScriptedServer
from devicesworld.runner.episode import run_episode
from devicesworld.runner.resultsfile import append_result
from devicesworld.spec import Task
from tests.analysis.dw_run_fixtures import make_viewer_run, tiny_png
from tests.toykind import toy_task
from tests.viewer.conftest import ServeRuns


def rewrite_results(run_dir: Path, outcomes: dict[str, bool]) -> None:
    """Set some tasks' success (and score) in a run's results.jsonl."""
    path = run_dir / "results.jsonl"
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for line in lines:
        if line["task_id"] in outcomes:
            line["success"] = outcomes[line["task_id"]]
            line["score"] = 1.0 if line["success"] else 0.0
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_the_run_list_shows_who_what_when_and_refreshes_while_a_run_writes(
    browser: Any, tmp_path: Path, serve_runs: ServeRuns
) -> None:
    run_dir = make_viewer_run(tmp_path / "run", n=3)  # 3 oracle successes + 1 failed episode
    srv = serve_runs(run_dir)
    page = browser.new_page()
    page.goto(srv.url)
    row = page.locator("tr.run-row").first
    row.wait_for()
    assert row.locator("td.agent").inner_text() == "oracle"
    assert row.locator("td.tasks").inner_text() == "4"
    success = row.locator("td.success").inner_text()
    assert success.startswith("75.0%") and "[" in success  # with its 95% CI
    assert row.locator("td.score").inner_text().startswith("0.750")
    assert row.locator("td.invalid").inner_text() == "0.0%"
    assert row.locator("td.date").inner_text()[:2] == "20"
    # the run goes on writing: a new line appears without reloading the page
    results = run_dir / "results.jsonl"
    line = json.loads(results.read_text().splitlines()[0])
    line.update(task_id="toy-late", valid=False, invalid_cause="device_failed", success=False, score=0.0)
    with results.open("a") as f:
        f.write(json.dumps(line) + "\n")
    page.wait_for_function(
        "() => document.querySelector('tr.run-row td.tasks').innerText === '5'", timeout=20_000
    )
    assert row.locator("td.invalid").inner_text() == "20.0%"


def test_a_running_run_page_shows_new_episodes_and_metrics_without_a_reload(
    browser: Any, tmp_path: Path, serve_runs: ServeRuns
) -> None:
    """The run page of a run still writing (``status: running``) re-reads it: an episode finished
    after the page opened appears as a row, the metrics follow, and the page was not reloaded."""
    run_dir = make_viewer_run(tmp_path / "run", n=3)  # 3 oracle successes + 1 failed episode
    manifest = json.loads((run_dir / "run.json").read_text())
    manifest["status"] = "running"  # as execute_run leaves it until the last episode ends
    (run_dir / "run.json").write_text(json.dumps(manifest))
    late = make_viewer_run(tmp_path / "late", n=1)  # one more finished episode, written the same way
    srv = serve_runs(run_dir)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(srv.url + "#/run/0")
    page.wait_for_selector("tr.task-row")
    page.wait_for_selector("table.metrics")
    assert page.locator("tr.task-row").count() == 4
    assert "75.0%" in page.locator("table.metrics").inner_text()
    page.evaluate("() => { window.notReloaded = true; }")
    # the run writes one more episode: its folder first, then its line in results.jsonl
    shutil.copytree(late / "episodes" / "toy-0", run_dir / "episodes" / "toy-late")
    line = json.loads((late / "results.jsonl").read_text().splitlines()[0])
    line["task_id"] = "toy-late"
    with (run_dir / "results.jsonl").open("a") as f:
        f.write(json.dumps(line) + "\n")
    page.wait_for_selector("tr.task-row[data-task='toy-late']", timeout=20_000)
    assert page.locator("tr.task-row").count() == 5
    assert "5 of 5 episodes" in page.inner_text("main")
    page.wait_for_function(
        "() => document.querySelector('table.metrics').innerText.includes('80.0%')", timeout=20_000
    )
    assert page.evaluate("() => window.notReloaded === true")
    page.locator("tr.task-row[data-task='toy-late'] a").click()  # and the new episode opens
    page.wait_for_selector("section.step")
    assert page.locator("section.step").count() == 3
    assert not errors


def test_the_pairwise_view_lists_the_four_groups_and_opens_episodes_side_by_side(
    browser: Any, tmp_path: Path, serve_runs: ServeRuns
) -> None:
    a = make_viewer_run(tmp_path / "a", n=4)  # toy-0..3 succeed, toy-wrong fails
    b = make_viewer_run(tmp_path / "b", n=4)
    rewrite_results(a, {"toy-3": False})
    rewrite_results(b, {"toy-0": False, "toy-3": False, "toy-wrong": True})
    srv = serve_runs(a, b)
    page = browser.new_page()
    page.goto(srv.url)
    page.locator("tr.run-row").first.wait_for()
    assert page.locator("#compare").is_disabled()
    page.locator("input.pick[data-run='0']").check()
    page.locator("input.pick[data-run='1']").check()
    page.locator("#compare").click()
    page.wait_for_selector("section.group")
    groups = {
        g: page.locator(f"section#group-{g} tr.pair-row").evaluate_all(
            "rows => rows.map(r => r.dataset.task)"
        )
        for g in ("both", "only_a", "only_b", "neither")
    }
    assert groups == {
        "both": ["toy-1", "toy-2"],
        "only_a": ["toy-0"],
        "only_b": ["toy-wrong"],
        "neither": ["toy-3"],
    }
    page.select_option("#group-filter", "only_a")
    assert page.locator("section.group").count() == 1
    page.locator("tr.pair-row[data-task='toy-0'] a.side-link").click()
    page.wait_for_selector("div.side-a section.step")
    page.wait_for_selector("div.side-b section.step")
    assert page.locator("div.sides > div").count() == 2
    assert "success" in page.locator("div.side-a > p").inner_text()
    assert "failed" in page.locator("div.side-b > p").inner_text()
    page.go_back()
    page.locator("tr.pair-row[data-task='toy-0'] a.ep-b").click()
    page.wait_for_selector("section.step")
    assert "#/run/1/ep/toy-0" in page.url


def test_the_images_an_llm_agent_saw_are_shown_beside_its_prompt(
    browser: Any, tmp_path: Path, serve_runs: ServeRuns, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``vision=auto`` (no option given): the run keeps each image; the viewer shows it by the prompt."""
    for var in ("OPENAI_API_KEY", "DEVICESWORLD_API_KEY", "DEVICESWORLD_MODEL", "DEVICESWORLD_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    task = Task.model_validate(toy_task(id="toy-seen"))
    run_dir = tmp_path / "llm"
    run_dir.mkdir()
    with ScriptedServer(delay_s=6.0) as model:
        options = AgentOptions(model="scripted", base_url=model.base_url, extra={"log_prompts": "full"})
        result = run_episode(task, get_agent("llm"), options, run_dir / "episodes" / task.id)
    append_result(run_dir / "results.jsonl", result)
    images = list((run_dir / "episodes" / task.id / "images").glob("*.png"))
    assert images
    for png in images:  # the toy device's "screenshot" is a stand-in; a real PNG for the browser
        png.write_bytes(tiny_png())
    srv = serve_runs(run_dir)
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(srv.url + "#/run/0/ep/toy-seen")
    page.wait_for_selector("section.step .beside img.model-image")
    beside = page.locator("section.step .beside").first
    assert beside.locator("details summary").first.inner_text().startswith("model calls")
    page.wait_for_function(
        "() => { const i = document.querySelector('img.model-image');"
        " return i && i.complete && i.naturalWidth > 0; }"
    )
    src = beside.locator("img.model-image").first.get_attribute("src") or ""
    assert any(src.endswith(f"/images/{p.name}") for p in images)
    assert not errors


def test_run_llm_on_a_gui_task_sends_the_desktop_screenshot_and_the_viewer_shows_it(
    browser: Any, tmp_path: Path, serve_runs: ServeRuns, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``devicesworld run --agent llm`` with no vision option on a GUI desktop task: the preflight
    finds the endpoint takes images, the model gets the desktop's screenshot, the viewer shows it."""
    from click.testing import CliRunner

    from devicesworld.cli import main
    from tests.devices.desktop.desktop_harness import require_gui_stack

    require_gui_stack()
    for var in ("OPENAI_API_KEY", "DEVICESWORLD_API_KEY", "DEVICESWORLD_MODEL", "DEVICESWORLD_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    out = tmp_path / "gui"
    task_id = "smoke-gui-lx-terminal-count-1"
    with ScriptedServer(delay_s=6.0) as model:
        args = ["run", "--suite", "smoke", "--task-ids", task_id, "--agent", "llm", "--model", "scripted"]
        r = CliRunner().invoke(main, [*args, "--base-url", model.base_url, "--out", str(out)])
        sent = [req for req in model.requests if req.role != "preflight"]
    assert r.exit_code == 0, r.output
    assert "vision: screenshots are sent" in r.output
    parts = sent[0].body["messages"][1]["content"]
    assert any(p["type"] == "image_url" for p in parts)  # the desktop's screenshot, no option given
    first = json.loads((out / "episodes" / task_id / "steps.jsonl").read_text().splitlines()[0])
    rel = next(iter(first["agent_notes"]["images"].values()))
    srv = serve_runs(out)
    page = browser.new_page()
    page.goto(srv.url + f"#/run/0/ep/{task_id}")
    page.wait_for_selector("section.step .beside img.model-image")
    page.wait_for_function(
        "() => { const i = document.querySelector('img.model-image');"
        " return i && i.complete && i.naturalWidth > 0; }"
    )
    img = page.locator("section.step .beside img.model-image").first
    assert (img.get_attribute("src") or "").endswith(rel)
    assert img.evaluate("i => i.naturalWidth") >= 640  # a real desktop screenshot
