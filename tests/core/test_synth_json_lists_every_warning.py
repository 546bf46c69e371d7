"""`synth --json`'s `problems` lists every warning synth says on stderr (labels dropped, a variant to which no
selected transformation applies), not only the pages left out; those warnings leave the exit status 0."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.records.model import load_records
from tests.core.cli_runs import DEMO, run

PARAGRAPHS = ("<!DOCTYPE html><html><head><title>t</title></head><body><div>"
              + "".join(f"<p>Entry {i}</p>" for i in range(1, 6)) + "</div></body></html>")


def dataset(folder: Path) -> Path:
    """Demo page 2 with a label that names nothing (and a record of nothing else), and a page of paragraphs with no
    table or card list to turn."""
    for sub in ("html", "gt"):
        (folder / sub).mkdir(parents=True)
    (folder / "html" / "2.html").write_bytes((DEMO / "html" / "2.html").read_bytes())
    truth = load_records(DEMO / "gt" / "2.json").records
    (folder / "gt" / "2.json").write_text(json.dumps([*truth, ["/html[1]/body[1]/nowhere[1]"]]))
    (folder / "html" / "p.html").write_text(PARAGRAPHS)
    (folder / "gt" / "p.json").write_text(json.dumps([[f"/html[1]/body[1]/div[1]/p[{i}]"] for i in range(1, 6)]))
    return folder


def warnings_said(err: str) -> list[str]:
    return [line.removeprefix("warning: ") for line in err.splitlines() if line.startswith("warning: ")]


def test_synth_json_problems_are_the_warnings_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = dataset(tmp_path / "data")
    code, out, err = run(capsys, "synth", "--pages", str(data / "html"), "--gt", str(data / "gt"), "--out",
                         str(tmp_path / "out"), "-k", "1", "-t", "table_cards", "--rate", "0", "--at-least-one",
                         "--json", "-q")
    problems = json.loads(out)["problems"]
    assert problems == warnings_said(err)
    records = len(load_records(DEMO / "gt" / "2.json").records) + 1
    assert any(p.startswith("page 2: 1 XPath(s) resolve to nothing and were dropped") and
               p.endswith(f"; so was 1 of its {records} records, which named nothing else") for p in problems)
    assert any(p.startswith("page p_v1: no selected transformation applies to this page") for p in problems)
    assert code == 0  # every variant written, its labels resolving: warnings of a whole dataset
