"""`recordlens agreement` names the project's records by the numbers the app shows them with (the Records tab's,
which count the rejected and proposed records too), so that "B6" is record 6 in the app; an annotator's records
by their place in their set, as the app's Review numbers them (P6)."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.cli.command import main
from recordlens.core.page.dom import parse_html
from recordlens.core.records.agreement import compare_page
from recordlens.core.records.model import TextKeyIndex
from recordlens.core.store.project import Provenance, open_project

ITEMS = 7
HTML = ("<html><body><ul>" + "".join(f"<li>item number {k}</li>" for k in range(1, ITEMS + 1))
        + "</ul><div>alone</div></body></html>")
ITEM = "/body[1]/ul[1]/li[{}]"
UL = "/body[1]/ul[1]"


def _dataset(root: Path, records: list[list[str]]) -> Path:
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    (root / "html" / "1.html").write_text(HTML, encoding="utf-8")
    (root / "gt" / "1.json").write_text(json.dumps(records), encoding="utf-8")
    return root


def test_a_side_s_records_go_by_the_numbers_given_in_every_row_and_holding() -> None:
    keys = TextKeyIndex(parse_html(HTML).text_map)
    a = [[ITEM.format(k)] for k in (1, 2, 4)]  # the project's, numbered 1, 2, 4 in the app (3 is rejected)
    b = [[ITEM.format(1)], [UL]]
    page = compare_page(a, b, keys, "1", a_numbers=(1, 2, 4))
    [holding] = page.holdings  # bea's list holds the project's records 2 and 4
    assert (holding.side, holding.number, holding.held) == ("B", 2, (2, 4))
    alone = compare_page(a, [[ITEM.format(1)], ["/body[1]/div[1]"]], keys, "1", a_numbers=(1, 2, 4))
    assert sorted((d.kind, d.a_number or 0, d.b_number or 0) for d in alone.disagreements) == [
        ("only A", 2, 0), ("only A", 4, 0), ("only B", 0, 2)]


def test_the_cli_names_a_record_by_its_number_in_the_app_s_records_tab(tmp_path: Path, capsys) -> None:
    project = tmp_path / "p"
    assert main(["project", "init", str(project)]) == 0
    every = [[ITEM.format(k)] for k in range(1, ITEMS + 1)]
    assert main(["import", str(_dataset(tmp_path / "ds", every)), "--project", str(project), "-q"]) == 0
    theirs = _dataset(tmp_path / "bea", [[ITEM.format(k)] for k in (1, 2, 4, 5, 6)] + [["/body[1]/div[1]"]])
    assert main(["import", str(theirs), "--project", str(project), "--annotator", "bea", "-q"]) == 0
    with open_project(project) as opened:
        third = opened.labels("1")[2]
        opened.reject(third.id, Provenance.person("ann"))  # still listed in the app: record 3, rejected
        assert [list(label.xpaths) for label in opened.labels("1")][6] == [ITEM.format(7)]  # the app's record 7
    capsys.readouterr()

    assert main(["agreement", "--project", str(project), "--between", "bea", "project", "-q"]) == 0
    out = capsys.readouterr().out
    assert f"only B   B7: {ITEM.format(7)}" in out  # not B6, its place among the project's true records
    assert "only A   A6: /body[1]/div[1]" in out  # bea's sixth record: P6 in the app's Review
    assert "the project's labels by their number in its Records tab" in out
    assert main(["agreement", "--project", str(project), "--between", "project", "bea", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["pages"][0]["disagreements"]
    assert [(d["kind"], d["a_number"], d["b_number"]) for d in listed] == [("only B", None, 6), ("only A", 7, None)]
