"""The comparison of two label sets remembered per page (`store.comparison_cache`): a second comparison with nothing
changed parses no page, a change to one page's labels (the store's edits the app makes, an import of the project's
labels or of an annotator's again) compares that page alone again, and every answer is the one a comparison made
from nothing gives; a project without the table, a killed write and a saved copy changed by hand included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.records.model import TextKeyIndex
from recordlens.core.records.review import review_page
from recordlens.core.store.agreement import classed_only_theirs, every_pair_agreement, project_agreement
from recordlens.core.store.comparison_cache import TABLE, ComparisonCache
from recordlens.core.store.project import Project, Provenance, init_project, open_project
from tests.core.old_projects import as_earlier_schema

ANN = Provenance.person("ann")
SIZES = {"1": 3, "2": 4, "3": 5, "4": 6}


def page_html(name: str, items: int) -> str:
    lis = "".join(f"<li><b>{name} item {k}</b><i>{k * 7}</i></li>" for k in range(1, items + 1))
    return f"<html><body><p>page {name}</p><ul>{lis}</ul></body></html>"


def records(items: int) -> list[list[str]]:
    return [[f"/body[1]/ul[1]/li[{k}]/b[1]", f"/body[1]/ul[1]/li[{k}]/i[1]"] for k in range(1, items + 1)]


def beas(name: str) -> list[list[str]]:
    """The annotator's: page 2 without its first record, page 3's first record with the page's heading instead of
    part of it."""
    ours = records(SIZES[name])
    return {"2": ours[1:], "3": [["/body[1]/p[1]", ours[0][0]], *ours[1:]]}.get(name, ours)


def a_folder(root: Path, labels: dict[str, list[list[str]]]) -> Path:
    (root / "html").mkdir(parents=True, exist_ok=True)
    (root / "gt").mkdir(parents=True, exist_ok=True)
    for name, held in labels.items():
        (root / "html" / f"{name}.html").write_text(page_html(name, SIZES[name]), encoding="utf-8")
        (root / "gt" / f"{name}.json").write_text(json.dumps(held), encoding="utf-8")
    return root


@pytest.fixture
def team(tmp_path: Path) -> Path:
    """A project of four pages, its labels and bea's label set imported as the command line imports them."""
    folder = tmp_path / "p"
    with init_project(folder):
        pass
    ours = a_folder(tmp_path / "ours", {name: records(n) for name, n in SIZES.items()})
    assert main(["import", str(ours), "--project", str(folder), "-q"]) == 0
    bea = a_folder(tmp_path / "bea", {name: beas(name) for name in SIZES})
    assert main(["import", str(bea), "--project", str(folder), "--annotator", "bea", "-q"]) == 0
    return folder


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages parsed (`Project.load`) from now on, in order."""
    seen: list[str] = []
    real = Project.load

    def counting(self: Project, name: str, *, data: bytes | None = None):  # noqa: ANN202 - a LoadedPage
        seen.append(name)
        return real(self, name, data=data)

    monkeypatch.setattr(Project, "load", counting)
    return seen


def from_nothing(folder: Path, a: str = "bea", b: str = "project"):  # noqa: ANN201 - an Agreement
    """The comparison made with nothing remembered, and nothing kept of it."""
    with pytest.MonkeyPatch.context() as patch, open_project(folder) as project:
        patch.setattr(ComparisonCache, "_rows", lambda self, page_id: {})
        patch.setattr(ComparisonCache, "flush", lambda self: None)
        return project_agreement(project, a, b)


def compared(folder: Path, a: str = "bea", b: str = "project"):  # noqa: ANN201 - an Agreement
    with open_project(folder) as project:
        return project_agreement(project, a, b)


def tables(folder: Path) -> set[str]:
    with open_project(folder) as project:
        return {name for (name,) in project.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_a_second_comparison_parses_no_page_and_gives_the_same(team: Path, parsed: list[str]) -> None:
    first = compared(team)
    assert sorted(parsed) == sorted(SIZES) and first == from_nothing(team)
    assert [p.page for p in first.pages if p.disagreements] == ["2", "3"]
    parsed.clear()
    assert compared(team) == first and parsed == []  # a start of the app, or `agreement` again
    other_way = compared(team, "project", "bea")  # the other way round: a comparison of its own
    assert sorted(parsed) == sorted(SIZES) and other_way == from_nothing(team, "project", "bea")
    parsed.clear()
    assert compared(team, "project", "bea") == other_way and parsed == []


def test_a_label_changed_through_the_store_compares_that_page_alone_again(team: Path, parsed: list[str]) -> None:
    before = compared(team)
    with open_project(team) as project:  # as the app edits: one change per edit, by the person labelling
        project.delete(project.labels("4")[0].id, ANN)
    parsed.clear()
    after = compared(team)
    assert parsed == ["4"] and after == from_nothing(team)
    assert after.pages[3] != before.pages[3] and after.pages[3].disagreements
    assert after.pages[:3] == before.pages[:3]
    with open_project(team) as project:  # an undo of it: the page's labels as they were, and their comparison
        project.restore("4", project.history("4")[-2].id, ANN)
    parsed.clear()
    again = compared(team)
    assert parsed == ["4"] and again == before == from_nothing(team)
    with open_project(team) as project:  # taken out of the project's labelled pages: no longer compared
        project.set_status("1", "proposed", ANN)
    parsed.clear()
    assert [p.page for p in compared(team).pages] == ["2", "3", "4"] and parsed == []
    assert compared(team).only_a_pages == ("1",)


def test_labels_imported_again_compare_the_pages_they_changed_again(team: Path, tmp_path: Path,
                                                                     parsed: list[str], capsys) -> None:
    before = compared(team)
    # bea's set imported again, page 1 labelled otherwise: that page alone compared again
    bea = a_folder(tmp_path / "bea", {name: beas(name) for name in SIZES} | {"1": records(SIZES["1"])[:1]})
    assert main(["import", str(bea), "--project", str(team), "--annotator", "bea", "-q"]) == 0
    parsed.clear()
    after = compared(team)
    assert parsed == ["1"] and after == from_nothing(team) and after.pages[0].disagreements
    assert after.pages[1:] == before.pages[1:]
    # the project's own labels replaced by an import of page 2 as bea labelled it: they agree there now
    ours = a_folder(tmp_path / "ours", {"2": beas("2")})
    assert main(["import", str(ours), "--project", str(team), "--replace-labels", "-q"]) == 0
    parsed.clear()
    now = compared(team)
    assert parsed == ["2"] and now == from_nothing(team) and not now.pages[1].disagreements
    # another annotator's set: compared from their pages on, then remembered as well, `agreement --all` included
    cyd = a_folder(tmp_path / "cyd", {"3": records(SIZES["3"])[2:], "4": records(SIZES["4"])})
    assert main(["import", str(cyd), "--project", str(team), "--annotator", "cyd", "-q"]) == 0
    capsys.readouterr()
    parsed.clear()
    assert main(["agreement", "--project", str(team), "--all", "--json"]) == 0
    cold = capsys.readouterr().out
    # each page parsed once for all its pairs: bea's compared with the project in this order for the first time
    assert sorted(parsed) == sorted(SIZES)
    parsed.clear()
    assert main(["agreement", "--project", str(team), "--all", "--json"]) == 0
    assert capsys.readouterr().out == cold and parsed == []
    with open_project(team) as project:
        pairs = every_pair_agreement(project, ["project", "bea", "cyd"])
    assert pairs == [from_nothing(team, a, b) for a, b in (("project", "bea"), ("project", "cyd"), ("bea", "cyd"))]


def test_the_command_prints_the_same_and_parses_nothing_the_second_time(team: Path, parsed: list[str],
                                                                        capsys) -> None:
    for args in (["--between", "project", "bea", "-q"], ["--between", "bea", "project", "--json"]):
        assert main(["agreement", "--project", str(team), *args]) == 0
        cold = capsys.readouterr().out
        parsed.clear()
        assert main(["agreement", "--project", str(team), *args]) == 0
        assert capsys.readouterr().out == cold and parsed == []


def test_a_project_without_the_table_gets_it_with_its_first_comparison(team: Path, parsed: list[str]) -> None:
    assert TABLE not in tables(team)  # nothing written at an open, nor by imports
    first = compared(team)
    assert TABLE in tables(team)
    # a project of an earlier schema: brought up to date as it opens, its comparisons remembered as they are made
    as_earlier_schema(team, 11)
    with open_project(team) as project, project.writing() as db:
        db.execute(f"DROP TABLE {TABLE}")
    parsed.clear()
    assert compared(team) == first and sorted(parsed) == sorted(SIZES) and TABLE in tables(team)
    parsed.clear()
    assert compared(team) == first and parsed == []


def test_a_database_that_cannot_be_written_only_remembers_nothing(team: Path, parsed: list[str]) -> None:
    first = from_nothing(team)
    with open_project(team) as project:
        project.db.execute("PRAGMA query_only = ON")  # every write refused, as on a read-only medium
        assert project_agreement(project, "bea", "project") == first
    assert TABLE not in tables(team)


# A child that compares, and is killed once the first rows are inserted, before their transaction commits
KILLED = """
import os, signal, sys
from recordlens.core.store import comparison_cache
from recordlens.core.store.agreement import project_agreement
from recordlens.core.store.project import open_project

