"""Which pages' records tell a run folder's run (`runs --add`) was decided in two places: the importer named the
pages it did and failed on, and run_matching silently added the pages the run stopped on part way, working them
out again (a stat per page) inside both `record_digests` and `earlier_digests`. The importer now names them all,
and run_matching digests the pages it is given."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.runs.run_files import read_page_costs, write_unfinished_record
from recordlens.core.store.run_matching import earlier_digests, record_digests


def test_the_digests_are_of_the_pages_named_only(tmp_path: Path) -> None:
    (tmp_path / "_run").mkdir()
    write_unfinished_record(tmp_path, "1", "the budget ran out", {}, {"tokens": {"total": 3}})
    write_unfinished_record(tmp_path, "1", "the budget ran out again", {"earlier": [{"status": "not finished"}]},
                            {"tokens": {"total": 4}})
    costs = read_page_costs(tmp_path)
    assert record_digests(tmp_path, [], costs) == {} and earlier_digests(tmp_path, [], costs) == {}
    assert list(record_digests(tmp_path, ["1"], costs)) == ["1"]
    assert list(earlier_digests(tmp_path, ["1"], costs)) == ["1"]
