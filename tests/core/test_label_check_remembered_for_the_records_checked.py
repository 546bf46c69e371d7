"""An import remembers each page's label check under the digest of the very records it checked, not of the records
the page holds once its transaction has committed: an edit another process commits in between (a click in the app
adding a record) must not get the import's check, which never saw it.

Real SQLite files; the other writer a real second process, started from a hook between the import's commit and its
remembering the check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.records.hygiene import PageCheck
from recordlens.core.store import importer
from recordlens.core.store.importer import import_paths
from recordlens.core.store.label_checks import LabelChecks
from recordlens.core.store.project import Provenance, init_project, open_project
from tests.core.shop_runs import dataset

# The other process: a person's click adding a second copy of page 0's first record, accepted
ADD_A_COPY_OF_RECORD_1 = """
import sys
from recordlens.core.store.project import Provenance, open_project
with open_project(sys.argv[1]) as project:
    first = project.labels("0")[0]
    project.add_record("0", first.xpaths, Provenance.person("ana"), status="accepted")
"""


def a_copy_added_once_page_0_is_committed(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """The other process runs when the import counts page 0's labels: its transaction committed, its check not
    remembered yet."""
    real = importer._count_labels

    def hooked(report, name, unresolved, check) -> None:  # noqa: ANN001 - _count_labels's own
        if name == "0":
            subprocess.run([sys.executable, "-c", ADD_A_COPY_OF_RECORD_1, str(folder)], check=True, timeout=120)
        real(report, name, unresolved, check)

    monkeypatch.setattr(importer, "_count_labels", hooked)


def test_an_edit_committed_before_the_import_remembers_its_check_is_checked_anew(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`labels check --project` read the import's check (no record twice) for page 0's records as they are after
    the edit: a record listed twice."""
    folder, data = tmp_path / "p", dataset(tmp_path / "data", 1)
    with init_project(folder):
        pass
    a_copy_added_once_page_0_is_committed(monkeypatch, folder)
    with open_project(folder) as project:
        import_paths(project, [data])
    with open_project(folder) as project:
        assert len(project.true_records("0")) == 4  # the 3 imported and the copy
        assert project.label_checks.check("0").twice == [(1, 4)]


def test_labels_replaced_then_edited_before_their_check_is_kept_are_checked_anew(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`import --replace-labels` remembers its check after its own transaction, the same way."""
    folder, data = tmp_path / "p", dataset(tmp_path / "data", 1)
    with init_project(folder) as project:
        import_paths(project, [data])
        project.reject(project.labels("0")[-1].id, Provenance.person("ana"))  # the dataset's differ now
    a_copy_added_once_page_0_is_committed(monkeypatch, folder)
    with open_project(folder) as project:
        assert import_paths(project, [data], replace_labels=True).replaced == ["0"]
    with open_project(folder) as project:
        assert len(project.true_records("0")) == 4
        assert project.label_checks.check("0").twice == [(1, 4)]


def test_the_check_an_import_made_is_used_while_the_records_are_those_it_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no edit in between, the import's check is the one remembered: no page is parsed to check it again."""
    with init_project(tmp_path / "p") as project:
        import_paths(project, [dataset(tmp_path / "data", 2)])

    def parsed_again(*_: object) -> tuple[PageCheck, str]:
        raise AssertionError("the page was checked again: the import's check was not remembered for its records")

    monkeypatch.setattr(LabelChecks, "_made", parsed_again)
    with open_project(tmp_path / "p") as project:
        assert [project.label_checks.check(name).records for name in ("0", "1")] == [3, 2]
