"""`runs --add` of a run folder some of whose pages hold records other settings than its run's made (a --restart
with other settings that stopped before it came to them) is refused, nothing stored, those pages named as `score`
names them, with how to go on: stored, the run's figures would mix two settings' records under one run's settings,
in the project's table and comparisons, where no warning follows them. Once resumed as told, the folder is stored.
Against the loopback fake in tests/fake_gemini.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.store.project import open_project
from tests.core.cli_runs import demo_project, run
from tests.core.cli_runs import gemini_extract as extract
from tests.fake_gemini import FakeGemini, answer

DEMO = resource_path("demo", "dataset")  # pages 1 to 4
KEY = "test-key-not-real-add-mixed"
NAMED = ("2 pages of the run in {folder} (3, 4) hold records an earlier run of the folder made with other settings "
         "(temperature: 1.0 -> 0.5)")


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", KEY)



def test_a_folder_of_two_settings_is_refused_until_resumed(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    run_dir, project = tmp_path / "run", demo_project(capsys, tmp_path / "p")
    with FakeGemini(default=answer("[]")) as server:
        assert run(capsys, *extract(run_dir, server, "--temperature", "1"))[0] == 0
        assert run(capsys, *extract(run_dir, server, "--restart", "--temperature", "0.5",
                                    "--max-requests", "2"))[0] == 3  # pages 1 and 2 made again, 3 and 4 not
        _, _, scored = run(capsys, "score", "--pred", str(run_dir), "--gt", str(DEMO / "gt"), "--pages",
                           str(DEMO / "html"), "-q")
        code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
        assert code == 2, err
        assert NAMED.format(folder=run_dir) in err
        assert NAMED.format(folder=run_dir).split(" (3, 4) ")[1] in scored  # as `score` names them
        assert "nothing stored: run its extract command again without --restart" in err
        with open_project(project) as opened:
            assert opened.runs.all() == []

        assert run(capsys, *extract(run_dir, server, "--temperature", "0.5"))[0] == 0  # as told
    code, _, err = run(capsys, "runs", "--project", str(project), "--add", str(run_dir))
    assert code == 0 and f"stored {run_dir} as run 1" in err, err
