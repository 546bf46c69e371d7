"""Agent runs you can trust, on the demo site in core's text browser against the loopback fake of Gemini:
incomplete runs are named and left out, `--resume` finishes them to the figures of an uninterrupted run, a
failing endpoint fails the run, each run index has its own recorded seed, what the agent observes is stated the
same way everywhere, agents have their own provenance kind, and the chart draws missing values as missing."""

from __future__ import annotations

import json
import shlex
import sqlite3
from pathlib import Path

import pytest

from recordlens.core.agent.evaluate import Evaluation, Figures, write_chart
from recordlens.core.agent.loop import AgentSettings, ModelEndpointError, observes, run_agent, system_prompt
from recordlens.core.agent.model import Observation, Trajectory
from recordlens.core.agent.sites import load_site
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.cli.command import main
from recordlens.core.llm.gemini import Budget, CallSettings, GeminiCaller
from recordlens.core.runs.charts import MISSING_MARK, draw_grouped_bars
from recordlens.core.store.project import open_project
from tests.core.old_projects import old_project
from tests.demo_agent import REFERENCES, SITE_DIR, TASK_IDS, TASKS_FILE, agent_run, respond
from tests.fake_gemini import FakeGemini, answer_with, status


def agent_eval(project: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(project), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def endpoint() -> FakeGemini:
    """One fake endpoint for a run and its resumption: a run is resumed on the endpoint it was made on."""
    with FakeGemini(default=answer_with(respond)) as server:
        yield server


@pytest.fixture(autouse=True)
def fake_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")


def test_an_interrupted_run_is_named_incomplete_and_resume_gives_the_uninterrupted_figures(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], endpoint: FakeGemini) -> None:
    with FakeGemini(default=answer_with(respond)) as server:
        assert agent_run(tmp_path / "whole", server) == 0
    whole = agent_eval(tmp_path / "whole", capsys)
    assert whole["complete"] and whole["overall"]["per_run"] == {"0": 1.0, "1": 0.0}

    run0_requests = sum(len(REFERENCES[t].steps) for t in TASK_IDS)
    assert agent_run(tmp_path / "cut", endpoint, "--max-requests", str(run0_requests + 1)) == 3  # cut in run 1
    cut = agent_eval(tmp_path / "cut", capsys)
    assert not cut["complete"] and list(cut["incomplete_runs"]) == ["1"]
    assert "lookup-2" in " ".join(cut["incomplete_runs"]["1"]) and "model budget" in " ".join(
        cut["incomplete_runs"]["1"])
    assert cut["overall"]["per_run"] == {"0": 1.0} and cut["overall"]["runs"] == 1  # complete runs only, by default
    assert any("run 1 is incomplete" in w for w in cut["warnings"])
    included = agent_eval(tmp_path / "cut", capsys, "--include-incomplete")
    assert included["overall"]["runs"] == 2
    cut_episodes = [e for e in included["episodes"] if e["cut"]]
    assert cut_episodes and included["overall"]["episodes"] == len(included["episodes"]) - len(cut_episodes)
    capsys.readouterr()
    assert main(["agent", "eval", "--project", str(tmp_path / "cut")]) == 0
    assert "INCOMPLETE" in capsys.readouterr().out

    with open_project(tmp_path / "cut") as project:
        run_id = project.agent.runs()[-1].id
    endpoint.requests.clear()
    assert agent_run(tmp_path / "cut", endpoint, "--resume", str(run_id)) == 0
    asked = [(r.body["generationConfig"]["seed"]) for r in endpoint.requests]
    assert set(asked) == {1}  # only run 1's missing and cut episodes, with run 1's seed
    resumed = agent_eval(tmp_path / "cut", capsys)
    assert resumed["complete"] and resumed["overall"] == whole["overall"]
    assert resumed["categories"] == whole["categories"]


