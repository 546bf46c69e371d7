"""`score --project P --run ID` of a stored run some of whose predictions other settings than the run's made (stored
before `runs --add` refused such a folder, or stored by `import_run_folder` itself, which does not check) is refused
as `runs --add` refuses its folder: the pages named with how they were made, in its words, nothing scored (a score
over two settings' records is a wrong figure under one run's settings); `runs --compare` refuses it too. The run's
folder tells, by the very records the run was stored with. Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from recordlens.core.store.importer import import_run_folder
from recordlens.core.store.project import open_project
from tests.core.cli_runs import EXTRACT, demo_project, run
from tests.core.cli_runs import gemini_extract as extract
from tests.fake_gemini import FakeGemini, answer

KEY = "test-key-not-real-score-mixed"
HOW = ("(3, 4) hold records an earlier run of the folder made with other settings (temperature: 1.0 -> 0.5), kept by "
       "a --restart that stopped before it came to them: nothing ")


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)


def store_by_hand(project: Path, run_dir: Path) -> int:
    """The folder stored as a run without `runs --add`'s check, as RecordLens stored it before the check."""
    with open_project(project) as opened:
        return import_run_folder(opened, run_dir).run_id


def scores_stored(project: Path) -> list[object]:
    with open_project(project) as opened:
        return [score for run in opened.runs.all() for score in opened.runs.scores(run.id)]


def test_a_stored_run_of_two_settings_is_refused_as_runs_add_refuses_its_folder_until_stored_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir, project = tmp_path / "run", demo_project(capsys, tmp_path / "p")
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, server, "--temperature", "1"))[0] == 0
        assert run(capsys, *extract(run_dir, server, "--restart", "--temperature", "0.5",
                                    "--max-requests", "2"))[0] == 3  # pages 1 and 2 made again, 3 and 4 not
        run_id = store_by_hand(project, run_dir)
        _, _, refused = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))

        code, out, err = run(capsys, "score", "--project", str(project), "--run", str(run_id), "-q")
        assert code == 2 and out == "", err
        assert f"2 pages of run {run_id} from {run_dir} {HOW}scored" in err, err
        assert f"2 pages of the run in {run_dir} {HOW}stored" in refused  # the same rule, in the same words
        assert "run its extract command again without --restart" in err
        assert f"--project {project} --add {run_dir}" in err  # then stored whole, and scored
        assert scores_stored(project) == []
        assert run(capsys, *EXTRACT, str(tmp_path / "mdr"), "-q")[0] == 0
        assert run(capsys, "runs", "--project", str(project), "--add", str(tmp_path / "mdr"))[0] == 0
        code, _, err = run(capsys, "runs", "--project", str(project), "--compare", str(run_id + 1), str(run_id))
        assert code == 2 and f"2 pages of run {run_id} from {run_dir} {HOW}scored" in err, err
        assert scores_stored(project) == []  # the other run neither: both checked before either is scored

        assert run(capsys, *extract(run_dir, server, "--temperature", "0.5"))[0] == 0  # as told
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0, err
    code, _, err = run(capsys, "score", "--project", str(project), "--run", str(run_id), "-q")
    assert code == 0 and "earlier run" not in err, err


def test_a_stored_run_of_one_setting_or_whose_folder_is_gone_is_scored(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_dir, project = tmp_path / "run", demo_project(capsys, tmp_path / "p")
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, server, "--temperature", "1"))[0] == 0
        assert run(capsys, *extract(run_dir, server, "--restart", "--max-requests", "2"))[0] == 3  # the same settings
    run_id = store_by_hand(project, run_dir)
    code, _, err = run(capsys, "score", "--project", str(project), "--run", str(run_id), "-q")
    assert code == 0 and "other settings" not in err, err

    with FakeGemini(default=answer("[]")) as server:  # a run of two settings whose folder is gone since
        restarted = extract(run_dir, server, "--restart", "--temperature", "0.5", "--max-requests", "2")
        assert run(capsys, *restarted)[0] == 3
    other = store_by_hand(project, run_dir)
    assert run(capsys, "score", "--project", str(project), "--run", str(other), "-q")[0] == 2
    shutil.rmtree(run_dir)
    code, _, err = run(capsys, "score", "--project", str(project), "--run", str(other), "-q")
    assert code == 0, err  # nothing is left to tell: scored as stored
