"""One rule for a page with ground truth that cannot be read, whatever it is (an empty file, a PNG named .mhtml, a
folder, a symbolic link loop, a FIFO or a dangling link named like it, or no page file at all): `score` and `bench`
leave it out, name it, give the figures of the other pages said as over N of M pages (and in `--json`), and exit 1;
`extract` does the other pages, exits 1 and says so of it. Before, `score` refused everything (exit 2) and `bench`
refused everything or left the page out with exit 0 and an empty `left_out_pages`, while `extract` promised that
`score` would count the page as an empty prediction."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.core.cli_runs import DEMO, run

pytestmark = [pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs and symlinks as on POSIX"),
              pytest.mark.timeout(180)]  # a blocking read of the FIFO would wait for ever

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ff"
                    "ff3f0005fe02fea7d5d6a40000000049454e44ae426082")


def _empty(html: Path) -> None:
    (html / "99.html").write_bytes(b"")


def _png(html: Path) -> None:
    (html / "99.mhtml").write_bytes(PNG)


def _folder(html: Path) -> None:
    (html / "99.mhtml").mkdir()


def _loop(html: Path) -> None:
    (html / "99.html").symlink_to("99.html")


def _fifo(html: Path) -> None:
    os.mkfifo(html / "99.html")


def _dangling(html: Path) -> None:
    (html / "99.html").symlink_to(html / "nowhere" / "x.html")


def _missing(html: Path) -> None:
    """No entry at all: labels for a page the folder does not hold."""


BAD_PAGES = {"empty": _empty, "png": _png, "folder": _folder, "loop": _loop, "fifo": _fifo, "dangling": _dangling,
             "missing": _missing}


@pytest.fixture(params=list(BAD_PAGES))
def dataset(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """The demo's four pages and labels, and labels for a page 99 that cannot be read (of each kind)."""
    data = tmp_path / "data"
    shutil.copytree(DEMO, data)
    shutil.copy(data / "gt" / "1.json", data / "gt" / "99.json")
    BAD_PAGES[request.param](data / "html")
    data.joinpath("kind").write_text(request.param, encoding="utf-8")
    return data


def test_extract_does_the_others_and_says_score_and_bench_leave_it_out(dataset: Path, tmp_path: Path,
                                                                       capsys) -> None:
    code, _, err = run(capsys, "extract", "--method", "repeats", "--pages", str(dataset / "html"),
                       "--out", str(tmp_path / "run"), "-q")
    assert sorted(p.name for p in (tmp_path / "run").glob("*.json")) == ["1.json", "2.json", "3.json", "4.json"]
    if (dataset / "kind").read_text(encoding="utf-8") == "missing":  # nothing of page 99 in the folder: no word
        assert code == 0 and "99" not in err
        return
    assert code == 1
    assert ("1 page cannot be read (99; why is said above): until it is a page file that can be read, it is left out "
            "of the figures of `recordlens score` and `bench`") in err
    assert "counts it as empty predictions" not in err and "counts it as an empty prediction" not in err


def test_score_gives_the_figures_of_the_others_said_as_such_and_exits_1(dataset: Path, capsys) -> None:
    score = ("score", "--pred", str(DEMO / "gt"), "--gt", str(dataset / "gt"), "--pages", str(dataset / "html"), "-q")
    code, out, err = run(capsys, *score)
    assert code == 1, err
    assert "pages 4 of 5 (1 left out, below)" in out and "\n  99: " in out
    assert "1 page of 5 with ground truth cannot be scored" in err and "over the other 4 (exit status 1)" in err
    code, out, _ = run(capsys, *score, "--json")
    document = json.loads(out)
    assert code == 1 and list(document["pages_not_read"]) == ["99"]
    assert [page["page"] for page in document["pages"]] == ["1", "2", "3", "4"] and document["mean"]["f1"] == 1.0


def test_bench_gives_the_rows_of_the_others_said_as_such_and_exits_1(dataset: Path, capsys) -> None:
    bench = ("bench", "--pages", str(dataset / "html"), "--gt", str(dataset / "gt"), "--methods", "repeats",
             "--no-chart", "-q")
    code, out, err = run(capsys, *bench)
    assert code == 1, err
    assert "Table 2: methods (on 4 of 5 pages: 1 that cannot be read is left out of every row: 99)" in out
    assert "\n  99: " in out and "1 page of 5 with ground truth cannot be scored" in err
    code, out, _ = run(capsys, *bench, "--json")
    document = json.loads(out)
    assert code == 1 and document["left_out_pages"] == {"99": ["repeats"]}
    assert list(document["pages_not_read"]) == ["99"]
    assert document["table2"][0]["pages"] == 4


def test_every_page_unreadable_is_refused_by_score_and_bench_alike(tmp_path: Path, capsys) -> None:
    """Figures over no page would read as figures: refused, naming each page (exit 2)."""
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "1.html").write_bytes(b"")
    (tmp_path / "html" / "2.mhtml").write_bytes(PNG)
    shutil.copytree(DEMO / "gt", tmp_path / "gt", ignore=lambda folder, names: ["3.json", "4.json"])
    code, out, err = run(capsys, "score", "--pred", str(DEMO / "gt"), "--gt", str(tmp_path / "gt"), "--pages",
                         str(tmp_path / "html"), "-q")
    assert code == 2 and out == "" and "none of the 2 pages with ground truth" in err and "1: " in err
    code, out, err = run(capsys, "bench", "--pages", str(tmp_path / "html"), "--gt", str(tmp_path / "gt"),
                         "--methods", "repeats", "--no-chart", "-q")
    assert code == 2 and out == "" and "none of the 2 pages with ground truth" in err and "2: " in err


def test_a_page_met_with_a_passing_read_error_stops_the_scoring_rather_than_leave_it_out(
        tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """A read error that may pass (EIO of a flaky share, too many files open) is no page to leave out: figures over
    fewer pages would be given where the same command again gives them over all; the scoring stops, to be run
    again (the error said). A page that cannot be read for good is still left out."""
    import errno

    from recordlens.core.runs import evaluate

    read = evaluate.load_page

    def flaky(page_file, name=None, **kwargs):  # noqa: ANN001, ANN202
        if name == "2":
            raise OSError(errno.EIO, "Input/output error", str(page_file))
        return read(page_file, name, **kwargs)

    monkeypatch.setattr(evaluate, "load_page", flaky)
    code, out, err = run(capsys, "score", "--pred", str(DEMO / "gt"), "--gt", str(DEMO / "gt"), "--pages",
                         str(DEMO / "html"), "-q")
    assert code != 0 and out == "", out
    assert "Input/output error" in err and "2.html" in err and "left out" not in err


def test_the_refusal_of_every_page_names_them_in_order(tmp_path: Path, capsys) -> None:
    (tmp_path / "html").mkdir()
    for name in ("1", "2", "3", "4"):
        (tmp_path / "html" / f"{name}.html").write_bytes(b"")
    shutil.copytree(DEMO / "gt", tmp_path / "gt")
    code, _, err = run(capsys, "score", "--pred", str(DEMO / "gt"), "--gt", str(tmp_path / "gt"), "--pages",
                       str(tmp_path / "html"), "-q")
    assert code == 2
    named = err[err.index("can be scored: "):]
    assert named.index("1: ") < named.index("2: ") < named.index("3: ") < named.index("4: "), named
