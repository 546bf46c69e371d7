"""`agent run --references` with a reference file recorded before passwords were masked (its Type into
`<input type=password>` in clear) stored the password in clear in the project, silently. Now the Type's field is
looked at on the snapshot's page: a password field's text is masked as a recording masks it (its bullets, so
agreement is unchanged), and said; a Type whose field cannot be told is stored as typed, and said with how to have
it masked (core/agent/references.py, `masked_reference`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.agent.actions import Step
from recordlens.core.agent.model import Task, Trajectory
from recordlens.core.agent.references import PasswordFields, masked_reference
from recordlens.core.agent.tasks import save_tasks
from recordlens.core.agent.text_browser import HtmlSiteBrowser
from recordlens.core.cli.command import main
from recordlens.core.store.project import open_project
from tests.core.hidden_parts_page import BULLETS, LOGIN_HOME, LOGIN_PAGE, SECRET, one_page_site
from tests.fake_gemini import FakeGemini, answer

TASK = Task(id="login", instruction="Log in as ann.", answer="logged in", start_url=LOGIN_HOME)


def reference_in_clear(site_folder: Path, url: str = LOGIN_HOME) -> Trajectory:
    """A person's reference as recorded before passwords were masked: the user name, then the password in clear."""
    browser = HtmlSiteBrowser(one_page_site(site_folder, LOGIN_PAGE, LOGIN_HOME))
    browser.open(LOGIN_HOME)
    user, password = browser.observe().elements
    return Trajectory(task_id=TASK.id, actor="person:ann", answer="logged in", steps=[
        Step("type", target=user, value="ann", url=url, submit=False),
        Step("type", target=password, value=SECRET, url=url, submit=False),
        Step("answer", value="logged in", url=url)])


def test_a_reference_file_with_a_password_in_clear_is_stored_masked_and_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "test-key-not-real")
    site = tmp_path / "site"
    folder = tmp_path / "refs"
    folder.mkdir()
    (folder / "login.json").write_text(reference_in_clear(site).to_json(), encoding="utf-8")
    tasks = save_tasks(tmp_path / "tasks.jsonl", [TASK])
    project = tmp_path / "p"
    with FakeGemini(default=answer("Action: ANSWER; logged in")) as server:
        code = main(["agent", "run", "--project", str(project), "--site", str(site), "--tasks", str(tasks),
                     "--runs", "1", "--browser", "text", "--base-url", server.url, "--references", str(folder)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert (f"{folder / 'login.json'}: the Type of step 2 typed a password in clear into a password field (recorded "
            "before passwords were masked): stored masked") in err, err
    [(_, stored)] = open_project(project).agent.trajectories(reference=True)
    assert [s.value for s in stored.steps] == ["ann", BULLETS, "logged in"]  # the user name as typed
    held = b"".join(p.read_bytes() for p in project.iterdir() if p.name.startswith("project.db"))
    assert SECRET.encode() not in held


def test_a_type_whose_field_cannot_be_told_is_kept_and_said(tmp_path: Path) -> None:
    site = tmp_path / "site"
    elsewhere = reference_in_clear(site, url="https://login.example.org/other-page")  # a page the site lacks
    fields = PasswordFields(one_page_site(tmp_path / "site2", LOGIN_PAGE, LOGIN_HOME))
    found = masked_reference(elsewhere, fields)
    assert (found.masked, found.unknown) == ([], [1, 2])
    assert found.trajectory.steps[1].value == SECRET
    on_the_page = masked_reference(reference_in_clear(tmp_path / "site3"), fields)
    assert (on_the_page.masked, on_the_page.unknown) == ([2], [])
    again = masked_reference(on_the_page.trajectory, fields)  # already masked: nothing to look at
    assert (again.masked, again.unknown, again.trajectory) == ([], [], on_the_page.trajectory)
