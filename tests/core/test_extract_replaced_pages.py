"""`extract` into a run folder whose pages were replaced since (a new synth under the same names) notices at once,
from the identity each page's `_run/N.json` records, and refuses to take the old predictions for the new pages'
("0 extracted, 4 already there"); --restart extracts them again. A page saved again with the same texts is the
same page."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.cli.command import main

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo" / "dataset"


def synth(out: Path, *more: str) -> None:
    assert main(["synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(out), "-k", "1",
                 "--formats", "html", "-q", *more]) == 0


def extract(pages: Path, run: Path, *more: str) -> int:
    return main(["extract", "--method", "repeats", "--pages", str(pages), "--out", str(run), "-q", *more])


def test_extract_refuses_a_run_made_on_other_pages_under_the_same_names_and_restart_redoes_them(
        tmp_path: Path, capsys) -> None:
    synth(tmp_path / "data")
    assert extract(tmp_path / "data" / "html", tmp_path / "run") == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "run").glob("*.json")}
    synth(tmp_path / "data", "--no-content")  # the same names (the same seed), other pages
    capsys.readouterr()
    assert extract(tmp_path / "data" / "html", tmp_path / "run") == 2
    err = capsys.readouterr().err
    assert (f"{tmp_path / 'run'} holds predictions made on other pages under the names of 4 pages of "
            f"{tmp_path / 'data' / 'html'} (1_v1, 2_v1, 3_v1, 4_v1)") in err
    assert "use --restart to extract every page again into it, or choose another --out" in err
    assert "already there" not in err
    assert {p.name: p.read_bytes() for p in (tmp_path / "run").glob("*.json")} == before  # kept: maybe paid for
    assert extract(tmp_path / "data" / "html", tmp_path / "run", "--restart") == 0
    assert "4 extracted" in capsys.readouterr().out
    assert extract(tmp_path / "data" / "html", tmp_path / "run") == 0  # now the run's pages: resumed, nothing to do
    assert "0 extracted, 4 already there" in capsys.readouterr().out


def test_a_page_saved_again_with_the_same_texts_is_the_same_page(tmp_path: Path, capsys) -> None:
    synth(tmp_path / "data")
    assert extract(tmp_path / "data" / "html", tmp_path / "run") == 0
    page = tmp_path / "data" / "html" / "2_v1.html"
    page.write_text(page.read_text(encoding="utf-8") + "<!-- saved again -->\n", encoding="utf-8")
    capsys.readouterr()
    assert extract(tmp_path / "data" / "html", tmp_path / "run") == 0
    assert "0 extracted, 4 already there" in capsys.readouterr().out
    made_on = json.loads((tmp_path / "run" / "_run" / "2_v1.json").read_text(encoding="utf-8"))["page"]
    assert made_on["sha256"] and made_on["texts"]
