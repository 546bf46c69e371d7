"""Names in any script: two names that differ only in Unicode form are told apart wherever they are shown, two
pages so named never become one file, tables line up by the columns a terminal gives each character, and page
lists order accented letters with their base letter."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from types import SimpleNamespace

import pytest

from recordlens.core.cli.agreement import format_agreement, format_pairs
from recordlens.core.cli.command import main
from recordlens.core.cli.project import format_comparison
from recordlens.core.page.dataset import natural_key
from recordlens.core.page.dom import parse_html
from recordlens.core.records.agreement import agreement, compare_page
from recordlens.core.records.model import TextKeyIndex
from recordlens.core.store.scoring import PageComparison, RunComparison
from recordlens.core.text_forms import cell, column_width, display_width, fitted, visible, written

NFC = unicodedata.normalize("NFC", "café")
NFD = unicodedata.normalize("NFD", "café")
ZOE = "Zoë 山田"
ZOE_NFD = unicodedata.normalize("NFD", ZOE)
LONG = "長" * 70  # a 210-byte page name
HTML = "<html><body><ul><li>one</li><li>two</li></ul><div>alone</div></body></html>"


def test_a_terminal_gives_wide_characters_two_columns_and_marks_none() -> None:
    assert display_width("山田") == 4 and display_width(NFD) == 4 == display_width(NFC)
    assert display_width("ข้าว") == 3 and display_width("👨\u200d👩\u200d👧") == 2 and display_width("👍🏽") == 2
    assert display_width("x\u200by") == 2
    assert fitted(LONG, 11) == "長" * 5 + "…" and display_width(fitted(LONG, 11)) == 11
    assert fitted(NFD * 3, 6) == "cafe\u0301c…"  # the accent stays on its letter
    assert cell("山田", 6) == "山田  " and cell("7", 3, right=True) == "  7"
    assert column_width(["ab", LONG], least=4) == 40 and column_width(["ab"], least=4) == 4


def test_only_what_cannot_be_seen_is_escaped() -> None:
    assert written(ZOE) == "'Zoë 山田'" and written(ZOE_NFD) == "'Zoe\\u0308 山田'"
    assert visible("ข้าวผัด 😀 👨\u200d👩\u200d👧") == "ข้าวผัด 😀 👨\u200d👩\u200d👧"  # NFC of any script: as is
    assert visible("a\u200bb\nc") == "a\\u200bb\\nc"
    assert visible("bad-\udcff\udcfe") == "bad-\\xff\\xfe"  # a file name that is not UTF-8, printable anywhere
    assert written("it's") == "'it\\'s'"


def _keys(html: str) -> TextKeyIndex:
    return TextKeyIndex(parse_html(html).text_map)


def test_agreement_shows_an_xpath_in_another_unicode_form_as_it_differs() -> None:
    html = f"<html><body><div><x-{NFC}>one</x-{NFC}></div></body></html>"
    ours, theirs = [[f"/body[1]/div[1]/x-{NFC}[1]"]], [[f"/body[1]/div[1]/x-{NFD}[1]"]]
    page = compare_page(ours, theirs, _keys(html), "1", dead=frozenset(theirs[0]))
    text = format_agreement(agreement("ana", "ben", [page]))
    assert f"A1: /body[1]/div[1]/x-{NFC}[1]" in text
    assert "B1: /body[1]/div[1]/x-cafe\\u0301[1] (names no element)" in text


def _project_with_annotator(tmp_path: Path, annotator: str) -> Path:
    ds, theirs = tmp_path / "ds", tmp_path / "theirs"
    for folder in (ds / "html", ds / "gt", theirs / "gt"):
        folder.mkdir(parents=True)
    (ds / "html" / "1.html").write_text(HTML, encoding="utf-8")
    (ds / "gt" / "1.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]), encoding="utf-8")
    (theirs / "gt" / "1.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]), encoding="utf-8")
    project = tmp_path / "P"
    assert main(["project", "init", str(project)]) == 0
    assert main(["import", str(ds), "--project", str(project), "-q"]) == 0
    assert main(["import", str(theirs), "--project", str(project), "--annotator", annotator, "-q"]) == 0
    return project


def test_agreement_takes_an_annotator_typed_in_another_unicode_form_and_says_so(tmp_path: Path, capsys) -> None:
    project = _project_with_annotator(tmp_path, ZOE_NFD)
    capsys.readouterr()
    assert main(["agreement", "--project", str(project), "--between", ZOE, "project", "-q"]) == 0
    out = capsys.readouterr().out
    assert ("(note: 'Zoë 山田' is read as the annotator 'Zoe\\u0308 山田', the same name written in another Unicode "
            "form)") in out, out
    assert main(["agreement", "--project", str(project), "--between", "Zoe 山田", "project", "-q"]) == 2
    assert "no labels by 'Zoe 山田' in the project; known: Zoe\\u0308 山田, project" in capsys.readouterr().err


def test_two_pages_whose_names_differ_only_in_unicode_form_are_said_and_exported_apart(tmp_path: Path,
                                                                                       capsys) -> None:
    ds = tmp_path / "ds"
    (ds / "html").mkdir(parents=True)
    (ds / "gt").mkdir()
    for name, item in ((NFC, "one"), (NFD, "two")):
        (ds / "html" / f"{name}.html").write_text(HTML.replace("one", item), encoding="utf-8")
        (ds / "gt" / f"{name}.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]), encoding="utf-8")
    project = tmp_path / "P"
    assert main(["project", "init", str(project)]) == 0
    capsys.readouterr()
    assert main(["import", str(ds), "--project", str(project), "-q"]) == 0
    err = capsys.readouterr().err
    assert ("the page 'café' has the name of the page 'cafe\\u0301' already in the project, written in another "
            "Unicode form") in err, err  # the second of the two said, with the one there
    out = tmp_path / "out"
    assert main(["export", "--project", str(project), "--format", "nexteval", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    html = sorted(p.name for p in (out / "html").iterdir())
    gt = sorted(p.name for p in (out / "gt").iterdir())
    assert len({unicodedata.normalize("NFC", name) for name in html}) == 2 == len(html)
    assert [Path(name).stem for name in html] == [Path(name).stem for name in gt]
    assert "exported as 'café (2)', as its name is that of page 'cafe\\u0301' in another Unicode form" in captured.err


def test_the_agreement_tables_line_up_in_any_script_and_cut_a_long_name() -> None:
    html = "<html><body><ul><li>one</li></ul></body></html>"
    pages = [compare_page([["/body[1]/ul[1]/li[1]"]], [["/body[1]/ul[1]/li[1]"]], _keys(html), name)
             for name in ("1", "山田 縦書き", "ข้าวผัด", LONG)]
    lines = format_agreement(agreement("ana", ZOE, pages)).splitlines()
    rows = [line for line in lines if line.endswith(" 0") or line.startswith("page ")]
    assert len(rows) == 5
    assert len({display_width(row.rsplit("1.000", 3)[0]) for row in rows[1:]}) == 1, rows
    assert any(row.startswith("長長長") and "…" in row for row in rows)
    pair = agreement("ana", ZOE, pages)
    table = format_pairs([pair, agreement("ana", "bo", pages)]).splitlines()[2:4]
    assert display_width(table[0]) == display_width(table[1]), table


def test_runs_compare_lines_up_in_any_script() -> None:
    runs = [SimpleNamespace(id=1, method="mdr", parameters={}, cost={}),
            SimpleNamespace(id=2, method="mdr", parameters={}, cost={})]
    comparison = RunComparison((1, 2), [PageComparison(name, (0.5, 0.75), (True, True))
                                        for name in ("1", "山田 縦書き", NFD, LONG)], [])
    rows = format_comparison(comparison, runs).splitlines()[2:6]
    assert len({display_width(row) for row in rows}) == 1, rows
    assert "cafe\\u0301" in rows[2] and "…" in rows[3]


def test_pages_sort_with_accented_letters_beside_their_base_letter() -> None:
    names = ["win1256", "ñandú 1", "Zoë", "naive 10", "naive 2", "nz", "Nandu 1", "zebra", "ñandú 10"]
    assert sorted(names, key=natural_key) == ["naive 2", "naive 10", "Nandu 1", "ñandú 1", "ñandú 10", "nz",
                                              "win1256", "zebra", "Zoë"]
    assert sorted(["10", "2", "10_v2", "1"], key=natural_key) == ["1", "2", "10", "10_v2"]
    assert natural_key(NFC) != natural_key(NFD)  # a tie broken by the raw name: two pages never compare equal


def test_a_page_name_that_starts_with_a_dash_is_shown_how_to_give(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["project", "remove-page", "--project", "P", "-leading-dash"])
    err = capsys.readouterr().err
    assert "give it after `--`, as in `recordlens project remove-page --project P -- -leading-dash`" in err
    with pytest.raises(SystemExit):
        main(["project", "remove-page", "--project", "P"])
    assert "--`" not in capsys.readouterr().err  # a name forgotten: nothing to say about dashes


def test_the_score_table_lines_up_in_any_script_and_cut_a_long_name() -> None:
    from recordlens.core.cli.evaluation import format_score_table
    from recordlens.core.records.score import DatasetScore, PageScore

    pages = [PageScore(name, 0.5, 0.75, 0.6, 2, 3, [], 0, 0) for name in ("1", "山田 縦書き", NFD, LONG)]
    rows = format_score_table(DatasetScore(pages)).splitlines()[:6]
    assert len({display_width(row.split(" 0.")[0]) for row in rows[1:]}) == 1, rows
    assert "cafe\\u0301" in rows[3] and "…" in rows[4]


def test_annotators_shows_page_names_that_read_alike_as_they_differ() -> None:
    from recordlens.core.cli.annotators import format_sets
    from recordlens.core.store.label_sets import SetPage

    held = [SetPage(annotator=ZOE, page=name, records=3, source=None, imported_at="2026-12-05T10:00:00.000Z")
            for name in (NFC, NFD)]
    text = format_sets(held, {}, Path("/nowhere"))
    assert "cafe\\u0301 (3)" in text and f"{NFC} (3)" in text
