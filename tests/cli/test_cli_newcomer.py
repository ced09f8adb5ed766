"""A newcomer's path through the CLI: own agents, failing fast, seeing what the agent saw, picking tasks."""

from __future__ import annotations

import json
import re
import socket
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from devicesworld.cli import main
from tests.toykind import toy_task

DOCS = Path(__file__).resolve().parents[2] / "docs"

BROKEN = """
from devicesworld import Decision, Step

class Broken:
    def start(self, info):
        pass

    def act(self, observation, feedback):
        return helper(observation)

def helper(observation):
    raise ValueError("boom at step")

def make(options):
    return Broken()
"""

CAREFUL = '''
from devicesworld import Decision, Step

class Careful:
    """Presses twice, then finishes."""
    def start(self, info):
        self.left = 2

    def act(self, observation, feedback):
        self.left -= 1
        if self.left >= 0:
            return Decision(action=Step(device="toy_0", action="press"))
        return Decision(action=Step(action="finish"))
'''


def _tasks(tmp_path: Path, n: int = 5) -> Path:
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(toy_task(id=f"t{i}")) + "\n" for i in range(n)))
    return path


def _results(run_dir: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]


@pytest.fixture
def restore_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Agents loaded by these tests add folders to sys.path; put it back afterwards."""
    monkeypatch.setattr(sys, "path", list(sys.path))


def doc_agent_source() -> str:
    text = (DOCS / "writing-an-agent.md").read_text()
    block = text.split("<!-- agent:begin -->", 1)[1].split("<!-- agent:end -->", 1)[0]
    return block.split("```python", 1)[1].split("```", 1)[0]


# ------------------------------------------------------------------ own agents
def test_the_documented_agent_runs_as_written_by_file_path_and_by_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_path: None
) -> None:
    source = doc_agent_source()
    assert 15 <= len([line for line in source.splitlines() if line.strip()]) <= 25
    (tmp_path / "my_agent.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    by_file = runner.invoke(
        main,
        [
            "run",
            "--suite",
            "smoke",
            "--task-ids",
            "smoke-sh-001",
            "--agent",
            "my_agent.py:make",
            "--out",
            "r1",
        ],
    )
    assert by_file.exit_code == 0, by_file.output
    assert _results(tmp_path / "r1")[0]["success"] is True
    monkeypatch.delitem(sys.modules, "my_agent", raising=False)
    by_module = runner.invoke(
        main,
        ["run", "--suite", "smoke", "--task-ids", "smoke-sh-001", "--agent", "my_agent:make", "--out", "r2"],
    )
    assert by_module.exit_code == 0, by_module.output
    assert _results(tmp_path / "r2")[0]["success"] is True


def test_a_class_taking_no_arguments_is_an_agent(tmp_path: Path, restore_path: None) -> None:
    (tmp_path / "careful.py").write_text(CAREFUL)
    out = tmp_path / "run"
    r = CliRunner().invoke(
        main,
        [
            "run",
            "--tasks",
            str(_tasks(tmp_path, 1)),
            "--agent",
            f"{tmp_path / 'careful.py'}:Careful",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    assert _results(out)[0]["success"] is True and _results(out)[0]["steps"] == 3


def test_a_factory_that_is_not_an_agent_fails_before_any_episode(tmp_path: Path) -> None:
    out = tmp_path / "run"
    r = CliRunner().invoke(
        main, ["run", "--tasks", str(_tasks(tmp_path)), "--agent", "os:getcwd", "--out", str(out)]
    )
    assert r.exit_code == 2
    assert "'os:getcwd' is not an agent: it returned str" in r.output and "start(info)" in r.output
    assert "Traceback" not in r.output and not out.exists()


def test_a_missing_module_or_file_names_where_it_looked(tmp_path: Path) -> None:
    r = CliRunner().invoke(
        main, ["run", "--tasks", str(_tasks(tmp_path)), "--agent", "nosuch_agent_mod:make"]
    )
    assert r.exit_code == 2 and "current folder" in r.output
    r = CliRunner().invoke(main, ["run", "--tasks", str(_tasks(tmp_path)), "--agent", "nope/agent.py:make"])
    assert r.exit_code == 2 and "no file" in r.output


def test_an_unreachable_base_url_is_refused_before_the_run(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "run"
    r = CliRunner().invoke(
        main,
        [
            "run",
            "--tasks",
            str(_tasks(tmp_path)),
            "--agent",
            "noop",
            "--base-url",
            f"http://127.0.0.1:{port}/v1",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 2 and f"cannot connect to 127.0.0.1:{port}" in r.output
    assert not out.exists()


# ------------------------------------------------------------------ fail fast
def test_consecutive_agent_errors_stop_the_run_with_the_traceback_tail(
    tmp_path: Path, restore_path: None
) -> None:
    (tmp_path / "broken.py").write_text(BROKEN)
    out = tmp_path / "run"
    agent = f"{tmp_path / 'broken.py'}:make"
    r = CliRunner().invoke(
        main, ["run", "--tasks", str(_tasks(tmp_path, 6)), "--agent", agent, "--out", str(out)]
    )
    assert r.exit_code == 1, r.output
    assert len(_results(out)) == 3  # stopped after 3 in a row, not all 6
    flat = " ".join(r.output.split())
    assert "stopped after 3 episodes in a row ended in an error" in flat
    assert "ValueError: boom at step" in flat and "in helper" in flat  # the traceback's last lines
    assert "full traceback:" in flat and "steps.jsonl" in flat
    assert json.loads((out / "run.json").read_text())["status"] == "stopped"
    # --max-errors 0 runs everything; every episode erred, so the exit status still says so
    r = CliRunner().invoke(
        main,
        [
            "run",
            "--tasks",
            str(_tasks(tmp_path, 6)),
            "--agent",
            agent,
            "--out",
            str(tmp_path / "all"),
            "--max-errors",
            "0",
        ],
    )
    assert r.exit_code == 1 and len(_results(tmp_path / "all")) == 6
    assert "every episode ended in an error" in " ".join(r.output.split())


def test_resume_retry_errors_runs_errored_episodes_again(tmp_path: Path, restore_path: None) -> None:
    (tmp_path / "broken.py").write_text(BROKEN)
    (tmp_path / "careful.py").write_text(CAREFUL)
    tasks, out = _tasks(tmp_path, 4), tmp_path / "run"
    runner = CliRunner()
    first = runner.invoke(
        main, ["run", "--tasks", str(tasks), "--agent", f"{tmp_path / 'broken.py'}:make", "--out", str(out)]
    )
    assert first.exit_code == 1 and len(_results(out)) == 3
    plain = runner.invoke(
        main,
        [
            "run",
            "--tasks",
            str(tasks),
            "--agent",
            f"{tmp_path / 'careful.py'}:Careful",
            "--out",
            str(out),
            "--force-resume",  # another agent (the fixed one): a plain --resume refuses it
        ],
    )
    assert plain.exit_code == 0, plain.output
    assert "Careful: 1/1 (100%)" in plain.output  # progress counts only the episode left to run
    assert sorted(str(r["termination"]) for r in _results(out)) == ["error", "error", "error", "finished"]
    retried = runner.invoke(
        main,
        [
            "run",
            "--tasks",
            str(tasks),
            "--agent",
            f"{tmp_path / 'careful.py'}:Careful",
            "--out",
            str(out),
            "--resume",
            "--retry-errors",
        ],
    )
    assert retried.exit_code == 0, retried.output
    rows = _results(out)
    assert len(rows) == 4 and all(r["success"] for r in rows)
    assert "retried: 3 episode(s)" in retried.output
    needs_resume = runner.invoke(main, ["run", "--tasks", str(tasks), "--agent", "noop", "--retry-errors"])
    assert needs_resume.exit_code == 2 and "--resume" in needs_resume.output


# ------------------------------------------------------------ what the agent saw
def test_results_carry_the_instruction_and_steps_the_observation(tmp_path: Path) -> None:
    out = tmp_path / "run"
    r = CliRunner().invoke(
        main,
        [
            "run",
            "--suite",
            "smoke",
            "--task-ids",
            "smoke-android-001",
            "--agent",
            "oracle",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    result = _results(out)[0]
    assert result["instruction"] == "Text Ann Lee: Running 10 minutes late" and result["schema_version"] == 2
    log = out / "episodes" / "smoke-android-001" / "steps.jsonl"
    steps = [json.loads(line) for line in log.read_text().splitlines()]
    first, second = steps[0]["observation"]["android_0"], steps[1]["observation"]["android_0"]
    assert "NexusLauncherActivity" in first and "[5] TextView 'Messages'" in first  # the home screen
    assert "NexusLauncherActivity" not in second  # the second decision saw the app the first one opened
    assert '"ui_elements"' not in first  # the element list is logged as its screen text


def test_the_observation_log_is_size_bounded() -> None:
    from devicesworld.spec.records import OBSERVATION_CHARS, observation_text

    big = {
        "android_0": {
            "screen_text": "x" * 50_000,
            "ui_elements": [{"a": 1}] * 1000,
            "_screenshot_png": "AAAA",
        }
    }
    text = observation_text(big)["android_0"]
    assert len(text) < OBSERVATION_CHARS + 100 and "more characters not logged" in text
    assert "ui_elements" not in text and "_screenshot_png" not in text


def test_log_format_doc_lists_every_field_and_the_current_versions() -> None:
    from devicesworld.runner.run import RUN_SCHEMA_VERSION, RunConfig
    from devicesworld.spec.records import RECORD_SCHEMA_VERSION, EpisodeResult, StepRecord

    doc = (DOCS / "log-format.md").read_text()
    documented = set(re.findall(r"`([a-z_0-9]+)`", doc))
    for model in (EpisodeResult, StepRecord, RunConfig):
        missing = set(model.model_fields) - documented
        assert not missing, f"{model.__name__} fields missing from docs/log-format.md: {sorted(missing)}"
    assert f"`run.json` — schema version {RUN_SCHEMA_VERSION}" in doc
    assert f"`results.jsonl` — schema version {RECORD_SCHEMA_VERSION}" in doc
    assert f"steps.jsonl` — schema version {RECORD_SCHEMA_VERSION}" in doc


# ------------------------------------------------------------------ selection
def test_task_ids_and_filters_pick_tasks(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "run"
    r = runner.invoke(
        main,
        [
            "run",
            "--suite",
            "smoke",
            "--task-ids",
            "smoke-sh-002,smoke-sh-001",
            "--agent",
            "noop",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    assert [row["task_id"] for row in _results(out)] == ["smoke-sh-002", "smoke-sh-001"]
    listed = json.loads(
        runner.invoke(
            main,
            [
                "tasks",
                "list",
                "--suite",
                "smoke",
                "--filter",
                "kind=android",
                "--filter",
                "difficulty=easy",
                "--json",
            ],
        ).output
    )
    assert listed and all("android" in t["device_kinds"] and t["difficulty"] == "easy" for t in listed)
    exact = json.loads(
        runner.invoke(
            main, ["tasks", "list", "--suite", "smoke", "--filter", "kinds=smarthome", "--json"]
        ).output
    )
    assert exact and all(set(t["device_kinds"]) == {"smarthome"} for t in exact)
    by_app = json.loads(
        runner.invoke(
            main,
            [
                "tasks",
                "list",
                "--suite",
                "full",
                "--filter",
                "app=messages",
                "--filter",
                "split=test",
                "--json",
            ],
        ).output
    )
    assert by_app and all("android:messages" in t["apps"] and t["split"] == "test" for t in by_app)
    typo = runner.invoke(main, ["run", "--suite", "smoke", "--task-ids", "smoke-sh-0001", "--agent", "noop"])
    assert typo.exit_code == 2 and "did you mean smoke-sh-001" in " ".join(typo.output.split())
    bad_key = runner.invoke(main, ["tasks", "list", "--filter", "colour=red"])
    assert bad_key.exit_code == 2 and "unknown key 'colour'" in bad_key.output


def test_tasks_list_instructions_column(tmp_path: Path) -> None:
    r = CliRunner().invoke(
        main, ["tasks", "list", "--suite", "smoke", "--task-ids", "smoke-sh-001", "--instructions"]
    )
    assert r.exit_code == 0 and "instruction" in r.output
    assert "Turn on the hallway" in r.output
    rows = json.loads(
        CliRunner()
        .invoke(main, ["tasks", "list", "--task-ids", "smoke-sh-001", "--instructions", "--json"])
        .output
    )
    assert rows[0]["instruction"] == "Turn on the hallway light."


def test_show_and_list_read_the_index_without_building_or_setting_up_anything(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import devicesworld.tasks.suites as suites
    from devicesworld.env.controller import CrossDeviceEnv

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a setup ran or a suite was loaded")

    monkeypatch.setattr(CrossDeviceEnv, "reset", refuse)
    monkeypatch.setattr(suites, "load_suite", refuse)
    monkeypatch.setattr(suites, "BUILDERS", {"smoke": refuse, "bmoca": refuse})
    runner = CliRunner()
    for task_id in ("smoke-sh-001", "dw-dit-0005", "bmoca-airplane-on"):
        r = runner.invoke(main, ["tasks", "show", task_id, "--json"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.output)["id"] == task_id
    assert runner.invoke(main, ["tasks", "show", "smoke-sh-001", "--suite", "full"]).exit_code == 2
    assert runner.invoke(main, ["tasks", "list", "--suite", "test", "--json"]).exit_code == 0


def test_a_mistyped_device_kind_is_named_once(tmp_path: Path) -> None:
    doc = json.loads(CliRunner().invoke(main, ["tasks", "show", "smoke-sh-001", "--json"]).output)
    doc["devices"][0]["kind"] = "smarthom"
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(doc))
    r = CliRunner().invoke(main, ["tasks", "validate", str(path)])
    assert r.exit_code == 2
    flat = " ".join(r.output.split())
    assert "1 problem(s)" in flat and "unknown device kind 'smarthom' (known:" in flat and "smarthome" in flat
    assert "must be 'smarthom_<n>'" not in flat and "not one of the task's devices" not in flat


# ------------------------------------------------------------------ progress
def test_run_and_validate_print_progress_lines_and_a_summary_without_a_terminal(tmp_path: Path) -> None:
    tasks = _tasks(tmp_path, 10)
    r = CliRunner().invoke(
        main, ["run", "--tasks", str(tasks), "--agent", "oracle", "--out", str(tmp_path / "r")]
    )
    assert r.exit_code == 0, r.output
    assert "run oracle: 1/10 (10%), 1 ok, 0 errors" in r.output
    assert "run oracle: 10/10 (100%), 10 ok, 0 errors" in r.output
    assert "summary: 10/10 succeeded (100.0%), 0 error(s)" in r.output
    v = CliRunner().invoke(main, ["tasks", "validate", str(tasks)])
    assert v.exit_code == 0 and "validate: 10/10 (100%), 0 failed" in v.output


def test_screenshots_state_the_expected_size_up_front(tmp_path: Path) -> None:
    r = CliRunner().invoke(
        main,
        [
            "run",
            "--suite",
            "smoke",
            "--task-ids",
            "smoke-android-001",
            "--agent",
            "noop",
            "--screenshots",
            "--out",
            str(tmp_path / "r"),
        ],
    )
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert re.search(r"--screenshots: about \d+ phone PNGs \(~[\d.]+ MB\)", flat)
    assert flat.index("--screenshots: about") < flat.index("run noop:")


# ------------------------------------------------------------------ report, play
def test_report_compare_says_which_run_is_a_and_which_b(tmp_path: Path) -> None:
    tasks = _tasks(tmp_path, 2)
    runner = CliRunner()
    for agent in ("oracle", "noop"):
        assert (
            runner.invoke(
                main, ["run", "--tasks", str(tasks), "--agent", agent, "--out", str(tmp_path / agent)]
            ).exit_code
            == 0
        )
    r = runner.invoke(main, ["report", str(tmp_path / "oracle"), "--compare", str(tmp_path / "noop")])
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert f"A = {tmp_path / 'oracle'} (oracle)" in flat and f"B = {tmp_path / 'noop'} (noop)" in flat
    doc = json.loads(
        runner.invoke(
            main, ["report", str(tmp_path / "oracle"), "--compare", str(tmp_path / "noop"), "--json"]
        ).output
    )
    assert doc["compare"]["a"] == str(tmp_path / "oracle") and doc["compare"]["b"] == str(tmp_path / "noop")


def test_play_shows_argument_names_element_boxes_and_screenshot_paths(tmp_path: Path) -> None:
    screens = tmp_path / "screens"
    r = CliRunner().invoke(
        main,
        ["play", "smoke-android-001", "--screens", str(screens)],
        input='help\nandroid_0 click {"index": 5}\nfinish\n',
    )
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert "click(index?: integer, x?: number, y?: number)" in flat
    assert re.search(r"\[5\] TextView 'Messages' @\(\d+,\d+\)-\(\d+,\d+\)", flat)
    shot = screens / "step000_android_0.png"
    assert f"screenshot: {shot}" in flat and shot.read_bytes().startswith(b"\x89PNG")
    assert (screens / "step001_android_0.png").exists()


# ------------------------------------------------------------------ extras
def test_a_missing_extra_says_which_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [
        m for m in sys.modules if m.startswith(("devicesworld.agents.llm", "devicesworld.llmclient"))
    ]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "openai", None)
    r = CliRunner().invoke(main, ["run", "--tasks", str(_tasks(tmp_path)), "--agent", "llm", "--model", "m"])
    assert r.exit_code == 2
    assert "pip install 'devicesworld[llm]'" in " ".join(r.output.split()) and "Traceback" not in r.output


def test_picking_from_a_big_suite_parses_only_the_chosen_tasks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import devicesworld.tasks.suites as suites

    def refuse(name: str) -> None:
        raise AssertionError(f"the whole {name} suite was loaded")

    monkeypatch.setattr(suites, "load_suite", refuse)
    out = tmp_path / "run"
    r = CliRunner().invoke(
        main,
        [
            "run",
            "--suite",
            "test",
            "--filter",
            "kind=smarthome",
            "--limit",
            "2",
            "--agent",
            "oracle",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    rows = _results(out)
    assert len(rows) == 2 and all(row["success"] and row["split"] == "test" for row in rows)


def test_a_malformed_base_url_is_refused(tmp_path: Path) -> None:
    r = CliRunner().invoke(
        main, ["run", "--tasks", str(_tasks(tmp_path)), "--agent", "noop", "--base-url", "localhost:8000"]
    )
    assert r.exit_code == 2 and "expected http(s)://HOST[:PORT]/PATH" in r.output


def test_consecutive_setup_failures_stop_the_run_too(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    docs = [toy_task(id=f"b{i}", setup=[{"device": "toy_0", "op": "explode", "args": {}}]) for i in range(5)]
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    out = tmp_path / "run"
    r = CliRunner().invoke(main, ["run", "--tasks", str(path), "--agent", "oracle", "--out", str(out)])
    assert r.exit_code == 1, r.output
    flat = " ".join(r.output.split())
    assert len(_results(out)) == 3 and "setup failed" in flat and "full traceback:" in flat
    last = (out / "episodes" / "b2" / "steps.jsonl").read_text().splitlines()[-1]
    assert "Traceback" in json.loads(last)["traceback"]


def test_the_documented_vision_agent_sends_the_phone_screen_as_an_image(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_path: None
) -> None:
    from devicesworld.agents.llm.testserver import ScriptedServer

    text = (DOCS / "writing-an-agent.md").read_text()
    block = text.split("<!-- vision-agent:begin -->", 1)[1].split("<!-- vision-agent:end -->", 1)[0]
    source = block.split("```python", 1)[1].split("```", 1)[0]
    assert len([line for line in source.splitlines() if line.strip()]) <= 30
    (tmp_path / "vision_agent.py").write_text(source)
    monkeypatch.chdir(tmp_path)
    for var in ("OPENAI_API_KEY", "DEVICESWORLD_API_KEY", "DEVICESWORLD_MODEL", "DEVICESWORLD_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    with ScriptedServer() as server:
        args = [
            "run",
            "--suite",
            "smoke",
            "--task-ids",
            "smoke-android-015",
            "--agent",
            "vision_agent.py:make",
        ]
        r = CliRunner().invoke(
            main, [*args, "--model", "scripted", "--base-url", server.base_url, "--out", "v"]
        )
    assert r.exit_code == 0, r.output
    assert _results(tmp_path / "v")[0]["termination"] == "finished"  # the scripted model says finish
    parts = server.requests[0].body["messages"][0]["content"]
    images = [p for p in parts if p["type"] == "image_url"]
    assert len(images) == 1 and images[0]["image_url"]["url"].startswith("data:image/png;base64,iVBOR")
    assert any("android_0" in p.get("text", "") for p in parts)
