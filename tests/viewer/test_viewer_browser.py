"""The viewer in a real browser: open a run, open an episode, see its steps and screenshots.

Headless Debian Chromium through Playwright: the ``browser`` and ``serve_runs`` fixtures are
in ``conftest.py`` (skips saying why when either is missing, fails under
``DEVICESWORLD_REQUIRE_SYSTEM=1``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from devicesworld.viewer import ViewerServer, make_server, serve_in_thread
from tests.analysis.dw_run_fixtures import make_viewer_run
from tests.viewer.conftest import ServeRuns


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ViewerServer]:
    run_dir = make_viewer_run(tmp_path_factory.mktemp("viewer") / "run")
    srv = make_server([run_dir], port=0)
    serve_in_thread(srv)
    yield srv
    srv.shutdown()
    srv.server_close()


def test_open_run_then_episode_and_see_steps_and_screenshots(browser: Any, server: ViewerServer) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url)
    page.locator("a.run-link").first.click()
    page.wait_for_selector("tr.task-row")
    assert page.locator("tr.task-row").count() == 7
    page.wait_for_selector("table.metrics")
    assert "Success rate (TSR)" in page.locator("table.metrics").inner_text()

    page.locator("tr.task-row[data-task='toy-1'] a").click()
    page.wait_for_selector("section.step")
    steps = page.locator("section.step")
    assert steps.count() == 3
    assert page.locator("nav.strip button.chip").count() == 3
    assert "press" in steps.nth(0).inner_text() and "value is now 2" in steps.nth(0).inner_text()
    assert "finish" in steps.nth(2).inner_text()
    assert "is3" in page.inner_text("main")  # evaluator trace
    img = page.locator("section.step img.screenshot").first
    img.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => { const i = document.querySelector('img.screenshot'); return i && i.complete && i.naturalWidth > 0; }"
    )
    assert img.evaluate("i => i.naturalWidth") == 8
    assert not errors


def test_filters_and_failure_diagnosis_in_browser(browser: Any, server: ViewerServer) -> None:
    page = browser.new_page()
    page.goto(server.url + "#/run/0")
    page.wait_for_selector("tr.task-row")
    page.wait_for_function("() => document.body.innerText.includes('Failed runs with partial progress')")
    page.select_option("select[data-filter='outcome']", "failed")
    assert page.locator("tr.task-row").count() == 1
    page.select_option("select[data-filter='failure_type']", "D2")
    assert page.locator("tr.task-row").count() == 1
    page.locator("tr.task-row a").click()
    page.wait_for_selector(".diag")
    assert "D2" in page.inner_text(".diag") and "toy_0" in page.inner_text(".diag")


def test_episode_page_shows_instruction_observation_prompts_and_replies(
    browser: Any, tmp_path: Path, serve_runs: ServeRuns
) -> None:
    import json

    run_dir = make_viewer_run(tmp_path / "run", n=1)
    steps_file = run_dir / "episodes" / "toy-0" / "steps.jsonl"
    lines = [json.loads(line) for line in steps_file.read_text().splitlines()]
    lines[0]["agent_notes"] = {
        "model": "m",
        "calls": [
            {
                "role": "actor",
                "model": "m",
                "tokens_in": 12,
                "tokens_out": 3,
                "prompt": [
                    {"role": "system", "content": "You operate devices."},
                    {"role": "user", "content": [{"type": "text", "text": "PROMPT-MARKER goal"}]},
                ],
                "reply": {"content": "REPLY-MARKER", "tool_calls": [{"name": "press", "arguments": "{}"}]},
            }
        ],
        "plan": ["press twice"],
    }
    steps_file.write_text("".join(json.dumps(line) + "\n" for line in lines))
    srv = serve_runs(run_dir)
    page = browser.new_page()
    page.goto(srv.url + "#/run/0/ep/toy-0")
    page.wait_for_selector("section.step")
    assert "Make the toy show 3." in page.inner_text("p.instruction")
    first = page.locator("section.step").first
    text = first.text_content() or ""
    assert "what the agent saw" in text and "toy_0" in text  # the logged observation
    assert "PROMPT-MARKER goal" in text and "REPLY-MARKER" in text and "press({})" in text
    assert "press twice" in text  # other agent notes
    assert "PROMPT-MARKER" not in (page.locator("section.step").nth(1).text_content() or "")
