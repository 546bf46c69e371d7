"""The JSONL and CSV exports of one fixed project are byte for byte those kept in
`test_export_bytes_expected/` (written by the export when the fixture was made): every field of every kind of line,
in the same order, with the same texts, flags and adjudication, and the same warnings.

The project is built here, by the project's own API, on a clock that ticks a second at each reading (so that its
times, and the bytes, are the same on every run): pages labelled, in progress, new, labelled as holding none; records
accepted, edited, proposed, rejected, merged and split, some naming elements without text or none; two other
annotators' label sets with the Review's decisions on them; a saved copy changed by hand and one gone.

To write the expected files again (only when the export's format is meant to change):
`python -m tests.core.test_export_bytes`."""

from __future__ import annotations

import itertools
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from recordlens.core import moments
from recordlens.core.store import Provenance, init_project, open_project
from recordlens.core.store.exporter import export_project
from recordlens.core.store.importer import import_paths

EXPECTED = Path(__file__).with_name("test_export_bytes_expected")
ANN = Provenance.person("ann")
MDR = Provenance.extractor("mdr", "0.3", "html")
# Pages of a few lists and paragraphs; each page's own comment makes its bytes (its saved copy) its own.
PAGE = ("<html><head><title>t</title></head><body><ul><li>café</li><li>=SUM(A1)</li><li>-5</li><li> </li></ul>"
        "<p>line one\nline two, \"quoted\"</p><p>one · two</p><div><span>a</span>b<span>c</span></div>"
        "<table><tr><td>x</td><td>y</td></tr><tr><td>z</td><td>\u200b</td></tr></table></body></html>")
LI = "/body[1]/ul[1]/li[{}]"
TRUTH = {
    "1": [[LI.format(1)], [LI.format(2), LI.format(3)], ["/body[1]/p[1]"], ["/body[1]/p[2]", "/body[1]/div[1]"],
          ["/body[1]/table[1]/tbody[1]/tr[1]"]],
    "2": [[LI.format(1), LI.format(4)], ["/body[1]/ol[1]/li[1]"], ["/body[1]/div[1]/span[2]"]],
    "-5": [["/body[1]/p[1]"]],
    "=cmd": [[LI.format(3)], ["/html[1]/body[1]/table[1]/tbody[1]/tr[2]/td[1]"]],
    "empty": [],
    "changed": [[LI.format(1)], ["/body[1]/p[2]"]],
    "gone": [[LI.format(2)]],
}
OTHERS = ("fresh", "guess")


@contextmanager
def ticking_clock() -> Iterator[None]:
    """Every `moments.now` a second after the last, from a fixed moment: the store's times made the same each run."""
    ticks = itertools.count()

    class Ticking(datetime):
        @classmethod
        def now(cls, tz=None):  # noqa: ANN001, ANN206 - as datetime.now
            return datetime(2024, 1, 2, 3, 4, 5, tzinfo=UTC) + timedelta(seconds=next(ticks))

    real = moments.datetime
    moments.datetime = Ticking
    try:
        yield
    finally:
        moments.datetime = real


def _dataset(root: Path, truth: dict[str, list[list[str]]], html_only: tuple[str, ...] = ()) -> Path:
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    for name in (*truth, *html_only):
        (root / "html" / f"{name}.html").write_text(f"<!-- page {name} -->{PAGE}", encoding="utf-8")
    for name, records in truth.items():
        (root / "gt" / f"{name}.json").write_text(json.dumps(records), encoding="utf-8")
    return root


