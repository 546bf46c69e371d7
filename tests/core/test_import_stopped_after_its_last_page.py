"""An import stopped after its last page (a Ctrl+C in its closing check of the project's labels) says no page is
left to import: it said "running the same command again imports the rest" of a project that held them all."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.cli import project as project_cli
from recordlens.core.store.project import open_project
from tests.core.cli_runs import DEMO, run


def test_an_import_stopped_after_its_last_page_says_nothing_is_left(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "p"
    assert run(capsys, "project", "init", str(project))[0] == 0

    def every_page_then_stopped(items, **kwargs: object):  # noqa: ANN001, ANN202
        yield from list(items)
        raise KeyboardInterrupt  # as the loop asks for a page after the last

    monkeypatch.setattr(project_cli, "progress", every_page_then_stopped)
    code, _, err = run(capsys, "import", str(DEMO), "--project", str(project))
    assert code == 130
    assert ("import stopped after its last page (4 of 4 pages): no page is left to import (running the same "
            "command again only says what the project holds of them)") in err, err
    assert "imports the rest" not in err
    with open_project(project) as opened:
        assert len(opened.page_names()) == 4


def test_an_import_stopped_before_its_last_page_says_the_rest_comes_in_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "p"
    assert run(capsys, "project", "init", str(project))[0] == 0

    def three_then_stopped(items, **kwargs: object):  # noqa: ANN001, ANN202
        yield from list(items)[:3]
        raise KeyboardInterrupt

    monkeypatch.setattr(project_cli, "progress", three_then_stopped)
    code, _, err = run(capsys, "import", str(DEMO), "--project", str(project))
    assert code == 130
    assert "import stopped after 3 of 4 pages; running the same command again imports the rest" in err, err
