"""The messages left naming a path as it is name it as a hint names a path (`command_hints.hint_path`), as the
summaries of `synth`, `site capture` and `agent tasks` do: a folder named in bytes that are not UTF-8 (`caf\\xe9`) in
the form a shell reads back as those bytes, one whose name holds a space quoted (`'…/my dir'`), never the raw bytes
(which a UTF-8 terminal cannot show, and Qt drops). `extract`'s closing line, `export`'s refusals (a folder holding a
dataset; saved copies gone from `snapshots/`, in the words the app's Review says too), `runs --add` and `--delete`,
`annotators`, `labels check`, `inspect`, `score`, `bench`, `demo`, `train`, `project init` and `project copy`, the
agent's commands, and what a command says of a file it could not write. The lines a command prints on stdout run as
processes of their own under a UTF-8 locale (C.UTF-8) and under the C locale; the others in this process."""

from __future__ import annotations

import argparse
import errno
import json
import os
import shutil
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from recordlens.core import owner_files
from recordlens.core.agent.actions import Step
from recordlens.core.agent.references import PasswordFields
from recordlens.core.agent.sites import load_site
from recordlens.core.cli import agent as agent_cli
from recordlens.core.cli import project as project_cli
from recordlens.core.cli.command import _write_failed, main
from recordlens.core.cli.extraction import Restarted, failed_pages_next_step, interrupted_line
from recordlens.core.command_hints import hint_option, hint_path
from recordlens.core.errors import AgentError
from recordlens.core.runs.run_files import META_DIR, RunSummary
from recordlens.core.store import StoreError
from recordlens.core.store.exporter import ExportSummary
from recordlens.core.store.files import Removed
from recordlens.core.store.label_sets import SET_ASIDE
from recordlens.core.store.project import open_project
from recordlens.core.store.removed_files import REMOVED
from recordlens.core.store.runs import RUNNING_MARKS
from recordlens.core.store.scoring import score_stored_run
from tests.core.cli_runs import DEMO, EXTRACT, demo_project, run
from tests.core.test_summaries_name_paths_as_hints import CASES, recordlens
from tests.demo_agent import REFERENCES, SITE_DIR, TASK_IDS, TASK_JSON, TASKS_FILE, respond
from tests.fake_gemini import FakeGemini, answer_with
from tests.shell_words import made_folder

pytestmark = pytest.mark.timeout(900)

NAMES = [b"caf\xe9", b"my dir"]  # a name not in UTF-8; a name with a space