def test_a_run_killed_halfway_has_no_end_time_is_named_incomplete_and_resumes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], endpoint: FakeGemini) -> None:
    assert agent_run(tmp_path / "p", endpoint) == 0
    whole = agent_eval(tmp_path / "p", capsys)
    with open_project(tmp_path / "p") as project:  # what a kill -9 after three episodes leaves
        finished = project.agent.runs()[-1]
        killed = project.agent.add_run(finished.method, finished.parameters)
        for _, trajectory in project.agent.trajectories(agent_run_id=finished.id)[:3]:
            task_row = project.agent.task_row_id(trajectory.task_id)
            project.agent.add_trajectory(task_row, trajectory, agent_run_id=killed)
    report = agent_eval(tmp_path / "p", capsys, "--run", str(killed))
    assert not report["ended"] and not report["complete"] and "1" in report["incomplete_runs"]
    assert any("did not finish" in w for w in report["warnings"])
    assert agent_run(tmp_path / "p", endpoint, "--resume", str(killed)) == 0
    again = agent_eval(tmp_path / "p", capsys, "--run", str(killed))
    assert again["complete"] and again["overall"] == whole["overall"]


def test_a_failing_model_endpoint_fails_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeGemini(default=status(403, "the key is not allowed")) as server:
        code = agent_run(tmp_path / "p", server)
        assert len(server.requests) == 1  # not one failure per task: the run stops
    said = capsys.readouterr().err
    assert code != 0 and "failed" in said
    assert ": cut in " in said and ": wrong in " not in said  # the endpoint failed, not the agent
    with open_project(tmp_path / "p") as project:
        run = project.agent.runs()[-1]
        assert run.status == "failed" and "HTTP 403" in (run.error or "")
    report = agent_eval(tmp_path / "p", capsys)
    assert not report["complete"] and report["overall"]["episodes"] == 0