real = comparison_cache._write

def write_then_die(conn, rows):
    real(conn, rows)
    os.kill(os.getpid(), signal.SIGKILL)

comparison_cache._write = write_then_die
with open_project(sys.argv[1]) as project:
    project_agreement(project, "bea", "project")
"""


def test_a_process_killed_mid_write_leaves_no_comparison_and_a_damaged_row_is_made_again(
        team: Path, parsed: list[str]) -> None:
    child = subprocess.run([sys.executable, "-c", KILLED, str(team)], capture_output=True, timeout=300,
                           env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert child.returncode == -9, child.stderr
    assert TABLE not in tables(team)  # its table was made in the transaction killed: nothing of it is there
    first = compared(team)
    assert first == from_nothing(team)
    with open_project(team) as project, project.writing() as db:  # a row changed by hand, cut short
        db.execute(f"UPDATE {TABLE} SET result = substr(result, 1, 20) WHERE page = ?", (project.page_id("3"),))
    parsed.clear()
    assert compared(team) == first and parsed == ["3"]
    parsed.clear()
    assert compared(team) == first and parsed == []


def test_a_saved_copy_changed_by_hand_is_compared_as_it_now_is(team: Path, parsed: list[str]) -> None:
    first = compared(team)
    with open_project(team) as project:
        copy = project.snapshot_file("4")
    os.chmod(copy, 0o644)
    data = copy.read_bytes()
    copy.write_bytes(data)  # the same bytes written again: read and hashed again, not compared again
    parsed.clear()
    assert compared(team) == first and parsed == []
    copy.write_bytes(data.replace(b"<li><b>4 item 6</b><i>42</i></li>", b""))  # a record's elements gone
    parsed.clear()
    now = compared(team)
    assert parsed == ["4"] and now == from_nothing(team) and now.pages[3].dead
    copy.write_bytes(data)
    parsed.clear()
    assert compared(team) == first and parsed == ["4"]


def test_the_pages_only_an_annotator_labelled_are_classed_once(team: Path, parsed: list[str]) -> None:
    with open_project(team) as project:
        project.set_status("2", "proposed", ANN)
        parsed.clear()
        found = classed_only_theirs(project, "bea", ["2"])
        keys = TextKeyIndex(project.load("2").page.text_map)
        assert [page.review for page in found] == [
            review_page(project.annotators.records("bea", "2"), project.true_records("2"), keys, "2")]
        parsed.clear()
        assert classed_only_theirs(project, "bea", ["2"]) == found and parsed == []
        label = project.labels("2")[0]
        project.edit(label.id, [*label.xpaths, "/body[1]/p[1]"], ANN)
        assert classed_only_theirs(project, "bea", ["2"]) != found and parsed == ["2"]

