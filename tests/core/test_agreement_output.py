"""What `recordlens agreement` says: what its score measures, a record of one side that holds several of the other's
said once, and a record whose XPaths name no element marked as the app marks it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.cli.agreement import format_agreement
from recordlens.core.cli.command import main
from recordlens.core.page.dom import parse_html
from recordlens.core.records.agreement import agreement, compare_page
from recordlens.core.records.model import TextKeyIndex

ROWS = 5
HTML = ("<html><body><table><tbody>" + "".join(f"<tr><td>row {i}</td></tr>" for i in range(1, ROWS + 1))
        + "</tbody></table><div>alone</div></body></html>")
TBODY = "/body[1]/table[1]/tbody[1]"
ROW_RECORDS = [[f"{TBODY}/tr[{i}]"] for i in range(1, ROWS + 1)]


def _keys() -> TextKeyIndex:
    return TextKeyIndex(parse_html(HTML).text_map)


def test_the_text_output_says_what_the_score_measures_and_the_json_its_threshold() -> None:
    result = agreement("ana", "ben", [compare_page(ROW_RECORDS, ROW_RECORDS, _keys(), "1", 0.6)], threshold=0.6)
    text = format_agreement(result)
    assert "NEXT-EVAL's structure-aware" in text and "below overlap 0.6" in text
    assert result.as_dict()["threshold"] == 0.6


def test_a_record_holding_several_of_the_other_side_s_is_said_once_not_as_lone_rows() -> None:
    page = compare_page(ROW_RECORDS, [[TBODY], ["/body[1]/div[1]"]], _keys(), "1")
    [holding] = page.holdings
    assert (holding.side, holding.number, holding.held, holding.one_level) == ("B", 1, (1, 2, 3, 4, 5), True)
    text = format_agreement(agreement("ana", "ben", [page]))
    assert "B1 holds A1–A5 (labelled one level up)" in text
    assert "only A   A2" not in text and "different (overlap" not in text  # grouped under B1, not listed apart
    assert "only B   B2" in text  # a record outside it is listed as before
    assert page.as_document()["holdings"] == [{"side": "B", "number": 1, "xpaths": [TBODY],
                                               "held": [1, 2, 3, 4, 5], "one_level": True}]


def test_one_record_of_the_other_side_inside_is_no_holding() -> None:
    page = compare_page(ROW_RECORDS[:1], [[TBODY]], _keys(), "1")
    assert page.holdings == () and "holds" not in format_agreement(agreement("ana", "ben", [page]))


def test_a_record_that_names_no_element_is_marked_in_the_cli_list(tmp_path: Path, capsys) -> None:
    ds = tmp_path / "ds"
    (ds / "html").mkdir(parents=True)
    (ds / "gt").mkdir()
    (ds / "html" / "1.html").write_text(HTML, encoding="utf-8")
    (ds / "gt" / "1.json").write_text(json.dumps(ROW_RECORDS[:2]), encoding="utf-8")
    cyd = tmp_path / "cyd" / "gt"
    cyd.mkdir(parents=True)
    (cyd / "1.json").write_text(json.dumps([*ROW_RECORDS[:2], ["/body[1]/dvi[1]"],
                                            ["/body[1]/div[1]", "/body[1]/dvi[2]"]]), encoding="utf-8")
    project = tmp_path / "p"
    assert main(["project", "init", str(project)]) == 0
    assert main(["import", str(ds), "--project", str(project), "-q"]) == 0
    assert main(["import", str(cyd.parent), "--project", str(project), "--annotator", "cyd", "-q"]) == 0
    capsys.readouterr()
    assert main(["agreement", "--project", str(project), "--between", "project", "cyd", "-q"]) == 0
    out = capsys.readouterr().out
    assert "only B   B3: /body[1]/dvi[1] (names no element)" in out
    assert "only B   B4: /body[1]/div[1], /body[1]/dvi[2] (1 el; 1 XPath naming nothing)" in out
    assert main(["agreement", "--project", str(project), "--between", "project", "cyd", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["pages"][0]["disagreements"]
    assert [(d["b_number"], d["b_named"]) for d in listed] == [(3, 0), (4, 1)]


def test_all_compares_every_pair_of_label_sets_in_one_table_the_least_agreeing_first(tmp_path: Path,
                                                                                    capsys) -> None:
    ds = tmp_path / "ds"
    (ds / "html").mkdir(parents=True)
    (ds / "gt").mkdir()
    (ds / "html" / "1.html").write_text(HTML, encoding="utf-8")
    (ds / "gt" / "1.json").write_text(json.dumps(ROW_RECORDS), encoding="utf-8")
    project = tmp_path / "p"
    assert main(["project", "init", str(project)]) == 0
    assert main(["import", str(ds), "--project", str(project), "-q"]) == 0
    capsys.readouterr()
    assert main(["agreement", "--project", str(project), "--all"]) == 2  # nobody to compare with, said
    assert "no imported annotator" in capsys.readouterr().err
    for name, records in (("ana", ROW_RECORDS), ("ben", ROW_RECORDS[:2])):  # ben left out three rows
        (tmp_path / name / "gt").mkdir(parents=True)
        (tmp_path / name / "gt" / "1.json").write_text(json.dumps(records), encoding="utf-8")
        assert main(["import", str(tmp_path / name), "--project", str(project), "--annotator", name, "-q"]) == 0
    capsys.readouterr()
    assert main(["agreement", "--project", str(project), "--all"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("agreement of every pair of the project's 3 label sets")
    pairs = [row.split()[:3] for row in rows[2:5]]
    assert pairs == [["project", "–", "ben"], ["ana", "–", "ben"], ["project", "–", "ana"]] or \
        pairs == [["ana", "–", "ben"], ["project", "–", "ben"], ["project", "–", "ana"]]
    assert rows[4].split()[-1] == "1.000"  # the project and ana agree on every record
    assert main(["agreement", "--project", str(project), "--all", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert len(document["pairs"]) == 3 and "pages" not in document["pairs"][0]
    assert document["pairs"][-1]["f1"] == 1.0 and document["pairs"][0]["f1"] < 1.0
    with pytest.raises(SystemExit):  # one or the other
        main(["agreement", "--project", str(project), "--all", "--between", "ana", "ben"])
    assert "not allowed with argument --all" in capsys.readouterr().err


def test_a_matched_record_with_an_xpath_naming_nothing_is_marked_among_other_xpaths() -> None:
    theirs = [*ROW_RECORDS[:1], [f"{TBODY}/tr[2]", "/body[1]/dvi[1]"], *ROW_RECORDS[2:]]  # row 2 plus a dead XPath
    parsed = parse_html(HTML)
    dead = frozenset(x for record in theirs for x in record if parsed.resolve(x) is None)
    page = compare_page(ROW_RECORDS, theirs, _keys(), "1", dead=dead)
    text = format_agreement(agreement("ana", "ben", [page]))
    assert "B2: /body[1]/table[1]/tbody[1]/tr[2], /body[1]/dvi[1] (1 el; 1 XPath naming nothing)" in text, text