def test_a_lost_ray_cluster_leaves_the_run_to_resume_and_says_how(tmp_path: Path, endpoint: FakeGemini,
                                                                   capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """What the Ray engine raises when the cluster's head dies (ClusterLostError): an agent run is resumed with
    --resume, not by running the same command again, and stays without an end time (the local loop stands in)."""
    from recordlens.core.cli import agent as agent_cli
    from recordlens.core.runs.engines import ClusterLostError

    def cluster_lost(*args: object, **kwargs: object) -> list[Trajectory]:
        raise ClusterLostError("10.0.0.7:6379", 0)

    monkeypatch.setattr(agent_cli, "run_agent", cluster_lost)
    assert agent_run(tmp_path / "p", endpoint) == 4
    said = capsys.readouterr().err
    assert "agent run 1 stopped: the Ray cluster at 10.0.0.7:6379 was lost" in said, said
    assert "--resume 1" in said and "run the same command again" not in said
    with open_project(tmp_path / "p") as project:
        assert project.agent.runs()[-1].ended_at is None  # incomplete: resumed, not started again


def test_an_unreachable_endpoint_is_a_run_error_not_agent_failures() -> None:
    caller = GeminiCaller(CallSettings(base_url="http://127.0.0.1:9", max_attempts=2, json_output=False),
                          api_key="test", budget=Budget(), sleep=lambda s: None)
    site = load_site(SITE_DIR)
    from recordlens.core.agent.demo.tasks import DEMO_TASKS

    seen: list[Trajectory] = []
    with pytest.raises(ModelEndpointError, match="connection problem"):
        run_agent(list(DEMO_TASKS), lambda task: HtmlSiteBrowser(site), caller, runs=3, on_trajectory=seen.append)
    assert [t.stop for t in seen] == ["model error"]


def test_each_run_has_its_own_recorded_seed(tmp_path: Path) -> None:
    with FakeGemini(default=answer_with(respond)) as server:
        assert agent_run(tmp_path / "p", server, "--seed", "10", "--task", "rules-1") == 0
        seeds = sorted({r.body["generationConfig"]["seed"] for r in server.requests})
    assert seeds == [10, 11]
    with open_project(tmp_path / "p") as project:
        parameters = project.agent.runs()[-1].parameters
    assert parameters["seed"] == 10 and parameters["seeds"] == [10, 11]
    assert parameters["observes"] == "page text"


def test_what_the_agent_observes_is_stated_the_same_way_in_prompt_request_and_readme(tmp_path: Path) -> None:
    text_only = system_prompt(False)
    assert "there is no screenshot" in text_only and "screenshot of the page" not in text_only
    assert "screenshot of the page" in system_prompt(True) and "the text of the page" in system_prompt(True)
    # --observation names what is shown, whatever the browser could show: the prompt says that, no more.
    chosen = system_prompt(True, ("axtree", "text"))
    assert "accessibility tree" in chosen and "the text of the page (there is no screenshot)" in chosen
    assert "screenshot of the page" not in chosen
    assert "there is no screenshot" not in system_prompt(False, ("screenshot",))
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text("utf-8")
    assert f"`--browser qt`: {observes(True)}" in readme and f"`--browser text`: {observes(False)}" in readme

    class ShotBrowser(HtmlSiteBrowser):
        def observe(self) -> Observation:
            seen = super().observe()
            return Observation(url=seen.url, title=seen.title, screenshot=b"\x89PNG fake", elements=seen.elements,
                               scroll=seen.scroll, viewport=seen.viewport, text=seen.text)

    site = load_site(SITE_DIR)
    from recordlens.core.agent.demo.tasks import DEMO_TASKS

    task = next(t for t in DEMO_TASKS if t.id == "rules-1")
    for screenshots, browser in ((False, HtmlSiteBrowser(site)), (True, ShotBrowser(site))):
        with FakeGemini(default=answer_with(lambda body: "Action: ANSWER; x")) as server:
            caller = GeminiCaller(CallSettings(base_url=server.url, max_attempts=1, json_output=False),
                                  api_key="test")
            run_agent([task], lambda t, b=browser: b, caller, runs=1,
                      settings=AgentSettings(send_screenshot=screenshots))
            request = server.requests[0]
        parts = request.body["contents"][0]["parts"]
        has_image = any("inlineData" in p or "inline_data" in p for p in parts)
        assert has_image is screenshots
        assert "Text of the page:" in request.prompt_text  # the page text goes in both modes
        assert ("there is no screenshot" in request.system_text) is (not screenshots)


def test_agents_are_stored_with_the_agent_provenance_kind(tmp_path: Path) -> None:
    with FakeGemini(default=answer_with(respond)) as server:
        assert agent_run(tmp_path / "p", server, "--task", "rules-1") == 0
    with sqlite3.connect(tmp_path / "p" / "project.db") as conn:
        kinds = {row[0] for row in conn.execute("SELECT p.kind FROM trajectories t JOIN provenances p "
                                                "ON p.id = t.actor_id")}
        assert kinds == {"agent"}
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute("INSERT INTO provenances (kind, name) VALUES ('robot', 'x')")


def test_a_version_3_project_gets_agent_provenances_and_run_statuses(tmp_path: Path) -> None:
    folder = old_project(
        tmp_path / "v3", 3,
        "INSERT INTO provenances (kind, name, version) VALUES ('extractor', 'agent:m/window:3/qt', 'agent'), "
        "('extractor', 'repeats', '1')",
        "INSERT INTO sites (name, created_at) VALUES ('s', 't')",
        "INSERT INTO tasks (site_id, instruction, gold_answer, start_url, created_at, external_id) "
        "VALUES (1, 'Count them', '3', 'https://a.org/', 't', 'count')",
        "INSERT INTO agent_runs (method, started_at, ended_at) VALUES ('m', 't', 't'), ('m', 't', NULL)",
        "INSERT INTO trajectories (task_id, actor_id, agent_run_id, started_at, run_index) VALUES (1, 1, 1, 't', 0)")
    with open_project(folder) as project:
        assert [t.actor for _, t in project.agent.trajectories()] == ["agent:m/window:3/qt"]
        assert [r.status for r in project.agent.runs()] == ["finished", "running"]
        kinds = dict(project.db.execute("SELECT name, kind FROM provenances").fetchall())
    assert kinds == {"agent:m/window:3/qt": "agent", "repeats": "extractor"}


def test_the_chart_draws_a_missing_agreement_as_missing_and_its_legend_covers_no_bar(tmp_path: Path) -> None:
    figure = draw_grouped_bars(["lookup", "rules", "overall"], [("success", [1.0, 0.95, 0.97]),
                                                               ("agreement", [0.9, None, 0.9])])
    axis = figure.axes[0]
    bars = [patch for container in axis.containers for patch in container]
    assert len(bars) == 5  # no zero-height bar stands for the missing agreement
    assert [t.get_text() for t in axis.texts] == [MISSING_MARK]
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    legend = axis.get_legend().get_window_extent(renderer)
    for bar in bars:
        assert not legend.overlaps(bar.get_window_extent(renderer)), "the legend covers a bar"
    import matplotlib.pyplot as plt

    plt.close(figure)
    row = Figures("rules", 1, 3, 3, 0.95, {0: 1.0, 1: 1.0, 2: 0.85}, 4.0, 4.0, None)
    chart = write_chart(Evaluation(overall=row, categories=[row]), tmp_path / "eval.png")
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_a_task_changed_after_a_run_is_refused_unless_replaced_so_old_figures_never_move(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "p"
    with FakeGemini(default=answer_with(respond)) as server:
        assert agent_run(project, server, "--runs", "1") == 0
    before = agent_eval(project, capsys)
    changed = tmp_path / "tasks.jsonl"
    lines = []
    for line in TASKS_FILE.read_text("utf-8").splitlines():
        task = json.loads(line)
        if task["id"] == "lookup-1":
            task["answer"] = "a different gold answer"
        lines.append(json.dumps(task))
    changed.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with FakeGemini(default=answer_with(respond)) as server:
        capsys.readouterr()
        assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(changed),
                     "--task", "lookup-1", "--runs", "1", "--browser", "text", "--base-url", server.url]) == 2
        assert server.requests == []
    said = capsys.readouterr().err
    assert "task lookup-1 differs from the one agent run(s) 1 were scored on (gold answer" in said
    assert "--replace-tasks" in said
    assert agent_eval(project, capsys, "--run", "1") == before
    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(changed),
                     "--task", "lookup-1", "--runs", "1", "--browser", "text", "--base-url", server.url,
                     "--replace-tasks"]) == 0
    with open_project(project) as opened:
        assert {t.id: t.answer for t in opened.agent.tasks()}["lookup-1"] == "a different gold answer"


