"""Data safety of a project's files, as a user meets it: a project on read-only media is copied and checked
where it is; a damaged database gets advice; a page whose declared charset does not fit its bytes is read
right and said; a copy of a page already imported is not imported again; a stopped export is named by `labels
check`; what a killed import left is removed by the next one; and the smaller messages (subfolders not looked
into, a copy to a folder that cannot be written, a page name with a line break)."""

from __future__ import annotations

import base64
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.command_hints import hint_path
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import read_snapshot
from recordlens.core.store.files import SNAPSHOTS
from recordlens.core.store.project import init_project, open_project
from tests.child_lines import first_line

PAGE = ("<html><head><title>Shop</title></head><body><ul><li>apples</li><li>pears</li><li>plums</li></ul>"
        "</body></html>")
OTHER = PAGE.replace("plums", "figs")
TRUTH = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[2]"]]


def dataset(root: Path, pages: dict[str, str], truth: dict[str, list[list[str]]]) -> Path:
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    for name, html in pages.items():
        (root / "html" / f"{name}.html").write_text(html, encoding="utf-8")
    for name, records in truth.items():
        (root / "gt" / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")
    return root


def labelled_project(tmp_path: Path) -> Path:
    data = dataset(tmp_path / "data", {"1": PAGE, "2": OTHER}, {"1": TRUTH, "2": TRUTH})
    assert main(["import", str(data), "--project", str(tmp_path / "P"), "-q"]) == 2  # no project yet
    init_project(tmp_path / "P").close()
    assert main(["import", str(data), "--project", str(tmp_path / "P"), "-q"]) == 0
    return tmp_path / "P"


# A project on read-only media (#5) --------------------------------------------------------------------------


def run_on_read_only(folder: Path, argv: list[str]) -> subprocess.CompletedProcess[str]:
    """`recordlens ARGV` in another process that sees `folder` read-only: a read-only bind mount of it (as root,
    which file modes do not stop), else the folder's write bits taken away."""
    code = f"import sys; from recordlens.core.cli.command import main; sys.exit(main({argv!r}))"
    if os.geteuid() != 0:
        modes = {path: path.stat().st_mode for path in [folder, *folder.rglob("*")]}
        for path, mode in modes.items():
            path.chmod(mode & ~0o222)
        try:
            return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
        finally:
            for path, mode in modes.items():
                path.chmod(mode)
    if shutil.which("unshare") is None:
        pytest.skip("no unshare: a read-only mount cannot be made")
    where = shlex.quote(str(folder))
    script = (f"mount --bind {where} {where} && mount -o remount,bind,ro {where} || exit 97; "
              f"exec {shlex.quote(sys.executable)} -c {shlex.quote(code)}")
    result = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True, check=False)
    if result.returncode == 97 or "unshare failed" in result.stderr:
        pytest.skip(f"a read-only mount cannot be made here: {result.stderr.strip()}")
    return result


def test_a_read_only_project_is_copied_and_checked_where_it_is_and_its_refusal_names_copy(tmp_path: Path) -> None:
    project = labelled_project(tmp_path)
    before = (project / "project.db").read_bytes()
    held = sorted(p.name for p in project.iterdir())  # project.db, snapshots/, the hidden .running/ of its import

    refused = run_on_read_only(project, ["import", str(tmp_path / "data"), "--project", str(project)])
    assert refused.returncode == 2
    assert "the folder is read-only" in refused.stderr
    assert f"`recordlens project copy {project} NEW` copies the project to a folder you can write to" in refused.stderr

    checked = run_on_read_only(project, ["labels", "check", "--project", str(project)])
    assert checked.returncode == 0, checked.stderr
    assert "2 pages: 0 with label problems" in checked.stdout

    exported = run_on_read_only(project, ["export", "--project", str(project), "--format", "nexteval", "--out",
                                          str(tmp_path / "export"), "-q"])
    assert exported.returncode == 0, exported.stderr
    assert sorted(p.name for p in (tmp_path / "export" / "gt").iterdir()) == ["1.json", "2.json"]

    copied = run_on_read_only(project, ["project", "copy", str(project), str(tmp_path / "copy")])
    assert copied.returncode == 0, copied.stderr
    assert "2 page(s), 4 label(s)" in copied.stdout
    with open_project(tmp_path / "copy") as copy:
        assert [p.name for p in copy.pages()] == ["1", "2"] and copy.true_records("2") == TRUTH
        copy.set_status("1", "reviewed", by=copy.provenances()[1])  # the copy is the project to work in
    assert (project / "project.db").read_bytes() == before  # the source was never written
    assert sorted(p.name for p in project.iterdir()) == held


