"""The summaries and messages of `synth`, `site capture` and `agent tasks` name a folder or file as a hint names it
(`command_hints.hint_path`): a folder named in bytes that are not UTF-8 (`caf\\xe9`) as `$'…/caf\\xe9'`, one whose
name holds a space quoted (`'…/my dir'`), never the raw bytes (unreadable on a UTF-8 terminal) nor a traceback, under
a UTF-8 locale (C.UTF-8) as under the C locale. Each command runs as a process of its own, under that locale. And a
generation resumed from a file in such a folder keeps its answers (the partial file, UTF-8, names the file whole)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.agent.candidates import Candidate, save_candidates
from recordlens.core.agent.model import Task
from recordlens.core.cli.task_pipeline import GenerationPartial
from recordlens.core.command_hints import hint_path
from tests.core.cli_runs import DEMO
from tests.shell_words import made_folder

pytestmark = pytest.mark.timeout(600)

ROOT = Path(__file__).resolve().parents[2]
HOME = "http://127.0.0.1:8000/"
# `recordlens ARGV`, with `site capture` given a canned web of one page rather than the app's Chromium
COMMAND = f"""
import sys
from recordlens.core.agent.capture import capture_site, register_capture_runner
from recordlens.core.cli.command import main
from tests.core.canned_web import NO_ROBOTS, Web

def canned(roots, folder, rules, **_options):
    return capture_site(roots, folder, Web({{{HOME!r}: ("Home", [])}}), rules, robots=NO_ROBOTS)

register_capture_runner(canned)
sys.exit(main(sys.argv[1:]))
"""
# (folder name, locale): a name not in UTF-8 under each locale; a space, which reads alike under both, under one
CASES = [(b"caf\xe9", "C.UTF-8"), (b"caf\xe9", "C"), (b"my dir", "C.UTF-8")]


def recordlens(locale: str, *argv: str | Path) -> tuple[int, str, str]:
    """The command's exit status, stdout and stderr, each read as UTF-8 (which fails on a byte that is not)."""
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONIOENCODING", "PYTHONUTF8")}
    done = subprocess.run([sys.executable, "-c", COMMAND, *map(os.fsencode, argv)], cwd=ROOT,
                          env={**env, "LC_ALL": locale}, capture_output=True, timeout=300, check=False)
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert "Traceback" not in err, err
    return done.returncode, out, err


@pytest.fixture(params=CASES, ids=lambda case: f"{case[0]!r}-{case[1]}")
def case(request: pytest.FixtureRequest) -> tuple[bytes, str]:
    return request.param


@pytest.fixture
def folder(case: tuple[bytes, str], tmp_path: Path) -> Path:
    made = tmp_path / os.fsdecode(case[0])
    made_folder(made)
    return made


@pytest.fixture
def locale(case: tuple[bytes, str]) -> str:
    return case[1]


def test_synth_names_its_dataset_as_a_hint_does(folder: Path, locale: str) -> None:
    out_dir = folder / "out"
    argv = ("synth", "--pages", DEMO / "html", "--gt", DEMO / "gt", "--out", out_dir, "-k", "1", "--formats", "html",
            "-q")
    code, out, err = recordlens(locale, *argv)
    assert code == 0, err
    assert out.startswith(f"{hint_path(out_dir)}: 4 pages (1 variant(s) of 4)"), out
    code, out, err = recordlens(locale, *argv, "--json")
    assert code == 0, err
    assert json.loads(out)["out"] == str(out_dir)  # the path itself, which a JSON reader gives back
    assert f"{hint_path(out_dir)}: replaced an earlier synthetic dataset" in err


def test_the_task_commands_name_their_files_as_a_hint_does(folder: Path, locale: str) -> None:
    candidates, tasks = folder / "cand.jsonl", folder / "tasks.jsonl"
    save_candidates(candidates, [Candidate(Task(id="t1", instruction="Who?", answer="x", category="c"),
                                           status="accepted")])
    for replace in ((), ("--replace",)):
        code, out, err = recordlens(locale, "agent", "tasks", "export", "--candidates", candidates, "--out", tasks,
                                    *replace)
        assert code == 0, err
        assert out == f"{hint_path(tasks)}: 1 task(s)\n"
    assert f"replaced the earlier {hint_path(tasks)}" in err
    code, _, err = recordlens(locale, "agent", "tasks", "export", "--candidates", candidates, "--out", tasks)
    assert code == 2 and f"{hint_path(tasks)} exists with 1 task(s)" in err
    code, _, err = recordlens(locale, "agent", "tasks", "review", "--candidates", candidates, "--id", "t9",
                              "--status", "accepted")
    assert code == 2 and f"no candidate t9 in {hint_path(candidates)}" in err
    code, _, err = recordlens(locale, "agent", "tasks", "report", "--candidates", candidates)
    assert code == 0 and f"1 candidate(s) of {hint_path(candidates)} have an answer" in err


def test_site_capture_names_its_site_as_a_hint_does(folder: Path, locale: str) -> None:
    site = folder / "site"
    code, out, err = recordlens(locale, "site", "capture", HOME, "--site", site)
    assert code == 0, err
    assert out.startswith(f"{hint_path(site)}: 1 page(s) saved"), out
    code, out, err = recordlens(locale, "site", "capture", HOME, "--site", site, "--json")
    assert code == 0, err
    assert json.loads(out)["folder"] == str(site)  # valid JSON, the path given back


def test_a_generation_resumed_from_a_file_in_such_a_folder_keeps_its_answers(tmp_path: Path) -> None:
    folder = tmp_path / os.fsdecode(b"caf\xe9")
    made_folder(folder)
    stopped = folder / "stopped.jsonl"  # a stopped generation's --out, resumed into another file
    asked_from = {"lookup": {"seeds": "s1", "description": "d1"}}
    Path(f"{stopped}.partial").write_text(json.dumps({"settings": {"site": "demo"}, "categories": {
        "lookup": {"candidates": [], "dropped": [], **asked_from["lookup"]}}}), encoding="utf-8")
    partial = GenerationPartial(str(tmp_path / "out.jsonl"), {"site": "demo"}, asked_from, resume_from=str(stopped))
    assert partial.resumed() == {"lookup": ([], [])}  # its answers moved to out.jsonl.partial, written as UTF-8
    moved = json.loads((tmp_path / "out.jsonl.partial").read_text(encoding="utf-8"))
    assert moved["categories"]["lookup"]["held_in"] == str(stopped)  # the file's very name, read back
