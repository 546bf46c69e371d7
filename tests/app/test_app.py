"""The entry point: the demo project is built on first use, and --screenshot saves the drawn window and quits."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from recordlens.annotator.app import BASE_WAIT_S, WAIT_S_PER_MB, main, screenshot_wait_s
from recordlens.annotator.labelling.demo_project import open_demo_project
from tests.app.window_helpers import keep_app_state_private

pytestmark = pytest.mark.app


@pytest.fixture(autouse=True)
def private_app_state(monkeypatch, tmp_path: Path) -> None:
    """The app's window asks for the OS keyring and its settings file; here it gets a session store and a
    settings file of the test's own."""
    keep_app_state_private(monkeypatch, tmp_path)


def test_the_demo_project_shows_every_stage(tmp_path: Path) -> None:
    with open_demo_project(tmp_path / "demo") as project:
        variants = [f"{n}_v{k}" for n in range(1, 5) for k in (1, 2)]
        assert [(p.name, p.status) for p in project.pages()] == [
            ("1", "labelled"), ("1_v1", "labelled"), ("1_v2", "labelled"), ("2", "proposed"),
            ("2_v1", "labelled"), ("2_v2", "labelled"), ("3", "labelled"), ("3_v1", "labelled"),
            ("3_v2", "labelled"), ("4", "new"), ("4_v1", "labelled"), ("4_v2", "labelled")]
        assert all(project.true_records(name) for name in variants)
        assert project.pages("proposed")[0].proposed > 0
        runs = project.runs.all()
        assert len(runs) == 2 and all(r.scored_pages == 2 + len(variants) and r.f1 is not None for r in runs)
    assert [p.name for p in tmp_path.iterdir()] == ["demo"]  # no staging folder left behind
    with open_demo_project(tmp_path / "demo") as again:  # opened, not built twice
        assert len(again.runs.all()) == 2


def test_screenshot_of_a_review(qapp, tmp_path: Path, capsys) -> None:
    shot = tmp_path / "shots" / "review.png"
    code = main(["--demo-dir", str(tmp_path / "demo"), "--screenshot", str(shot), "--page", "3", "--review", "mdr",
                 "--size", "1200x800"])
    assert code == 0, capsys.readouterr().err
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (1200, 800)
    assert str(shot) in capsys.readouterr().out


def test_bad_arguments_are_one_line_errors(qapp, tmp_path: Path, capsys) -> None:
    assert main([str(tmp_path / "nowhere")]) == 2
    assert f"there is no folder {tmp_path / 'nowhere'}" in capsys.readouterr().err
    assert main(["--demo-dir", str(tmp_path / "demo"), "--screenshot", str(tmp_path / "x.png"), "--page", "99"]) == 2
    assert "no page '99'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--page", "1"])


def test_screenshot_of_a_chosen_record_and_a_clear_error_for_a_missing_one(qapp, tmp_path: Path, capsys) -> None:
    shot = tmp_path / "record.png"
    code = main(["--demo-dir", str(tmp_path / "demo"), "--screenshot", str(shot), "--page", "1", "--record", "12",
                 "--size", "1000x700"])
    assert code == 0 and shot.is_file(), capsys.readouterr().err
    code = main(["--demo-dir", str(tmp_path / "demo"), "--screenshot", str(shot), "--page", "1", "--record", "99"])
    assert code == 2 and "no record 99" in capsys.readouterr().err


def test_started_without_a_project_the_app_reopens_the_project_last_open(qapp, tmp_path: Path, monkeypatch) -> None:
    """Where the user left off: the project last open (on its page), unless it is gone or --demo is asked."""
    from recordlens.annotator import settings as settings_module
    from recordlens.annotator.app import open_project_for, parse_args
    from recordlens.annotator.labelling.main_window import MainWindow
    from recordlens.annotator.settings import SessionKeyStore, Settings
    from recordlens.core.resource_files import resource_path
    from recordlens.core.store import import_paths, init_project

    monkeypatch.setattr(settings_module, "settings_path", lambda: tmp_path / "settings.json")  # as the window's
    folder = tmp_path / "mine"
    with init_project(folder) as project:
        import_paths(project, [resource_path("demo", "dataset")])
    window = MainWindow(open_project_for(parse_args([str(folder)])), key_store=SessionKeyStore())
    try:
        window.resize(1200, 800)
        window.show()
        last_page = window.project.pages()[-1].name
        window.open_page(last_page)
        window.wait_until_drawn()  # the page is remembered once it has loaded
    finally:
        window.close()
        window.shutdown()
    assert Settings.load(settings_module.settings_path()).last_project == str(folder.resolve())
    with open_project_for(parse_args([])) as again:
        assert again.root.resolve() == folder.resolve()
    with open_project_for(parse_args(["--demo", "--demo-dir", str(tmp_path / "demo")])) as demo:
        assert demo.root.resolve() != folder.resolve()
    (folder / "project.db").unlink()  # the project is gone: the demo opens, no error
    with open_project_for(parse_args([])) as fallback:
        assert fallback.root.resolve() != folder.resolve()


def test_a_page_not_drawn_in_time_is_named_by_its_file_with_how_to_wait_longer(qapp, tmp_path: Path,
                                                                                capsys) -> None:
    # The browser's own address for a page (recordlens-page:/2/<hash>.html) tells a user nothing.
    shot = tmp_path / "x.png"
    code = main(["--demo-dir", str(tmp_path / "demo"), "--screenshot", str(shot), "--page", "1", "--wait", "0.001"])
    error = capsys.readouterr().err
    with open_demo_project(tmp_path / "demo") as project:
        page_file = project.snapshot_file("1")
    assert code == 2 and not shot.exists()
    assert f"page 1 ({page_file}, " in error and "was not drawn within 0.001 s" in error, error
    assert "--wait SECONDS" in error and "recordlens-page:" not in error


def test_the_screenshot_wait_grows_with_the_page_file_unless_given(tmp_path: Path) -> None:
    small, large = tmp_path / "small.html", tmp_path / "large.html"
    small.write_bytes(b"<p>x</p>")
    large.write_bytes(b"x" * 30_000_000)
    assert screenshot_wait_s(small, None) == pytest.approx(BASE_WAIT_S, abs=0.01)
    assert screenshot_wait_s(large, None) == pytest.approx(BASE_WAIT_S + 30 * WAIT_S_PER_MB)
    assert screenshot_wait_s(large, 5.0) == 5.0
    with pytest.raises(SystemExit):
        main(["--wait", "60"])  # goes with --screenshot
    with pytest.raises(SystemExit):
        main(["--screenshot", str(tmp_path / "x.png"), "--wait", "0"])
