"""`extract --restart` on fewer pages than its folder's run held starts the run over on the pages it is given: the
earlier run's other pages are set aside (kept, with that run's run.json, in `_run/set-aside.STAMP/`), said, so
that the folder holds the new run alone and `runs --add` stores it. A folder an earlier RecordLens left holding such
pages is refused with why they are there (a --restart that was not given them, not one that stopped), and the way
the refusal gives (the extract command again without --restart) sets them aside, so the folder is then stored.
Against the loopback fake in tests/fake_gemini.py: the pages set aside were paid for."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import META_DIR, SET_ASIDE
from recordlens.core.store.project import open_project
from tests.core.cli_runs import demo_project, run
from tests.core.cli_runs import gemini_extract as extract
from tests.fake_gemini import FakeGemini, answer

DEMO = resource_path("demo", "dataset")  # pages 1 to 4
KEY = "test-key-not-real-restart-fewer"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def two_pages(tmp_path: Path) -> Path:
    """A folder of the demo's pages 1 and 2 only."""
    pages = tmp_path / "pages12"
    pages.mkdir()
    for name in ("1", "2"):
        shutil.copy(DEMO / "html" / f"{name}.html", pages)
    return pages


def names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def set_aside_folder(run_dir: Path) -> Path:
    folder, = (run_dir / META_DIR).glob(f"{SET_ASIDE}.*")
    return folder


def test_a_restart_on_fewer_pages_sets_the_earlier_runs_other_pages_aside_and_the_folder_is_stored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir, project, pages = tmp_path / "run", demo_project(capsys, tmp_path / "p"), two_pages(tmp_path)
    with FakeGemini(default=answer("[]", usage=(100, 20))) as server:
        assert run(capsys, *extract(run_dir, server, "--temperature", "1"))[0] == 0
        earlier_run = (run_dir / META_DIR / "run.json").read_bytes()
        paid = {name: (run_dir / META_DIR / f"{name}.json").read_bytes() for name in ("3", "4")}
        code, _, err = run(capsys, *extract(run_dir, server, "--restart", "--temperature", "0.5", pages=pages))
    assert code == 0, err
    aside = set_aside_folder(run_dir)
    assert (f"warning: --restart: {run_dir} held 2 pages of the run before it that are not among the pages given "
            f"(3, 4): set aside in {aside} with that run's run.json, so that the folder holds this run alone") in err
    assert names(run_dir) == ["1.json", "2.json", META_DIR]
    assert names(run_dir / META_DIR) == ["1.json", "2.json", "run.json", aside.name]
    # kept as the earlier run wrote them: its pages' records (paid for) and its description, a run folder of its own
    assert names(aside) == ["3.json", "4.json", META_DIR]
    assert {name: (aside / META_DIR / f"{name}.json").read_bytes() for name in ("3", "4")} == paid
    assert (aside / META_DIR / "run.json").read_bytes() == earlier_run
    assert json.loads(earlier_run)["parameters"]["temperature"] == 1.0

    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0 and f"stored {run_dir} as run 1" in err, err
    with open_project(project) as opened:
        assert sorted(opened.runs.predictions(1)) == ["1", "2"]


def test_a_folder_an_earlier_restart_left_so_is_refused_truly_and_stored_once_its_extract_runs_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir, project, pages = tmp_path / "run", demo_project(capsys, tmp_path / "p"), two_pages(tmp_path)
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, server, "--temperature", "1"))[0] == 0
        assert run(capsys, *extract(run_dir, server, "--restart", "--temperature", "0.5", pages=pages))[0] == 0
        # what an earlier RecordLens's --restart left: the pages it was not given, in place
        aside = set_aside_folder(run_dir)
        for name in ("3", "4"):
            (aside / f"{name}.json").rename(run_dir / f"{name}.json")
            (aside / META_DIR / f"{name}.json").rename(run_dir / META_DIR / f"{name}.json")
        shutil.rmtree(aside)

        code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
        assert code == 2, err
        assert (f"2 pages of the run in {run_dir} (3, 4) hold records an earlier run of the folder made with other "
                "settings (temperature: 1.0 -> 0.5), kept by a --restart that was not given them: nothing stored: "
                "run its extract command again without --restart") in err
        assert "stopped before it came to them" not in err  # it did not stop: it ran every page it was given

        code, _, err = run(capsys, *extract(run_dir, server, "--temperature", "0.5", pages=pages))  # as told
    assert code == 0, err
    aside = set_aside_folder(run_dir)
    assert (f"2 pages of the run in {run_dir} (3, 4) hold records an earlier run of the folder made with other "
            "settings (temperature: 1.0 -> 0.5), kept by a --restart that was not given them: not among the pages "
            f"given now either, so set aside in {aside}") in err
    assert names(run_dir) == ["1.json", "2.json", META_DIR] and names(aside) == ["3.json", "4.json", META_DIR]

    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0 and f"stored {run_dir} as run 1" in err, err