@pytest.fixture(params=NAMES, ids=ascii)
def odd(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A folder named in bytes that are not UTF-8, or with a space."""
    return made_folder(tmp_path / os.fsdecode(request.param))


# -- what a command prints on stdout, under each locale --------------------------------------------------------------

@pytest.mark.parametrize(("name", "locale"), CASES, ids=ascii)
def test_extract_says_its_run_folder_as_a_hint(tmp_path: Path, name: bytes, locale: str) -> None:
    run_dir = made_folder(tmp_path / os.fsdecode(name)) / "run"
    code, out, err = recordlens(locale, *EXTRACT[:-1], "--out", run_dir, "-q")
    assert code == 0, err
    assert out.startswith(f"{hint_path(run_dir)}: 4 extracted, 0 already there, 0 failed in "), out


@pytest.mark.parametrize(("name", "locale"), CASES, ids=ascii)
def test_annotators_name_where_the_labels_set_aside_are_kept_as_hints(tmp_path: Path, name: bytes, locale: str,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, made_folder(tmp_path / os.fsdecode(name)) / "P")
    for annotator in ("bea", "cyd"):
        assert run(capsys, "import", str(DEMO), "--project", str(project), "--annotator", annotator, "-q")[0] == 0
    code, out, err = recordlens(locale, "annotators", "--project", project, "--remove", "bea")
    assert code == 0, err
    kept = next((project / REMOVED / SET_ASIDE).iterdir())
    assert f"; kept in {hint_path(kept)} (`recordlens import {hint_path(kept)} " in out, out
    code, out, err = recordlens(locale, "annotators", "--project", project)
    assert code == 0, err
    assert f"labels replaced or removed earlier are kept in {hint_path(project / REMOVED / SET_ASIDE)} (" in out, out


@pytest.mark.parametrize(("name", "locale"), CASES, ids=ascii)
def test_site_build_and_tasks_check_name_their_files_as_hints(tmp_path: Path, name: bytes, locale: str) -> None:
    folder = made_folder(tmp_path / os.fsdecode(name))
    site = folder / "site"
    shutil.copytree(SITE_DIR, site)
    code, out, err = recordlens(locale, "site", "build", site)
    assert code == 0, err
    assert out.startswith(f"{hint_path(site / 'site.json')}: "), out
    tasks = folder / "tasks.jsonl"
    shutil.copy(TASKS_FILE, tasks)
    code, out, err = recordlens(locale, "agent", "tasks", "--check", tasks)
    assert code == 0, err
    assert out.startswith(f"{hint_path(tasks)}: "), out


# -- messages on stderr, and errors --------------------------------------------------------------------------------

def test_export_names_a_folder_holding_a_dataset_and_the_snapshots_folder_as_hints(
        odd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, odd / "P")
    dataset = odd / "dataset"
    assert run(capsys, "export", "--project", str(project), "--format", "nexteval", "--out", str(dataset))[0] == 0
    code, _, err = run(capsys, "export", "--project", str(project), "--format", "nexteval", "--out", str(dataset))
    assert code == 2 and f"{hint_path(dataset)} already holds a dataset; export into an empty folder" in err, err

    assert run(capsys, "runs", "--project", str(project), "--add", str(DEMO / "gt"), "--method", "oracle")[0] == 0
    with open_project(project) as opened:
        opened.snapshot_file("3").unlink()
    said = f"is missing from {hint_path(project / 'snapshots')} (deleted by hand?)"
    code, _, err = run(capsys, "export", "--project", str(project), "--format", "nexteval", "--out",
                       str(odd / "other"))
    assert code == 2 and f"{said}: nothing exported" in err, err
    with open_project(project) as opened, pytest.raises(StoreError) as refused:  # as the app's Review scores it
        score_stored_run(opened, 1)
    assert f"{said}: nothing scored" in str(refused.value)


def test_runs_add_and_delete_name_their_folders_as_hints(odd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project = demo_project(capsys, odd / "P")
    run_dir = odd / "run"
    assert run(capsys, *EXTRACT[:-1], "--out", str(run_dir), "-q")[0] == 0
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0 and f"stored {hint_path(run_dir)} as run 1" in err, err
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0 and f"{hint_path(run_dir)} is stored already, as run 1" in err, err
    moved = odd / "moved run"
    shutil.copytree(run_dir, moved)
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(moved))
    assert code == 0 and f"{hint_path(moved)} is stored already, as run 1 (added from {hint_path(run_dir)}," in err, err
    seeds = made_folder(odd / "seeds")
    shutil.copytree(run_dir, seeds / "seed-0")
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(seeds))
    assert f"{hint_path(seeds)} holds a run written with --seeds (" in err, err

    code, _, err = run(capsys, "runs", "--project", str(project), "--delete", "9")
    assert code == 2 and f"no run 9 in the project {hint_path(project)}: its runs are" in err, err
    code, _, err = run(capsys, "runs", "--project", str(project), "--delete", "1")
    assert code == 0, err
    kept = next((project / REMOVED / "runs").iterdir())
    assert f"its predictions are kept in {hint_path(kept)} (`recordlens runs" in err, err


def test_project_init_and_copy_name_their_folders_as_hints(odd: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    folder = made_folder(odd / "data")
    (folder / "notes.txt").write_text("mine\n", encoding="utf-8")
    code, _, err = run(capsys, "project", "init", str(folder))
    assert code == 0 and f"warning: {hint_path(folder)} held 1 entries already" in err, err

    copy = odd / "copy"
    from recordlens.core.store import project_copy

    def brought_up(_project: str, _dest: str) -> SimpleNamespace:  # a copy of a project of an older schema
        return SimpleNamespace(destination=copy, pages=1, labels=1, runs=0, annotators=0, files=0, brought_up_from=3,
                               notes=())

    monkeypatch.setattr(project_copy, "copy_project", brought_up)
    code, _, err = run(capsys, "project", "copy", str(folder), str(copy))
    assert code == 0 and f"recordlens: the copy {hint_path(copy)} is of schema" in err, err


def test_a_stopped_export_and_the_leftovers_it_removed_name_their_files_as_hints(
        odd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = odd / "labels.jsonl"
    target.write_text("{}\n", encoding="utf-8")
    stopped = project_cli._export_stopped(project_cli._Reached(), str(odd), project_cli.Replacing(target))
    assert f"; the earlier {hint_path(target)} is left as it was" in stopped
    marked = made_folder(odd / "dataset")
    (marked / project_cli.UNFINISHED_EXPORT).write_text("", encoding="utf-8")
    stopped = project_cli._export_stopped(project_cli._Reached(), str(marked), None)
    assert f"; {hint_path(marked)} holds an unfinished export" in stopped
    project_cli._say_leftovers_removed(ExportSummary(0, 0, (), leftovers_removed=Removed(1, 2048)), target)
    assert f"beside {hint_path(target)}, left by earlier exports" in capsys.readouterr().err


def test_labels_check_inspect_score_and_bench_name_their_paths_as_hints(
        odd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = made_folder(odd / "gt")
    code, _, err = run(capsys, "labels", "check", "--pages", str(DEMO / "html"), "--gt", str(empty))
    assert code == 2 and f"has ground truth in {hint_path(empty)}: nothing checked" in err, err
    project = odd / "P"
    assert run(capsys, "project", "init", str(project))[0] == 0
    code, _, err = run(capsys, "labels", "check", "--project", str(project))
    assert code == 2 and f"no page of {hint_path(project)} holds labels" in err, err
    not_a_model = odd / "x.json"
    not_a_model.write_text("{}", encoding="utf-8")
    code, _, err = run(capsys, "inspect", str(not_a_model))
    assert code == 2 and f"{hint_path(not_a_model)}: not an MHTML or HTML file" in err, err
    code, _, err = run(capsys, "score", "--pred", str(empty), "--gt", str(DEMO / "gt"), "--pages", str(DEMO / "html"),
                       "-q")
    assert code == 2 and f"{hint_path(empty)} holds no prediction for any" in err, err
    document, chart = odd / "bench.json", odd / "bench.png"
    code, _, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods", "mdr",
                       "-q", "--json", str(document), "--chart", str(chart))
    assert code == 0 and f"wrote {hint_path(chart)}" in err and f"wrote {hint_path(document)}" in err, err


def test_the_model_options_refused_name_their_files_as_hints(odd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one, other = odd / "one.json", odd / "other.json"
    code, _, err = run(capsys, "extract", "--method", "selector", "--model", str(one), "--param", f"model={other}",
                       "--pages", str(DEMO / "html"), "--out", str(odd / "run"))
    assert code == 2, err
    assert f"{hint_option('--model', one)} and {hint_option('--param', f'model={other}')} name two" in err, err
    code, _, err = run(capsys, "bench", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--methods",
                       "selector", "--model", str(one), "--no-chart")
    assert code == 2 and f"{hint_option('--model', one)}: --model is the Gemini model name" in err, err


def test_train_names_its_folders_as_hints(odd: Path, capsys: pytest.CaptureFixture[str], quick_fits: None) -> None:
    data = odd / "data"
    shutil.copytree(DEMO, data)
    html, gt = data / "html", data / "gt"
    shutil.copy(html / "1.html", html / "9.html")  # a page without labels
    shutil.copy(gt / "1.json", gt / "8.json")  # labels without a page
    (html / "2.html").write_bytes(b"")  # a page that cannot be read
    code, _, err = run(capsys, "train", "--pages", str(html), "--gt", str(gt), "--out", str(odd / "model.json"),
                       "-q", "--workers", "1")
    assert code == 0, err
    assert f"1 page(s) of {hint_path(html)} have no labels in {hint_path(gt)} (" in err, err
    assert f"1 label file(s) of {hint_path(gt)} have no page in {hint_path(html)} (" in err, err
    assert f"page 2 of {hint_path(html)} is left out: " in err, err


def test_demo_names_its_chart_as_a_hint(odd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chart = odd / "demo.png"
    code, _, err = run(capsys, "demo", "--chart", str(chart))
    assert code == 0 and f"wrote {hint_path(chart)}" in err, err


def test_a_file_that_could_not_be_written_is_named_as_a_hint(odd: Path) -> None:
    page = odd / "out" / "1.json"
    args = argparse.Namespace(command="extract", out=str(odd / "out"))
    said = _write_failed(PermissionError(errno.EACCES, "Permission denied", str(page)), args)
    assert said == f"{hint_path(page)}: Permission denied"
    said = _write_failed(OSError(errno.ENOSPC, "No space left on device", str(page)), args)
    assert f"; the disk that holds {hint_path(page.parent)} is full" in said
    args = argparse.Namespace(command="export", format="nexteval", out=str(odd / "dataset"))
    said = _write_failed(OSError(errno.ENOSPC, "No space left on device"), args)
    assert said.startswith(f"the disk that holds {hint_path(odd / 'dataset')} is full")
    assert f"({hint_path(odd / 'dataset')} holds an unfinished export: remove it first)" in said


def test_a_run_s_next_steps_name_its_folder_as_a_hint(odd: Path) -> None:
    summary = RunSummary(odd / "run", wanted=["1", "2"], failed={"2": "a failure"})
    assert f"kept in {hint_path(odd / 'run' / META_DIR)}/PAGE.json)" in failed_pages_next_step(summary, ["2"])
    assert interrupted_line(summary).startswith(f"{hint_path(odd / 'run')}: 0 of 2 pages extracted")
    assert interrupted_line(summary, Restarted([])).startswith(f"{hint_path(odd / 'run')}: 0 of 2 pages extracted "
                                                               "again by this --restart")


# -- the agent's commands ---------------------------------------------------------------------------------------------

def test_agent_commands_name_the_project_as_a_hint(odd: Path, capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    resume = ("agent", "run", "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE), "--browser", "text",
              "--resume", "1", "--project")
    nothing = odd / "nothing"
    code, _, err = run(capsys, *resume, str(nothing))
    assert code == 2, err
    assert f"no agent run 1 in {hint_path(nothing)} to resume: {hint_path(nothing)} is not a project" in err, err
    project = odd / "P"
    assert run(capsys, "project", "init", str(project))[0] == 0
    code, _, err = run(capsys, *resume, str(project))
    assert code == 2 and f"no agent run 1 in {hint_path(project)} to resume" in err, err
    code, _, err = run(capsys, "agent", "eval", "--project", str(project))
    assert code == 2 and f"the project {hint_path(project)} has no agent run yet" in err, err


def test_an_agent_run_held_elsewhere_is_named_as_a_hint(odd: Path) -> None:
    project = odd / "P"
    lock_path = project / RUNNING_MARKS / "agent-run-1"
    lock_path.parent.mkdir(parents=True)
    held = owner_files.take(lock_path)
    try:
        with pytest.raises(AgentError) as refused, agent_cli._running_the_agent_run(project, 1):
            pass
    finally:
        owner_files.release(held)
    said = str(refused.value)
    assert said.startswith(f"agent run 1 of {hint_path(project)} is being run by "), said
    assert f" right now ({hint_path(lock_path)}): " in said, said


def test_a_resume_on_another_snapshot_names_the_folders_as_hints(odd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made_in, given = odd / "site then", odd / "site now"
    args = argparse.Namespace(resume=1, site=str(given))
    settings = {"site": "demo", "site_folder": str(made_in), "site_digest": "a" * 64}
    with pytest.raises(AgentError) as refused:
        agent_cli._check_snapshot(settings, "b" * 64, args, SimpleNamespace(name="demo"))
    assert f"({hint_path(made_in)}, digest " in str(refused.value)
    assert f"; {hint_path(given)} holds different contents" in str(refused.value)
    agent_cli._check_snapshot({"site": "demo"}, "b" * 64, args, SimpleNamespace(name="demo"))
    assert f"{hint_path(given)} cannot be checked against it" in capsys.readouterr().err
    assert agent_cli.site_folder_said(settings) == hint_path(made_in)


def test_the_references_read_name_their_files_as_hints(odd: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = made_folder(odd / "refs")
    tasks = odd / "tasks.jsonl"
    shutil.copy(TASKS_FILE, tasks)
    stray = folder / "nobody.json"
    stray.write_text(replace(REFERENCES["lookup-1"], task_id="nobody").to_json(), encoding="utf-8")
    digest = "c" * 64
    first = replace(REFERENCES["lookup-1"].steps[0], screenshot_before=digest)
    reference = replace(REFERENCES["lookup-1"], steps=[first, *REFERENCES["lookup-1"].steps[1:]])
    (folder / "lookup-1.json").write_text(reference.to_json(), encoding="utf-8")
    screenshots = made_folder(folder / "lookup-1.screenshots")
    (screenshots / f"{digest}.png").write_bytes(b"not the picture its name hashes")
    from recordlens.core.agent.tasks import load_tasks

    agent_cli._run_references(str(folder), load_tasks(tasks), str(tasks), load_site(SITE_DIR))
    err = capsys.readouterr().err
    assert f"1 reference for a task id {hint_path(tasks)} does not hold, not used: {hint_path(stray)}" in err, err
    assert f"{hint_path(screenshots)}: 1 screenshot whose content is not the hash in its name" in err, err


def test_agent_run_and_eval_name_the_references_folders_and_the_chart_as_hints(
        odd: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    project, stored = odd / "P", made_folder(odd / "stored refs")
    (stored / "lookup-1.json").write_text(REFERENCES["lookup-1"].to_json(), encoding="utf-8")
    with FakeGemini(default=answer_with(respond)) as server:
        assert main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(TASKS_FILE),
                     "--task", "lookup-1", "--task", "rules-1", "--runs", "1", "--browser", "text",
                     "--base-url", server.url, "--references", str(stored)]) == 0
    assert f"stored 1 reference from {hint_path(stored)}: lookup-1" in capsys.readouterr().err
    other = made_folder(odd / "other refs")
    waiting = replace(REFERENCES["lookup-1"], steps=[Step("wait", url=REFERENCES["lookup-1"].steps[0].url),
                                                     *REFERENCES["lookup-1"].steps])
    (other / "lookup-1.json").write_text(waiting.to_json(), encoding="utf-8")
    (other / "rules-1.json").write_text(REFERENCES["rules-1"].to_json(), encoding="utf-8")
    chart = odd / "eval.png"
    code, _, err = run(capsys, "agent", "eval", "--project", str(project), "--references", str(other), "--chart",
                       str(chart))
    assert code == 0, err
    assert f"the reference of lookup-1 in {hint_path(other)} differs from the project's" in err, err
    assert f"agreement of rules-1 is measured against the reference in {hint_path(other)} (" in err, err
    assert f"wrote {hint_path(chart)}" in err, err


def test_the_tasks_files_refused_to_an_agent_run_are_named_as_hints(
        odd: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    project = odd / "P"
    chosen = [arg for t in TASK_IDS for arg in ("--task", t)]
    run0_requests = sum(len(REFERENCES[t].steps) for t in TASK_IDS)
    with FakeGemini(default=answer_with(respond)) as server:
        def agent_run(tasks: Path, *extra: str) -> int:
            return main(["agent", "run", "--project", str(project), "--site", str(SITE_DIR), "--tasks", str(tasks),
                         "--runs", "2", "--browser", "text", "--base-url", server.url, *extra])

        # run 1 cut by its budget in its second run, episodes of lookup-2 left to run
        assert agent_run(TASKS_FILE, *chosen, "--max-requests", str(run0_requests + 1)) == 3
        changed = odd / "tasks changed.jsonl"
        changed.write_text("".join(json.dumps({**TASK_JSON[t], "answer": "another"} if t == "lookup-2"
                                              else TASK_JSON[t]) + "\n" for t in TASK_IDS), encoding="utf-8")
        capsys.readouterr()
        assert agent_run(changed, *chosen, "--resume", "1") == 2
        assert f"began task(s) lookup-2 as they were then, and {hint_path(changed)} holds them changed" in (
            capsys.readouterr().err)
        fewer = odd / "fewer tasks.jsonl"
        fewer.write_text(json.dumps(TASK_JSON["lookup-1"]) + "\n", encoding="utf-8")
        assert agent_run(fewer, "--resume", "1") == 2
        err = capsys.readouterr().err
        assert f"ran task(s) lookup-2, rules-1, not in {hint_path(fewer)}" in err, err
        every = odd / "every task changed.jsonl"
        every.write_text("".join(json.dumps({**TASK_JSON[t], "answer": "another"}) + "\n" for t in TASK_IDS[:2]),
                         encoding="utf-8")
        assert agent_run(every, "--task", TASK_IDS[0], "--task", TASK_IDS[1]) != 0
        err = capsys.readouterr().err
        assert f"2 tasks of {hint_path(every)} differ from the ones agent runs were scored on" in err, err


def test_the_passwords_of_a_reference_file_are_said_of_it_as_a_hint(odd: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    from tests.core.hidden_parts_page import LOGIN_HOME, LOGIN_PAGE, one_page_site
    from tests.core.test_reference_passwords_masked import reference_in_clear

    path = odd / "login.json"
    fields = PasswordFields(one_page_site(odd / "site", LOGIN_PAGE, LOGIN_HOME))
    agent_cli._passwords_masked(path, reference_in_clear(odd / "site1"), fields)
    assert f"{hint_path(path)}: the Type of step 2 typed a password in clear" in capsys.readouterr().err
    agent_cli._passwords_masked(path, reference_in_clear(odd / "site2", url="https://login.example.org/other"), fields)
    assert f"{hint_path(path)}: whether the Types of steps 1, 2 typed into a password field" in (
        capsys.readouterr().err)


def test_train_names_the_project_s_earlier_model_kept_as_a_hint(odd: Path, capsys: pytest.CaptureFixture[str],
                                                                quick_fits: None) -> None:
    from recordlens.core.store.learnt_model import FORGOTTEN_MODEL

    project = demo_project(capsys, odd / "P")  # its pages labelled, as imported with their labels
    assert run(capsys, "train", "--project", str(project), "-q", "--workers", "1")[0] == 0
    code, _, err = run(capsys, "train", "--project", str(project), "-q", "--workers", "1", "--seed", "1")
    assert code == 0, err
    assert f"the project's earlier model is kept as {hint_path(project / FORGOTTEN_MODEL)}" in err, err
