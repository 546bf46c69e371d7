"""A page whose file name is not valid UTF-8 (bytes Python keeps as surrogates): every writer takes it, and its
files are named with the very bytes of the page's, so that a rerun finds them."""

from __future__ import annotations

import os
from pathlib import Path

from recordlens.core import atomic
from recordlens.core.cli.command import main
from recordlens.core.store.project import init_project, open_project

BAD = os.fsdecode(b"bad-\xff\xfe-utf8")  # 'bad-\udcff\udcfe-utf8'


def test_a_name_that_is_not_utf8_is_written_and_keeps_its_bytes(tmp_path: Path) -> None:
    target = atomic.write_text(tmp_path / f"{BAD}.json", "[]")
    assert os.fsencode(target.name) == b"bad-\xff\xfe-utf8.json"
    assert os.listdir(os.fsencode(tmp_path)) == [b"bad-\xff\xfe-utf8.json"]


def test_a_long_name_that_is_not_utf8_is_cut_at_whole_bytes_for_its_temporary(tmp_path: Path) -> None:
    name = os.fsdecode(b"\xff" * 240) + ".json"  # 245 bytes on disk
    target = atomic.write_text(tmp_path / name, "[]")
    assert [os.fsencode(p.name) for p in tmp_path.iterdir()] == [b"\xff" * 240 + b".json"]
    assert target.read_text(encoding="utf-8") == "[]"
    assert os.fsencode(atomic._short_enough(name)).endswith(b"~.json")
    assert len(os.fsencode(atomic._short_enough(name))) <= 255 - len(". .12345678.tmp")


PAGE = "<html><body><ul><li>one</li><li>two</li></ul></body></html>"


def test_import_refuses_a_name_that_is_not_utf8_with_the_reason(tmp_path: Path, capsys) -> None:
    init_project(tmp_path / "P").close()
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / f"{BAD}.html").write_text(PAGE, encoding="utf-8")
    (tmp_path / "pages" / "good.html").write_text(PAGE, encoding="utf-8")
    assert main(["import", str(tmp_path / "pages"), "--project", str(tmp_path / "P"), "-q"]) == 1
    err = capsys.readouterr().err
    assert "unexpected" not in err and "surrogates" not in err
    assert ("the page name 'bad-\\xff\\xfe-utf8' is not valid UTF-8: rename the file (and its labels file) to "
            "import it") in err
    with open_project(tmp_path / "P") as project:
        assert [p.name for p in project.pages()] == ["good"]


def test_extract_goes_on_past_a_page_whose_name_is_not_utf8_and_a_rerun_finds_it_done(tmp_path: Path,
                                                                                     capsys) -> None:
    pages, run = tmp_path / "pages", tmp_path / "run"
    pages.mkdir()
    for name in ("1", BAD, "3"):
        (pages / f"{name}.html").write_text(PAGE, encoding="utf-8")
    assert main(["extract", "--method", "mdr", "--pages", str(pages), "--out", str(run), "-q"]) == 0
    assert sorted(os.listdir(os.fsencode(run))) == [b"1.json", b"3.json", b"_run", b"bad-\xff\xfe-utf8.json"]
    assert main(["extract", "--method", "mdr", "--pages", str(pages), "--out", str(run), "-q"]) == 0
    assert "0 extracted, 3 already there, 0 failed" in capsys.readouterr().out


def test_a_run_with_a_prediction_named_in_bytes_that_are_not_utf8_is_added_without_it(tmp_path: Path,
                                                                                       capsys) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "pages" / "1.html").write_text(PAGE, encoding="utf-8")
    assert main(["project", "init", str(tmp_path / "P")]) == 0
    assert main(["import", str(tmp_path / "pages"), "--project", str(tmp_path / "P"), "-q"]) == 0
    run = tmp_path / "run"
    run.mkdir()
    for name in ("1", BAD):
        (run / f"{name}.json").write_text('[["/body[1]/ul[1]/li[1]"]]', encoding="utf-8")
    capsys.readouterr()
    assert main(["runs", "--project", str(tmp_path / "P"), "--add", str(run), "--method", "mdr"]) == 1  # one left out
    err = capsys.readouterr().err
    assert "skipped 1 prediction file" in err and "(bad-\\xff\\xfe-utf8.json): no page of that name" in err
    assert err.count("bad-\\xff\\xfe-utf8.json") == 1
