"""A snapshot site with a login form of two fields (a user name, a password) and a Log in button, whose account page
is saved only at the URL the form goes to when both fields are filled: a form sent with a field empty (an Enter
pressed after the first field) leads to "Not in this snapshot". And a fake model that logs in with the grammar's
Type without Enter: what the text-browser and Qt-browser tests of it share (Qt-free)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from recordlens.core.agent.model import Task
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.tasks import save_tasks
from recordlens.core.page.mhtml_writer import write_mhtml
from recordlens.core.store.project import open_project
from tests.fake_gemini import FakeGemini, answer_with

LOGIN = "https://bank.example.org/login"
USER, PASSWORD = "ada", "s3cret"
ACCOUNT = f"https://bank.example.org/account?user={USER}&pw={PASSWORD}"  # the form's GET, both fields filled
ACCOUNT_NUMBER = "ADA-7731"
TASK = Task(id="login", instruction=f"Log in as {USER} with the password {PASSWORD} and give your account number.",
            answer=ACCOUNT_NUMBER, start_url=LOGIN)
LOGIN_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Log in</title></head>
<body style="font:18px sans-serif;margin:24px"><h1>Log in</h1>
<form action="/account" method="get">
  <p><label>User name <input name="user" style="font-size:18px"></label></p>
  <p><label>Password <input type="password" name="pw" style="font-size:18px"></label></p>
  <p><button type="submit">Log in</button></p>
</form></body></html>"""
ACCOUNT_PAGE = f"""<!DOCTYPE html><html><head><meta charset="utf-8"><title>Your account</title></head>
<body style="font:18px sans-serif;margin:24px"><h1>Welcome, Ada</h1><p>Account number {ACCOUNT_NUMBER}</p></body>
</html>"""
# The model's answers, in turn: each field filled without Enter, then the button, then the answer. The numbers are
# the login page's elements in both browsers: the user name [1], the password [2], the button [3].
ANSWERS = (f"Thought: the user name first; Enter would send the form.\nAction: Type [1]; {USER} (no Enter)",
           f"Thought: now the password.\nAction: Type [2]; {PASSWORD} (no Enter)",
           "Thought: both fields are filled.\nAction: Click [3]",
           f"Thought: the account page shows it.\nAction: ANSWER; {ACCOUNT_NUMBER}")


def make_login_form_site(root: Path) -> Path:
    """The site in `root`: the login page and the account page it leads to."""
    root.mkdir(parents=True, exist_ok=True)
    write_mhtml(root / "login.mhtml", LOGIN_PAGE, url=LOGIN)
    write_mhtml(root / "account.mhtml", ACCOUNT_PAGE, url=ACCOUNT)
    build_site(root)
    return root


def login_tasks(path: Path) -> Path:
    """A tasks file holding the login task alone."""
    return save_tasks(path, [TASK])


def answer_in_turn(body: dict) -> str:
    """The answer for the request's step: the prompt says which step it is ("Step N")."""
    prompt = body["contents"][0]["parts"][0]["text"]
    step = int(prompt.split("\nStep ", 1)[1].split(" ", 1)[0])
    return ANSWERS[step - 1]


def login_episode(main: Callable[[Sequence[str]], int], folder: Path, capsys: pytest.CaptureFixture[str],
                  browser: str):  # noqa: ANN201 - the stored episode (a Trajectory)
    """`agent run --browser BROWSER` (through `main`: core's command line, or the app's for qt) of the login task on
    the login form's site, the fake model answering in turn; the one episode stored, once the run said it succeeded.
    GEMINI_API_KEY must be set (to a fake key)."""
    site = make_login_form_site(folder / "site")
    project = folder / "p"
    with FakeGemini(default=answer_with(answer_in_turn)) as server:
        code = main(["agent", "run", "--project", str(project), "--site", str(site), "--tasks",
                     str(login_tasks(folder / "tasks.jsonl")), "--runs", "1", "--browser", browser, "--base-url",
                     server.url])
    assert code == 0, capsys.readouterr().err
    assert "1 of 1 episode succeeded" in capsys.readouterr().out
    with open_project(project) as opened:
        [(_, episode)] = opened.agent.trajectories()
    return episode
