"""A label set's pages set aside by `import --annotator` (labels replaced) or `annotators --remove` are written under
a hidden name, given their folder's own name in the transaction that takes the labels out: a command killed part way
(SIGKILL) leaves no folder that `annotators` lists, or that `import FOLDER --annotator` would put back as a whole
set-aside (a verifier found one of 7 of 40 pages, with no set-aside.json, kept and offered for ever); the next
command that sets labels aside, or lists them, removes the hidden one it left, and says so. The same hidden folder
and its naming are those of a deleted run's copy (`removed_files.hidden_folder`, `name_folder`)."""

from __future__ import annotations

import json
import logging
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.store import label_sets
from recordlens.core.store.db import StoreError
from recordlens.core.store.files import store_snapshot
from recordlens.core.store.label_sets import kept_set_asides
from recordlens.core.store.project import init_project, open_project
from recordlens.core.store.removed_files import hidden_folder, name_folder, remove_partials_left, safe_name
from tests.conftest import ROOT

PAGES = [str(k) for k in range(1, 7)]


def labels(page: str, records: int = 3) -> list[list[str]]:
    return [[f"/html[1]/body[1]/div[{page}{k}]"] for k in range(records)]


def project_with_beas_set(folder: Path) -> dict[str, list[list[str]]]:
    """A project of PAGES, bea having labelled each of them (3 records a page): her set."""
    with init_project(folder) as project:
        data = b"<html><body><div>a</div></body></html>"
        digest = store_snapshot(project.root, data, ".html")
        with project.writing():
            for name in PAGES:
                project.add_page(name, digest, ".html", len(data))
        project.annotators.store("bea", {page: (labels(page), f"gt/{page}.json") for page in PAGES})
        return project.annotators.all_records("bea")


def beas_labels(folder: Path) -> dict[str, list[list[str]]]:
    with open_project(folder) as project:
        return project.annotators.all_records("bea")


def labels_folder(folder: Path) -> Path:
    """bea's labels of PAGES again, each less its last record: an import replaces every page of her set."""
    (folder / "gt").mkdir(parents=True)
    for page in PAGES:
        (folder / "gt" / f"{page}.json").write_text(json.dumps(labels(page, 2)), encoding="utf-8")
    return folder


def set_aside_entries(folder: Path) -> list[Path]:
    """Everything in the project's `removed/annotators/`, hidden entries too."""
    parent = folder / "removed" / "annotators"
    return sorted(parent.iterdir()) if parent.is_dir() else []


# A command (argv), killed (SIGKILL) as it is about to write the 3rd page file of the labels it sets aside.
_KILLED_PART_WAY = textwrap.dedent("""
    import json, os, signal, sys
    from recordlens.core.cli.command import main
    from recordlens.core.store import label_sets
    real, calls = label_sets.write_text, []
    def killing(path, text, **options):
        if path.parent.name == "gt":
            calls.append(1)
            if len(calls) == 3:
                os.kill(os.getpid(), signal.SIGKILL)
        return real(path, text, **options)
    label_sets.write_text = killing
    sys.exit(main(json.loads(sys.argv[1])))
""")


def killed_part_way(command: list[str]) -> None:
    child = subprocess.run([sys.executable, "-c", _KILLED_PART_WAY, json.dumps(command)], cwd=ROOT,
                           capture_output=True, text=True, timeout=300)
    assert child.returncode == -signal.SIGKILL, child.stderr


