"""A page marked labelled with no record (its ground truth `[]`: the annotator decided it holds none) is a labelled
page to every command: `labels check --project` and an import's "project's N pages with labels" count it, as score,
its ceiling and export do."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from recordlens.core.resource_files import resource_path
from recordlens.core.store import open_project
from recordlens.core.store.scoring import labelled_page_names
from tests.core.cli_runs import run

DEMO = resource_path("demo", "dataset")


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    """The demo dataset (pages 1-4) with page 2 labelled as holding no record, and without page 4 (imported later)."""
    shutil.copytree(DEMO, tmp_path / "data")
    (tmp_path / "data" / "gt" / "2.json").write_text("[]\n", encoding="utf-8")
    for kind, suffix in (("html", ".html"), ("gt", ".json")):
        (tmp_path / "data" / kind / f"4{suffix}").rename(tmp_path / f"4{suffix}")
    return tmp_path / "data"


def checked_pages(capsys: pytest.CaptureFixture[str], *where: str) -> list[str]:
    code, out, _ = run(capsys, "labels", "check", *where, "--json")
    assert code == 0
    return [page["page"] for page in json.loads(out)["pages"]]


def test_labels_check_of_a_project_counts_a_page_labelled_with_no_record(dataset: Path, tmp_path: Path,
                                                                       capsys) -> None:
    project = str(tmp_path / "p")
    assert run(capsys, "project", "init", project)[0] == 0
    code, out, err = run(capsys, "import", str(dataset), "--project", project, "-q")
    assert code == 0 and "imported with labels: 3 pages" in out + err
    assert checked_pages(capsys, "--project", project) == ["1", "2", "3"]
    code, printed, _ = run(capsys, "labels", "check", "--project", project)
    assert code == 0 and printed.startswith("3 pages:") and "not marked labelled" not in printed

    assert run(capsys, "export", "--project", project, "--format", "nexteval", "--out", str(tmp_path / "out"))[0] == 0
    exported = ["--pages", str(tmp_path / "out" / "html"), "--gt", str(tmp_path / "out" / "gt")]
    assert checked_pages(capsys, *exported) == checked_pages(capsys, "--project", project)

    assert run(capsys, "runs", "--project", project, "--add", str(dataset / "gt"), "--method", "hand")[0] == 0
    code, out, _ = run(capsys, "score", "--project", project, "--run", "1", "--ceiling", "--json", "-q")
    assert code == 0 and list(json.loads(out)["ceiling"]["pages"]) == ["1", "2", "3"]

    # a later import weighs its page's policy against every labelled page of the project, page 2 among them
    (tmp_path / "more" / "html").mkdir(parents=True)
    (tmp_path / "more" / "gt").mkdir()
    (tmp_path / "4.html").rename(tmp_path / "more" / "html" / "4.html")
    (tmp_path / "4.json").rename(tmp_path / "more" / "gt" / "4.json")
    code, out, err = run(capsys, "import", str(tmp_path / "more"), "--project", project, "-q")
    # page 2, labelled as holding none, has no policy: it is counted, and said not to vote
    assert code == 0 and "policy against the project's 4 pages with labels, 3 with a policy" in out + err


def test_a_page_holding_records_still_in_progress_is_checked_too(dataset: Path, tmp_path: Path, capsys) -> None:
    from recordlens.core.store.db import Provenance

    project = str(tmp_path / "p")
    assert run(capsys, "project", "init", project)[0] == 0
    assert run(capsys, "import", str(dataset), "--project", project, "-q")[0] == 0
    with open_project(project) as opened:
        opened.set_status("1", "proposed", Provenance.person("ana"))
        opened.set_status("2", "new", Provenance.person("ana"))  # back to undecided: no label of it left
        assert labelled_page_names(opened, scored_only=False) == ["1", "3"]
        assert labelled_page_names(opened) == ["3"]


def test_a_page_labelled_with_no_record_has_no_chrome_policy() -> None:
    from recordlens.core.records.hygiene import PageCheck, summarise

    chrome, none = PageCheck("1", 3, chrome_records=1), PageCheck("2", 0)
    report = summarise([chrome, none])  # one page labels chrome, the other labels nothing: no policy to differ from
    assert report.majority_includes_chrome and report.policy_outliers == []
    assert summarise([none], [chrome]).policy_outliers == []  # nor when weighed against a project's pages
    # pages labelled with no record do not outvote a page that labels chrome: they do not vote at all
    assert summarise([chrome], [none, none]).policy_outliers == []
    # another annotator's pages weighed against a project whose only labelled pages hold none: theirs vote instead
    report = summarise([chrome], [none], checks_vote=False)
    assert report.majority_includes_chrome and report.policy_outliers == []
    plain = PageCheck("3", 2)
    report = summarise([chrome, plain], [none], checks_vote=False)
    assert report.majority_includes_chrome is None and report.policy_outliers == []  # a tie: no majority
    # and a project page that holds records still decides alone
    assert summarise([chrome], [none, plain], checks_vote=False).policy_outliers == ["1"]