def test_a_read_only_project_whose_latest_changes_are_in_its_log_is_read_with_them_or_refused(tmp_path: Path) -> None:
    import sqlite3

    project = labelled_project(tmp_path)
    writer = sqlite3.connect(project / "project.db")  # the app, say, with changes not yet in the database file
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("UPDATE pages SET status = 'reviewed' WHERE name = '1'")
    writer.commit()
    shutil.copytree(project, tmp_path / "whole")  # the folder copied while open: its log goes with it
    shutil.copytree(project, tmp_path / "no-shm")
    writer.close()
    # With its shared-memory file, SQLite reads the log read-only: the copy holds the change.
    assert {"project.db-wal", "project.db-shm"} <= {p.name for p in (tmp_path / "whole").iterdir()}
    copied = run_on_read_only(tmp_path / "whole", ["project", "copy", str(tmp_path / "whole"), str(tmp_path / "c1")])
    assert copied.returncode == 0, copied.stderr
    with open_project(tmp_path / "c1") as copy:
        assert copy.page("1").status == "reviewed"
    # Without it, the log cannot be read where it is: refused (never copied without its latest changes).
    (tmp_path / "no-shm" / "project.db-shm").unlink()
    refused = run_on_read_only(tmp_path / "no-shm", ["project", "copy", str(tmp_path / "no-shm"),
                                                     str(tmp_path / "c2")])
    assert refused.returncode == 2 and not (tmp_path / "c2").exists()
    assert "its latest changes are in project.db-wal" in refused.stderr
    assert f"copy the whole folder (`cp -r {tmp_path / 'no-shm'} NEW`" in refused.stderr


# A damaged database (#6) ----------------------------------------------------------------------------------


