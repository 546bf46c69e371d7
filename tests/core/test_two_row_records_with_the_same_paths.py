"""Records of two table rows (a title row, then its details row) whose texts lie at the same *set* of tag paths
(`td`, `td/a`, `td/span` in both) are still two different rows: they differ in how many texts lie at each path and
in their order, so the pair is proposed (rows that differ by class alone, zebra stripes, are not paired)."""

from __future__ import annotations

from recordlens.core.extract.candidates import page_candidates
from recordlens.core.extract.repeats import PageFacts
from recordlens.core.extract.selector import SelectorExtractor
from recordlens.core.page.dom import parse_html

TITLE = ('<tr class="thing"><td class="rank">{k}.</td><td class="title"><a href="/s/{k}">Story number {k} of the day'
         '</a> <span class="site">(site{k}.org)</span></td></tr>')
DETAILS = ('<tr><td></td><td class="subtext"><span class="score">{k}0 points</span> by <a href="/u/{k}">user{k}</a> '
           '<span class="age">{k} hours ago</span> | <a href="/c/{k}">{k} comments</a></td></tr>')


def _stories(count: int) -> str:
    rows = "".join(TITLE.format(k=k) + DETAILS.format(k=k) for k in range(1, count + 1))
    return f"<html><body><center><table><tbody>{rows}</tbody></table></center></body></html>"


def test_a_title_row_and_its_details_row_with_the_same_paths_are_one_record() -> None:
    page = parse_html(_stories(12))
    title, details = (page.resolve(f"/body[1]/center[1]/table[1]/tbody[1]/tr[{k}]") for k in (1, 2))
    assert title is not None and details is not None
    facts = PageFacts(page, 4)
    assert facts.signature(title) == facts.signature(details)  # the case: one set of paths for both rows
    pairs = [c.region for c in page_candidates(page).candidates if len(c.region.records[0]) == 2]
    assert len(pairs) == 1 and pairs[0].count == 12
    assert all(rec[0].attrs.get("class") == "thing" for rec in pairs[0].records)
    # The shipped selector takes the pairs: one record per story, not two.
    records = SelectorExtractor().extract(page).records
    assert len(records) == 12 and all(len(record) == 2 for record in records)