def build(tmp: Path) -> Path:
    """The fixed project (see the module notes), in `tmp/P`."""
    folder = tmp / "P"
    bea = {**TRUTH, "1": [TRUTH["1"][1] + ["/body[1]/p[2]"], TRUTH["1"][2] + ["/body[1]/p[1]"], [LI.format(4)],
                          ["/body[1]/div[1]/span[1]"]], "2": TRUTH["2"][:1]}
    cy = {"1": TRUTH["1"][:2], "-5": [], "=cmd": [[LI.format(3)]]}
    with ticking_clock(), init_project(folder) as project:
        import_paths(project, [_dataset(tmp / "ds", TRUTH, OTHERS)])
        import_paths(project, [_dataset(tmp / "bea", bea)], annotator="bea")
        import_paths(project, [_dataset(tmp / "cy", cy)], annotator="cy")
        r = project.labels("1")
        project.reject(r[4].id, ANN)
        # The Review against bea: a delete on their word, a merge, a keep of ours, a take of a rejected record,
        # a record of theirs taken, one not taken
        project.delete(r[0].id, ANN, adjudicated="bea")
        project.adjudication.merge("1", r[1], "bea", [*r[1].xpaths, "/body[1]/p[2]"], ANN)
        project.adjudication.keep("1", "bea", [*r[2].xpaths, "/body[1]/p[1]"], r[2].xpaths, ANN)
        project.accept(r[4].id, ANN, adjudicated="bea")
        project.add_record("1", [LI.format(4)], Provenance.person("bea"), status="accepted", by=ANN,
                           adjudicated="bea")
        project.adjudication.keep("1", "bea", ["/body[1]/div[1]/span[1]"], None, ANN)
        # Page 2: edits, a split, a merge and an extractor's proposals, one rejected
        r = project.labels("2")
        project.edit(r[0].id, [LI.format(1), LI.format(4), "/body[1]/p[9]"], ANN, unresolved=["/body[1]/p[9]"])
        project.split(r[0].id, [[LI.format(1)], [LI.format(4), "/body[1]/p[9]"]], ANN)
        project.add_records("2", [["/body[1]/p[1]"], ["/body[1]/p[2]"], ["/body[1]/table[1]"],
                                  ["/body[1]/div[1]/span[1]"], [LI.format(2)]], MDR)
        proposed = project.labels("2", ["proposed"])
        project.reject(proposed[0].id, ANN)
        project.merge([proposed[1].id, proposed[2].id], ANN)
        project.accept(project.labels("2", ["proposed"])[0].id, ANN)
        project.add_record("guess", ["/body[1]/ul[1]"], MDR)
        project.set_status("-5", "reviewed", ANN)
        changed, gone = project.snapshot_file("changed"), project.snapshot_file("gone")
        with project.writing() as db:  # the datasets' folders named alike on every run (not the temporary one)
            db.execute("UPDATE provenances SET name = replace(name, ?, 'DATASETS') WHERE kind = 'dataset'",
                       (str(tmp),))
    # A saved copy changed by hand (texts as it is now, said) and one gone (the records without texts, said)
    os.chmod(changed, 0o644)
    changed.write_text(f"<!-- changed by hand -->{PAGE.replace('café', 'thé')}", encoding="utf-8")
    os.chmod(gone, 0o644)
    gone.unlink()
    return folder


def export_all(folder: Path, out: Path) -> dict[str, bytes | list[str]]:
    """Each format's file bytes and the summaries' figures and warnings (the project's path written as PROJECT)."""
    exported: dict[str, bytes | list[str]] = {}
    with open_project(folder) as project:
        for fmt in ("jsonl", "csv"):
            summary = export_project(project, fmt, out / fmt)
            exported[f"labels.{fmt}"] = (out / fmt / f"labels.{fmt}").read_bytes()
            exported[f"summary-{fmt}"] = [f"pages {summary.pages}", f"records {summary.records}",
                                          *(w.replace(str(folder), "PROJECT") for w in summary.warnings)]
    return exported


def expected() -> dict[str, bytes | list[str]]:
    summaries = json.loads((EXPECTED / "summaries.json").read_text(encoding="utf-8"))
    return {"labels.jsonl": (EXPECTED / "labels.jsonl").read_bytes(),
            "labels.csv": (EXPECTED / "labels.csv").read_bytes(), **summaries}


def test_the_exports_of_a_fixed_project_are_the_bytes_written_before(tmp_path: Path) -> None:
    got, want = export_all(build(tmp_path), tmp_path / "out"), expected()
    for name in ("labels.jsonl", "labels.csv"):
        assert got[name].decode().splitlines() == want[name].decode().splitlines(), name  # a readable diff first
        assert got[name] == want[name], name
    assert got["summary-jsonl"] == want["summary-jsonl"]
    assert got["summary-csv"] == want["summary-csv"]


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_the_fixed_project_holds_every_kind_of_line(fmt: str) -> None:
    """The fixture covers what it is meant to (were the expected files written from a project of less, the byte
    test would check less)."""
    text = (EXPECTED / f"labels.{fmt}").read_text(encoding="utf-8")
    if fmt == "jsonl":
        lines = [json.loads(line) for line in text.splitlines()]
        assert {line["status"] for line in lines} == {None, "accepted", "edited", "proposed", "rejected"}
        assert {line["page_status"] for line in lines} == {"new", "in progress", "labelled", "reviewed"}
        assert any(line["unresolved"] for line in lines) and any(line["derived_from"] for line in lines)
        assert any(line["texts"] is None for line in lines) and any("thé" in (line["texts"] or []) for line in lines)
        assert {d["decision"] for line in lines for d in line["adjudication"] + line["page_adjudication"]} == {
            "taken", "merged", "kept", "deleted"}
    else:
        assert "'=cmd" in text and "taken from bea" in text and "deleted (bea made none)" in text


def write_expected() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        made = export_all(build(Path(tmp)), Path(tmp) / "out")
    EXPECTED.mkdir(exist_ok=True)
    (EXPECTED / "labels.jsonl").write_bytes(made["labels.jsonl"])
    (EXPECTED / "labels.csv").write_bytes(made["labels.csv"])
    summaries = {k: v for k, v in made.items() if k.startswith("summary-")}
    (EXPECTED / "summaries.json").write_text(json.dumps(summaries, indent=1, ensure_ascii=False) + "\n",
                                             encoding="utf-8")
    print(f"wrote {EXPECTED}", file=sys.stderr)


if __name__ == "__main__":
    write_expected()