def test_a_hanging_endpoint_is_given_up_after_timeout_s(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.fake_gemini import hang

    monkeypatch.setattr(GeminiCaller, "_backoff", lambda self, attempt, error: 0.01)
    with FakeGemini(default=hang(30)) as server:
        code = main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR), "--tasks",
                     str(TASKS_FILE), "--task", "lookup-1", "--runs", "1", "--browser", "text", "--base-url",
                     server.url, "--timeout-s", "0.5"])
    assert code != 0
    with open_project(tmp_path / "p") as project:
        run = project.agent.runs()[-1]
        assert run.status == "failed" and "0.5 s" in (run.error or "")


def test_a_refused_or_cut_off_answer_keeps_its_reason_in_the_step_and_the_model_call(tmp_path: Path) -> None:
    from tests.fake_gemini import no_candidates, refused

    project = tmp_path / "p"
    with FakeGemini([refused("SAFETY"), refused("MAX_TOKENS", "Thought: I will cl"), no_candidates()],
                    default=answer_with(lambda body: "Action: ANSWER; nobody")) as server:
        main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
              "--task", "lookup-1", "--runs", "1", "--browser", "text", "--base-url", server.url])
    with open_project(project) as opened:
        (row, trajectory), = opened.agent.trajectories()
        errors = [step.error for step in trajectory.steps]
        calls = opened.agent.model_calls(row)
    assert errors[0].startswith("the model did not finish (finishReason SAFETY)")
    assert errors[1].startswith("the model did not finish (finishReason MAX_TOKENS)")
    assert "no candidates in the answer" in (errors[2] or "")
    assert calls[0].error == "the model did not finish (finishReason SAFETY)"
    assert calls[1].error == "the model did not finish (finishReason MAX_TOKENS)"


def test_tasks_written_for_another_site_are_refused_before_any_request(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    other = tmp_path / "tasks.jsonl"
    other.write_text("".join(json.dumps({**json.loads(line), "site": "shop"}) + "\n"
                             for line in TASKS_FILE.read_text("utf-8").splitlines() if line.strip()), "utf-8")
    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR), "--tasks",
                     str(other), "--task", "lookup-1", "--browser", "text", "--base-url", server.url]) == 2
        assert server.requests == []
    assert "task(s) lookup-1 are for the site(s) 'shop', not 'demo-site'" in capsys.readouterr().err


def test_ctrl_c_names_the_run_and_how_to_finish_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from recordlens.core.cli import agent as agent_cli

    def interrupted(*_args, **_kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(agent_cli, "run_agent", interrupted)
    with FakeGemini(default=answer_with(respond)) as server:
        code = agent_run(tmp_path / "p", server)
    said = capsys.readouterr().err
    assert code == 130 and "agent run 1 interrupted" in said and "--resume 1`" in said


def test_a_references_folder_that_does_not_exist_is_refused_before_any_work(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], endpoint: FakeGemini) -> None:
    assert agent_run(tmp_path / "p", endpoint, "--references", str(tmp_path / "nodir")) == 2
    assert f"no references folder at {tmp_path / 'nodir'}" in capsys.readouterr().err
    assert endpoint.requests == [] and not (tmp_path / "p").exists()