@pytest.mark.parametrize("damage", ["truncated", "overwritten"])
def test_a_damaged_project_database_is_said_with_a_backup_the_snapshots_and_recover(tmp_path: Path, capsys,
                                                                                    damage: str) -> None:
    project = labelled_project(tmp_path)
    capsys.readouterr()
    database = project / "project.db"
    data = database.read_bytes()
    if damage == "truncated":  # a copy or a disk that stopped part way
        database.write_bytes(data[: len(data) // 2])
    else:  # another program wrote over its start
        database.write_bytes(os.urandom(4096) + data[4096:])
    assert main(["runs", "--project", str(project)]) == 2
    err = capsys.readouterr().err
    reason = "database disk image is malformed" if damage == "truncated" else "file is not a database"
    assert f"{database}: cannot open the project database ({reason}); the file is damaged" in err
    assert f"put back a copy from a backup (the pages are still in {project / SNAPSHOTS})" in err
    assert f"`sqlite3 {database} .recover` may rescue labels made since the backup" in err
    assert err.count("\n") == 1  # one message


# A declared charset that does not fit the bytes (#7) -----------------------------------------------------


def test_utf_16_declared_on_utf_8_bytes_is_read_as_utf_8_and_said(tmp_path: Path, capsys) -> None:
    html = "<html><head><title>Café</title></head><body><ul><li>crème</li><li>brûlée</li></ul></body></html>"
    right = mhtml_bytes(html, url="https://shop.test/")
    wrong = right.replace(b'charset="utf-8"', b'charset="utf-16"').replace(b"charset=utf-8", b"charset=utf-16")
    assert wrong != right
    (tmp_path / "misdeclared.mhtml").write_bytes(wrong)
    init_project(tmp_path / "P").close()
    assert main(["import", str(tmp_path / "misdeclared.mhtml"), "--project", str(tmp_path / "P"), "-q"]) == 0
    err = capsys.readouterr().err
    assert "warning: page misdeclared: The page's charset 'utf-16' (from its Content-Type header) does not fit its " \
           "bytes: decoded so, its markup is gone" in err
    with open_project(tmp_path / "P") as project:
        assert project.page("misdeclared").charset == "utf-8"
        assert "brûlée" in project.load("misdeclared").snapshot.html


def test_pages_whose_declared_charset_fits_are_read_as_before() -> None:
    html = "<html><body><p>Привет, мир</p><ul><li>один</li><li>два</li><li>три</li></ul></body></html>"
    # A UTF-16 page without a byte order mark, declared so in its part's header only: Chromium ignores the header
    # and reads its bytes (all below 0x80) as windows-1252, zero bytes and all (checked in QtWebEngine); so does
    # the core, and it says what the header would have given.
    utf16 = (b'MIME-Version: 1.0\r\nContent-Type: multipart/related; type="text/html"; boundary="B"\r\n\r\n'
             b"--B\r\nContent-Type: text/html; charset=utf-16\r\nContent-Transfer-Encoding: base64\r\n"
             b"Content-Location: https://shop.test/\r\n\r\n" + base64.encodebytes(html.encode("utf-16-le"))
             + b"\r\n--B--\r\n")
    snapshot = read_snapshot(utf16)
    assert (snapshot.charset, snapshot.html) == ("windows-1252", html.encode("utf-16-le").decode("cp1252"))
    assert "'utf-16' (from its Content-Type header) was ignored" in snapshot.warnings[0]
    # A single-byte charset keeps the markup whatever the text: read as declared, nothing said.
    snapshot = read_snapshot(b"<meta charset=koi8-r>" + html.encode("koi8-r"))
    assert (snapshot.charset, snapshot.warnings) == ("koi8-r", []) and "один" in snapshot.html


# The same bytes under another name (#8) -------------------------------------------------------------------


def test_a_copy_or_link_of_a_page_already_in_the_project_is_not_imported_again_and_is_said(tmp_path: Path,
                                                                                        capsys) -> None:
    project = labelled_project(tmp_path)
    capsys.readouterr()
    drop = tmp_path / "drop"
    drop.mkdir()
    shutil.copy(tmp_path / "data" / "html" / "1.html", drop / "copy of 1.html")
    (drop / "link.html").symlink_to(tmp_path / "data" / "html" / "2.html")
    (drop / "3.html").write_text(PAGE.replace("pears", "kiwis"), encoding="utf-8")
    assert main(["import", str(drop), "--project", str(project), "-q"]) == 0
    out, err = capsys.readouterr()
    assert (f"warning: {hint_path(drop / 'copy of 1.html')}: the same page (the same bytes) as page 1, already in "
            "the project; not imported again as page copy of 1") in err  # quoted as a hint quotes it: a space
    assert f"warning: {drop / 'link.html'}: the same page (the same bytes) as page 2" in err
    assert ("imported 1 page(s) with 0 label(s); 0 already in the project; 2 already in the project under another "
            "name (not imported again); 0 not imported") in out
    with open_project(project) as opened:
        assert [p.name for p in opened.pages()] == ["1", "2", "3"]


def test_a_dataset_page_with_labels_of_its_own_is_its_own_page_and_the_page_of_the_same_bytes_is_named(
        tmp_path: Path, capsys) -> None:
    project = labelled_project(tmp_path)
    capsys.readouterr()
    other = dataset(tmp_path / "other", {"7": PAGE}, {"7": [["/body[1]/ul[1]/li[3]"]]})
    assert main(["import", str(other), "--project", str(project), "-q"]) == 0
    err = capsys.readouterr().err
    assert ("page 7: the same bytes as page 1, already in the project; imported as a page of its own, for the "
            f"labels that came with it ({other / 'gt' / '7.json'})") in err
    with open_project(project) as opened:
        assert opened.true_records("7") == [["/body[1]/ul[1]/li[3]"]]


# A stopped export (#10) -----------------------------------------------------------------------------------


def test_labels_check_names_an_export_that_did_not_finish(tmp_path: Path, capsys) -> None:
    data = dataset(tmp_path / "exp", {"1": PAGE}, {"1": TRUTH})
    (data / "EXPORT-UNFINISHED.txt").write_text("This export did not finish.\n")
    # its findings are of part of the dataset: exit 1, as for any work done on part of what was asked
    assert main(["labels", "check", "--pages", str(data / "html"), "--gt", str(data / "gt")]) == 1
    err = capsys.readouterr().err
    assert f"warning: {data}: an export that did not finish (EXPORT-UNFINISHED.txt is still there)" in err
    assert main(["labels", "check", "--pages", str(data / "html"), "--gt", str(data / "gt"), "--json"]) == 1
    assert "an export that did not finish" in capsys.readouterr().err


# What a killed import left (#11) --------------------------------------------------------------------------


def test_the_next_import_removes_what_an_import_killed_a_moment_ago_left(tmp_path: Path) -> None:
    init_project(tmp_path / "P").close()
    folder = tmp_path / "P" / SNAPSHOTS / "fd"
    folder.mkdir()
    leftover = folder / ".fdeb79.html.zuhtk_bs.tmp"
    # A writer that holds the snapshots' lock as a snapshot write does, has its temporary file, and is killed.
    code = ("import sys, time; from pathlib import Path; from recordlens.core.store import files; "
            f"lock = files._writers_lock(Path({str(tmp_path / 'P')!r}), exclusive=False, wait=True); "
            f"lock.__enter__(); Path({str(leftover)!r}).write_bytes(b'half a page'); print('writing', flush=True); "
            "time.sleep(600)")
    writer = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert first_line(writer) == "writing\n"
        (tmp_path / "1.html").write_text(PAGE, encoding="utf-8")
        with open_project(tmp_path / "P") as project:
            from recordlens.core.store.importer import import_paths

            while_writing = import_paths(project, [tmp_path / "1.html"])
        assert leftover.exists() and while_writing.imported == ["1"]  # a live write's file is left alone
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=60)
        if writer.stdout is not None:
            writer.stdout.close()
    (tmp_path / "2.html").write_text(OTHER, encoding="utf-8")
    assert main(["import", str(tmp_path / "2.html"), "--project", str(tmp_path / "P"), "-q"]) == 0
    assert not leftover.exists()  # seconds old, but its writer is gone


# Smaller messages (#12) -----------------------------------------------------------------------------------


def test_a_folder_import_says_which_subfolders_it_did_not_look_into(tmp_path: Path, capsys) -> None:
    init_project(tmp_path / "P").close()
    data = tmp_path / "data"
    dataset(data / "ds", {"1": PAGE}, {"1": TRUTH})
    (data / "mh").mkdir()
    (data / "top.html").write_text(OTHER, encoding="utf-8")
    assert main(["import", str(data), "--project", str(tmp_path / "P"), "-q"]) == 0
    err = capsys.readouterr().err
    assert (f"warning: {data}: 2 subfolders not looked into (ds, mh): an import takes the pages of the folder "
            f"named, not of the folders inside it; a dataset (ds) is imported with its labels by naming its folder, "
            f"as in `recordlens import {data / 'ds'}`") in err
    (tmp_path / "only").mkdir()
    (tmp_path / "only" / "pages").mkdir()
    assert main(["import", str(tmp_path / "only"), "--project", str(tmp_path / "P"), "-q"]) == 1
    err = capsys.readouterr().err
    assert ("no page (.mhtml, .mht, .html, .htm) in this folder; 1 subfolder not looked into (pages): an import "
            f"takes the pages of the folder named, not of the folders inside it; name a folder to import its pages, "
            f"as in `recordlens import {tmp_path / 'only' / 'pages'}`") in err


def test_a_copy_to_a_folder_that_cannot_be_made_names_the_destination_given(tmp_path: Path, capsys) -> None:
    project = labelled_project(tmp_path)
    capsys.readouterr()
    assert main(["project", "copy", str(project), "/proc/nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("recordlens: error: cannot copy the project to /proc/nope: /proc cannot be written")
    assert ".partial-" not in err


def test_a_page_name_with_a_line_break_is_refused_with_the_reason(tmp_path: Path, capsys) -> None:
    init_project(tmp_path / "P").close()
    odd = tmp_path / "new\nline.html"
    odd.write_text(PAGE, encoding="utf-8")
    assert main(["import", str(tmp_path), "--project", str(tmp_path / "P"), "-q"]) == 1
    err = capsys.readouterr().err
    assert (f"not imported: {str(odd)!r}: the page name 'new\\nline' holds a line break, which would break the lists "
            "and messages that name the page: rename the file (and its labels file) to import it") in err
    with open_project(tmp_path / "P") as project:
        assert project.pages() == []