def commands(folder: Path, tmp_path: Path) -> dict[str, list[str]]:
    return {"remove": ["annotators", "--project", str(folder), "--remove", "bea"],
            "import": ["import", str(labels_folder(tmp_path / "again")), "--project", str(folder), "--annotator",
                       "bea", "-q"]}


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
@pytest.mark.parametrize("command", ["remove", "import"])
def test_a_set_aside_killed_part_way_leaves_only_a_hidden_folder_which_the_next_command_removes(
        tmp_path: Path, command: str, caplog: pytest.LogCaptureFixture, capsys) -> None:
    folder = tmp_path / "p"
    before = project_with_beas_set(folder)
    argv = commands(folder, tmp_path)[command]
    killed_part_way(argv)
    assert beas_labels(folder) == before  # nothing was committed
    (left,) = set_aside_entries(folder)
    assert left.name.startswith(".bea.") and ".partial-" in left.name  # hidden: never listed, nor put back
    assert len(list((left / "gt").glob("*.json"))) == 2 and not (left / "set-aside.json").exists()

    with caplog.at_level(logging.WARNING):
        assert main(argv) == 0  # the same command again removes it
    assert f"removed {left}, left by process " in caplog.text
    (kept,) = set_aside_entries(folder)
    assert kept.name.startswith("bea.") and kept.is_dir()
    assert sorted(p.stem for p in (kept / "gt").iterdir()) == sorted(PAGES)
    note = json.loads((kept / "set-aside.json").read_text(encoding="utf-8"))
    assert note["annotator"] == "bea" and sorted(note["pages"]) == sorted(PAGES)
    assert f"kept in {kept}" in capsys.readouterr().out
    assert beas_labels(folder) == ({} if command == "remove" else {page: labels(page, 2) for page in PAGES})


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
def test_listing_the_sets_after_a_killed_removal_lists_no_set_aside_and_removes_the_hidden_one(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "p"
    project_with_beas_set(folder)
    killed_part_way(commands(folder, tmp_path)["remove"])
    (left,) = set_aside_entries(folder)
    with caplog.at_level(logging.WARNING):
        assert kept_set_asides(folder) == []  # what `annotators` lists as kept
    assert set_aside_entries(folder) == [] and f"removed {left}" in caplog.text


def test_a_set_aside_that_cannot_be_named_leaves_the_labels_and_no_folder(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "p"
    before = project_with_beas_set(folder)

    def full(hidden: Path, stem: str) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(label_sets, "name_folder", full)
    with open_project(folder) as project:
        with pytest.raises(StoreError, match="bea's labels are kept as they are: their copy in .* could not be given "
                                             "its name \\(No space left on device\\)"):
            project.annotators.remove("bea")
        with pytest.raises(StoreError, match="could not be given its name"):
            project.annotators.store("bea", {"1": (labels("1", 1), "gt/1.json")})
    assert beas_labels(folder) == before
    assert not (folder / "removed").exists()


def a_dead_process() -> int:
    """The id of a process of this machine that no longer runs."""
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                           check=True, timeout=60)
    return int(child.stdout)


def test_only_what_a_dead_process_of_this_machine_left_is_removed(tmp_path: Path) -> None:
    here = safe_name(socket.gethostname(), "host")
    dead = tmp_path / f".1-repeats.partial-{a_dead_process()}-{here}-0a1b2c3d"
    running = hidden_folder(tmp_path, "2-repeats")  # this process's, being written
    elsewhere = tmp_path / f".bea.T.partial-{a_dead_process()}-{here}x-0a1b2c3d"  # another machine's
    for left in (dead, elsewhere):
        (left / "gt").mkdir(parents=True)
    assert remove_partials_left(tmp_path) == [dead]
    assert sorted(tmp_path.iterdir()) == sorted([running, elsewhere])


def test_a_folder_is_named_never_over_another(tmp_path: Path) -> None:
    (tmp_path / "bea.T" / "gt").mkdir(parents=True)  # another command's, of the same millisecond
    hidden = hidden_folder(tmp_path, "bea.T")
    (hidden / "set-aside.json").write_text("{}", encoding="utf-8")
    named = name_folder(hidden, "bea.T")
    assert named == tmp_path / "bea.T-1" and (named / "set-aside.json").is_file()
    assert [p.name for p in (tmp_path / "bea.T").iterdir()] == ["gt"] and not hidden.exists()


def test_a_folder_whose_name_cannot_be_written_through_is_hidden_again(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from recordlens.core.store import removed_files

    hidden = hidden_folder(tmp_path, "bea.T")

    def failing(folder: Path) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(removed_files, "sync_folder", failing)
    with pytest.raises(OSError, match="Input/output error"):
        name_folder(hidden, "bea.T")
    assert list(tmp_path.iterdir()) == [hidden]  # never left under a name that looks kept