def test_a_reference_for_a_task_the_tasks_file_does_not_hold_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], endpoint: FakeGemini) -> None:
    references = tmp_path / "references"
    references.mkdir()
    (references / "lookup-1.json").write_text(REFERENCES["lookup-1"].to_json(), encoding="utf-8")
    stray = json.loads(REFERENCES["rules-1"].to_json()) | {"task": "rules-99"}
    (references / "rules-99.json").write_text(json.dumps(stray), encoding="utf-8")
    assert agent_run(tmp_path / "p", endpoint, "--references", str(references), "--runs", "1") == 0
    said = capsys.readouterr().err
    assert "warning: 1 reference for a task id" in said and str(references / "rules-99.json") in said
    with open_project(tmp_path / "p") as project:
        assert [t.task_id for _, t in project.agent.trajectories(reference=True)] == ["lookup-1"]


def test_a_run_records_its_snapshot_endpoint_and_observations_and_resumes_on_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], endpoint: FakeGemini) -> None:
    import shutil

    from recordlens.core.agent.site_digest import site_digest

    site = tmp_path / "s1"
    shutil.copytree(SITE_DIR, site)
    project = tmp_path / "p"
    run0_requests = sum(len(REFERENCES[t].steps) for t in TASK_IDS)
    base = ["agent", "run", "--project", str(project), "--tasks", str(TASKS_FILE), "--browser", "text"]
    tasks = [arg for t in TASK_IDS for arg in ("--task", t)]
    assert main([*base, "--site", str(site), *tasks, "--runs", "2", "--base-url", endpoint.url,
                 "--max-requests", str(run0_requests + 1)]) == 3
    said = capsys.readouterr().err
    # The hint names the options a resume needs again, and no more: the run records its endpoint.
    assert f"--project {project} --site {site} --tasks {TASKS_FILE} --resume 1`" in said
    assert "run 1 lookup-1: wrong in 1 step (answer)" in said and "1 steps" not in said
    with open_project(project) as opened:
        parameters = opened.agent.runs()[-1].parameters
    assert parameters["site_folder"] == str(site.resolve())
    assert parameters["site_digest"] == site_digest(load_site(site))
    assert parameters["base_url"] == endpoint.url and parameters["observes"] == "page text"

    # A re-captured copy with a changed page: another snapshot, though it keeps the site's name.
    changed = tmp_path / "s1v2"
    shutil.copytree(site, changed)
    page = changed / "about.mhtml"
    page.write_bytes(page.read_bytes().replace(b"Paperfield", b"Paperfeld", 1))
    assert main([*base, "--site", str(changed), "--resume", "1"]) == 2
    said = capsys.readouterr().err
    assert "agent run 1 was made on another snapshot of the site 'demo-site'" in said and str(site.resolve()) in said
    # The folder of another site (a name of its own): named as that, and the run's site by its own name.
    other = tmp_path / "shop4"
    shutil.copytree(changed, other)
    index = json.loads((other / "site.json").read_text(encoding="utf-8")) | {"name": "shop4"}
    (other / "site.json").write_text(json.dumps(index), encoding="utf-8")
    assert main([*base, "--site", str(other), "--resume", "1"]) == 2
    said = capsys.readouterr().err
    assert (f"agent run 1 was made on the site 'demo-site' ({site.resolve()}, digest " in said
            and f"; {other} holds the site 'shop4' (digest " in said and "snapshot of the site 'shop4'" not in said)
    # Another endpoint is refused; none given, the run's own is taken.
    assert main([*base, "--site", str(site), "--resume", "1", "--base-url", "http://127.0.0.1:9"]) == 2
    assert f"agent run 1 was made on --base-url {endpoint.url}, not --base-url http://127.0.0.1:9" in (
        capsys.readouterr().err)
    endpoint.requests.clear()
    assert main([*base, "--site", str(site), "--resume", "1"]) == 0
    assert endpoint.requests
    # The whole run is counted: run 0's three successes kept, run 1 (odd seed: wrong at once) run now.
    assert "agent run 1: 3 of 6 episodes succeeded (0 of " in capsys.readouterr().out

    # A new run on the changed copy: the site row follows it, and eval says the runs' snapshots differ.
    assert main([*base, "--site", str(changed), "--task", "rules-1", "--runs", "1", "--base-url",
                 endpoint.url]) == 0
    with sqlite3.connect(project / "project.db") as conn:
        assert conn.execute("SELECT folder FROM sites").fetchall() == [(str(changed.resolve()),)]
    report = agent_eval(project, capsys, "--run", "2")
    assert report["snapshot"]["site_folder"] == str(changed.resolve())
    assert any("agent run(s) 1 (digest " in w and "another snapshot of the site 'demo-site'" in w
               for w in report["warnings"])
    assert any("agent run(s) 2 (digest " in w for w in agent_eval(project, capsys, "--run", "1")["warnings"])


