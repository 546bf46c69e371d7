"""Proposals weighed against the records a page holds (`Project.weigh_proposals`), by the rule `labels check` uses
for records that cover the same text (`hygiene.text_covered`).

A verifier's page held 8 accepted records at `li/div/div/div`; Propose proposed 8 more one level up (`ul/li[k]`),
each covering exactly the text of one accepted record, and accepting one made `labels check` report "1 pair(s) of
records cover the same text". Proposals were compared with the page's records by their XPaths alone."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.records import TextKeyIndex
from recordlens.core.records.hygiene import check_page, weigh_proposals
from recordlens.core.records.model import save_records
from recordlens.core.store import Provenance, import_paths, init_project

# Two lists: the first's items wrap their texts three levels deep, the second's hold them directly; a footer apart.
ITEMS = "".join(f"<li><div><div><div><b>Item {k}</b> <i>{k}.50</i></div></div></div></li>" for k in range(1, 9))
OTHERS = "".join(f"<li><b>Other {k}</b> <i>{k}.99</i></li>" for k in range(1, 4))
PAGE = (f"<!DOCTYPE html><html><head><title>t</title></head><body><ul>{ITEMS}</ul><ol>{OTHERS}</ol>"
        "<p><span>Contact</span> <span>Terms</span></p></body></html>")
DEEP = "/body[1]/ul[1]/li[{}]/div[1]/div[1]/div[1]"
ITEM = "/body[1]/ul[1]/li[{}]"
OTHER = "/body[1]/ol[1]/li[{}]"
MODEL = Provenance.extractor("test-model", "1")


def labelled_project(tmp_path: Path):
    """The page imported with its 8 deep records accepted."""
    data = tmp_path / "data"
    (data / "html").mkdir(parents=True)
    (data / "html" / "p.html").write_text(PAGE, encoding="utf-8")
    save_records(data / "gt" / "p.json", [[DEEP.format(k)] for k in range(1, 9)])
    project = init_project(tmp_path / "project")
    assert not import_paths(project, [data]).problems
    return project


def test_proposals_that_cover_the_text_of_the_pages_records_at_another_level_are_left_out(tmp_path: Path) -> None:
    with labelled_project(tmp_path) as project:
        keys = TextKeyIndex(project.load("p").page.text_map)
        proposed = [[ITEM.format(k)] for k in range(1, 9)] + [[OTHER.format(k)] for k in range(1, 4)]
        weighed = project.weigh_proposals("p", proposed, keys)
        # The second list alone is new; each item of the first is left out for the accepted record of its text
        assert weighed.new == [[OTHER.format(k)] for k in range(1, 4)]
        assert [[label.xpaths for label in held] for held in weighed.covered_by] == [
            [(DEEP.format(k),)] for k in range(1, 9)]
        # What is left is what labels check finds clean; one of those left out, accepted, is the pair it reports
        accepted = project.true_records("p")
        assert check_page("p", project.load("p").page, accepted + weighed.new).twice_pairs == 0
        assert check_page("p", project.load("p").page, [*accepted, [ITEM.format(1)]]).twice_pairs == 1


def test_a_rejected_record_or_an_undecided_proposal_covers_its_text_as_well(tmp_path: Path) -> None:
    """A rejection is a decision a proposal of the same text at another level does not ask again; an undecided
    proposal of the same text is the same question already asked."""
    with labelled_project(tmp_path) as project:
        first = project.labels("p")[0]
        project.reject(first.id, Provenance.person("ann"))
        project.add_records("p", [[f"{OTHER.format(1)}/b[1]", f"{OTHER.format(1)}/i[1]"]], MODEL)
        keys = TextKeyIndex(project.load("p").page.text_map)
        weighed = project.weigh_proposals("p", [[ITEM.format(1)], [OTHER.format(1)], [OTHER.format(2)]], keys)
        assert weighed.new == [[OTHER.format(2)]]
        assert [[label.status for label in held] for held in weighed.covered_by] == [["rejected"], ["proposed"]]


def test_proposals_alike_among_themselves_are_proposed_once() -> None:
    from recordlens.core.page.dom import parse_html

    keys = TextKeyIndex(parse_html(PAGE).text_map)
    weighed = weigh_proposals([[ITEM.format(1)], [DEEP.format(1)], [f"/html[1]{ITEM.format(1)}"]], [], keys)
    assert weighed.new == [[ITEM.format(1)]] and weighed.covered_by == []
    # The page's text not read: by XPaths alone, as before
    assert weigh_proposals([[ITEM.format(1)], [DEEP.format(1)]], [[DEEP.format(1)]], None).new == [[ITEM.format(1)]]


def test_the_pages_undecided_proposals_the_extractor_no_longer_makes_are_named(tmp_path: Path) -> None:
    """Made again: the same XPaths, or a record of the same text; the others, still undecided, are not made."""
    with labelled_project(tmp_path) as project:
        project.add_records("p", [[OTHER.format(1)], [f"{OTHER.format(2)}/b[1]", f"{OTHER.format(2)}/i[1]"],
                                  [OTHER.format(3)], ["/body[1]/p[1]/span[1]"], ["/body[1]/p[1]/span[2]"]], MODEL)
        decided = project.labels("p", ["proposed"])[-1]
        project.accept(decided.id, Provenance.person("ann"))  # decided: not a proposal any more
        keys = TextKeyIndex(project.load("p").page.text_map)
        weighed = project.weigh_proposals("p", [[OTHER.format(1)], [OTHER.format(2)]], keys)
        assert weighed.new == [] and weighed.covered_by == [[project.labels("p", ["proposed"])[1]]]
        assert [label.xpaths for label in weighed.not_made] == [(OTHER.format(3),), ("/body[1]/p[1]/span[1]",)]
