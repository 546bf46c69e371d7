"""`labels check` takes `--pages DIR --gt DIR` in pairs, as many as `train` and `bench --cv` take, and checks the
pages of every pair as one set (the label policy's majority is that of all of them, as a model trained on them all
meets it); pages of several datasets are named DATASET/N, since each dataset has its page 1. A pair with a half
missing is refused in train's words, never read as the last pair alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.records.model import save_records

HTML = ("<html><body><nav><ul><li><a href='/a'>A</a></li><li><a href='/b'>B</a></li></ul></nav><main>"
        "<div class='w'><div class='card'><h3>One</h3><p>1.00</p></div></div>"
        "<div class='w'><div class='card'><h3>Two</h3><p>2.00</p></div></div></main></body></html>")
MAIN = [[f"/body[1]/main[1]/div[{i}]"] for i in (1, 2)]
NOWHERE = [*MAIN, ["/body[1]/main[1]/div[7]"]]  # an XPath that names no element: a finding


def dataset(folder: Path, labels: dict[str, list[list[str]]]) -> tuple[str, str]:
    """A dataset at `folder` (html/, gt/) of the page above, labelled as given; its `--pages` and `--gt`."""
    (folder / "html").mkdir(parents=True)
    for name, records in labels.items():
        (folder / "html" / f"{name}.html").write_text(HTML, encoding="utf-8")
        save_records(folder / "gt" / f"{name}.json", records)
    return str(folder / "html"), str(folder / "gt")


def test_every_pair_is_checked_and_its_pages_named_by_their_dataset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first_pages, first_gt = dataset(tmp_path / "first", {"1": MAIN, "2": MAIN})
    second_pages, second_gt = dataset(tmp_path / "second", {"1": NOWHERE})

    code = main(["labels", "check", "--pages", first_pages, "--gt", first_gt, "--pages", second_pages,
                 "--gt", second_gt])

    out = capsys.readouterr().out
    assert code == 0, out
    assert "page second/1: 1 XPath(s) name no element" in out, out
    assert out.splitlines()[-1].startswith("3 pages: 1 with label problems"), out


def test_every_pair_is_in_the_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first_pages, first_gt = dataset(tmp_path / "first", {"1": MAIN})
    second_pages, second_gt = dataset(tmp_path / "second", {"1": MAIN, "2": NOWHERE})

    assert main(["labels", "check", "--pages", first_pages, "--gt", first_gt, "--pages", second_pages,
                 "--gt", second_gt, "--json"]) == 0

    report = json.loads(capsys.readouterr().out)
    assert [page["page"] for page in report["pages"]] == ["first/1", "second/1", "second/2"]


def test_one_pair_keeps_its_pages_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pages, gt = dataset(tmp_path / "only", {"1": NOWHERE})
    assert main(["labels", "check", "--pages", pages, "--gt", gt]) == 0
    assert "page 1: 1 XPath(s) name no element" in capsys.readouterr().out


def test_a_pair_with_its_labels_missing_is_refused_not_dropped(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first_pages, first_gt = dataset(tmp_path / "first", {"1": MAIN})
    second_pages, _ = dataset(tmp_path / "second", {"1": MAIN})

    code = main(["labels", "check", "--pages", first_pages, "--gt", first_gt, "--pages", second_pages])

    err = capsys.readouterr().err
    assert code == 2, err
    assert "2 --pages and 1 --gt: a --gt is missing; each --pages DIR goes with its --gt DIR" in err, err


def test_two_datasets_of_one_name_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first_pages, first_gt = dataset(tmp_path / "a" / "data", {"1": MAIN})
    second_pages, second_gt = dataset(tmp_path / "b" / "data", {"1": MAIN})

    code = main(["labels", "check", "--pages", first_pages, "--gt", first_gt, "--pages", second_pages,
                 "--gt", second_gt])

    err = capsys.readouterr().err
    assert code == 2, err
    assert "are both the dataset data" in err, err


def test_a_page_of_one_dataset_that_cannot_be_checked_is_said_with_its_dataset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first_pages, first_gt = dataset(tmp_path / "first", {"1": MAIN})
    second_pages, second_gt = dataset(tmp_path / "second", {"1": MAIN})
    save_records(Path(second_gt) / "9.json", MAIN)  # labels without their page

    code = main(["labels", "check", "--pages", first_pages, "--gt", first_gt, "--pages", second_pages,
                 "--gt", second_gt])

    out = capsys.readouterr().out
    assert code == 1, out
    assert out.splitlines()[0].startswith("second: page 9: cannot be checked: "), out
    assert "2 pages: 0 with label problems" in out, out