def test_a_base_url_holding_a_key_is_recorded_without_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], endpoint: FakeGemini) -> None:
    with_key = endpoint.url.replace("http://", "http://proxy:test-key-not-real@")
    assert main(["agent", "run", "--project", str(tmp_path / "p"), "--site", str(SITE_DIR), "--tasks",
                 str(TASKS_FILE), "--task", "rules-1", "--runs", "1", "--browser", "text", "--base-url",
                 with_key]) == 0
    stored = [f for f in (tmp_path / "p").rglob("*") if f.is_file()]
    assert stored and not any(b"test-key-not-real" in f.read_bytes() for f in stored)
    with open_project(tmp_path / "p") as project:
        assert project.agent.runs()[-1].parameters["base_url"] == endpoint.url.replace("http://", "http://[key]@")


@pytest.mark.parametrize(("given", "recorded"), [
    ("https://proxy.example/v1?api-key=SECRET&alt=sse", "https://proxy.example/v1?api-key=[key]&alt=sse"),
    ("https://TOKEN@proxy.example/v1", "https://[key]@proxy.example/v1"),
    ("https://u:SECRET@proxy.example/", "https://[key]@proxy.example/"),
    ("https://proxy.example/x?q=a%20b&sig=SECRET", "https://proxy.example/x?q=a%20b&sig=[key]"),
    ("https://proxy.example/KEY-IN-PATH/", "https://proxy.example/[key]/"),
    ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/"),
])
def test_no_credential_of_a_base_url_is_recorded(given: str, recorded: str) -> None:
    from recordlens.core.llm.endpoint import recorded_base_url

    assert recorded_base_url(given, "KEY-IN-PATH") == recorded


def test_observes_names_the_observations_given() -> None:
    assert observes(True, ("axtree", "text")) == "accessibility tree and page text"
    assert observes(True, ("text", "screenshot", "axtree")) == "screenshot, accessibility tree and page text"
    assert observes(False, ("axtree",)) == "accessibility tree"


def test_a_run_is_resumed_only_at_the_size_its_pages_were_laid_out_at(capsys: pytest.CaptureFixture[str]) -> None:
    from types import SimpleNamespace

    from recordlens.core.cli.agent import _check_viewport
    from recordlens.core.errors import AgentError

    wide = SimpleNamespace(viewport=(1920, 1080))
    _check_viewport({"viewport": [1920, 1080]}, wide, 3)  # the same size: goes on
    _check_viewport({"viewport": None}, SimpleNamespace(), 3)  # a browser without a layout: nothing to check
    with pytest.raises(AgentError, match="agent run 3 was laid out at 1280x800, this browser at 1920x1080"):
        _check_viewport({"viewport": [1280, 800]}, wide, 3)
    _check_viewport({}, wide, 3)  # a run made before the size was recorded: said, not refused
    assert "does not record the size its pages were laid out at" in capsys.readouterr().err


def test_the_hint_after_a_run_is_a_command_that_can_be_pasted_with_spaces_in_the_path(
        tmp_path: Path, endpoint: FakeGemini, capsys: pytest.CaptureFixture[str]) -> None:
    project = tmp_path / "proj one"
    assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                 "--task", "lookup-1", "--runs", "1", "--browser", "text", "--base-url", endpoint.url]) == 0
    said = capsys.readouterr().out
    hint = said.split("score it with `", 1)[1].split("`", 1)[0]
    assert shlex.split(hint) == ["recordlens", "agent", "eval", "--project", str(project), "--run", "1"], said
