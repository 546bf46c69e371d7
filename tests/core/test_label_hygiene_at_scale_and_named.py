"""Label hygiene: records alike scored without the cost matrix (exactly as the matrix scores them), many records
sharing a large element checked in seconds, an article's own header not taken for page chrome, XPaths naming
nothing and chrome records named by record, and the smaller reports around them (a ceiling over no page, an import
whose labels cannot be read, a flat list of strings)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from recordlens.core.cli.command import main as cli_main
from recordlens.core.page.dom import parse_html
from recordlens.core.records.hygiene import _Containment, ceiling_score, check_page, summarise
from recordlens.core.records.model import save_records
from recordlens.core.records.score import (
    Match,
    identical_matching,
    match_costs,
    optimal_matching,
    score_expanded,
)

KEYS = "abcde"
texts = st.frozensets(st.sampled_from(KEYS), max_size=4)


def by_the_matrix(predicted: Sequence[frozenset[str]], true: Sequence[frozenset[str]]) -> tuple[float, float, float]:
    """P, R and F1 as the cost matrix gives them (the path `score_expanded` takes without records alike)."""
    cost = match_costs(predicted, true)
    rows, cols = optimal_matching(cost)
    total = 0.0
    for i, j in zip(rows, cols, strict=True):
        total += 1.0 - float(cost[i, j])
    precision, recall = total / len(predicted), total / len(true)
    f1 = 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
    return precision, recall, f1


def figures(score) -> tuple[float, float, float]:  # noqa: ANN001
    return score.precision, score.recall, score.f1


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(texts, min_size=1, max_size=8), st.data())
def test_records_alike_score_as_the_matrix_scores_them(true: list[frozenset[str]], data: st.DataObject) -> None:
    # a prediction made of copies of true records (some repeated, some left out, empty ones too)
    predicted = data.draw(st.lists(st.sampled_from(true), min_size=1, max_size=10))
    fast = score_expanded(predicted, true)
    assert figures(fast) == by_the_matrix(predicted, true)
    if all(predicted.count(r) <= true.count(r) for r in predicted):  # each prediction has a copy of its own
        assert identical_matching(predicted, true) is not None  # the fast path was taken
        assert all(predicted[m.predicted] == true[m.true] for m in fast.matches)
        assert len({m.true for m in fast.matches}) == len(fast.matches) == len(predicted)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(texts, min_size=1, max_size=8), st.lists(texts, min_size=1, max_size=8))
def test_any_prediction_scores_as_the_matrix_scores_it(predicted: list[frozenset[str]],
                                                      true: list[frozenset[str]]) -> None:
    fast = score_expanded(predicted, true)
    assert figures(fast) == by_the_matrix(predicted, true)
    assert fast.hallucinated_records == sum(1 for r in predicted if not r)
    empty_pairs = sum(1 for m in fast.matches if not predicted[m.predicted] and not true[m.true])
    assert bool(fast.warnings) == bool(empty_pairs)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(texts, min_size=1, max_size=10))
def test_the_ceiling_is_the_matrix_score_of_each_distinct_true_record_once(true: list[frozenset[str]]) -> None:
    distinct = [r for r in dict.fromkeys(true) if r]
    expected = by_the_matrix(distinct, true) if distinct else (0.0, 0.0, 0.0)
    assert figures(ceiling_score(true)) == expected
    if distinct:  # P = 1 and R = D/N, as NEXT-EVAL's clean oracle scores
        assert ceiling_score(true).precision == 1.0 and ceiling_score(true).recall == len(distinct) / len(true)


def test_a_record_listed_ten_thousand_times_scores_against_itself_without_a_matrix() -> None:
    record = frozenset({"/body[1]/div[1]"})
    start = time.perf_counter()
    score = score_expanded([record] * 10_000, [record] * 10_000)  # the matrix held 0.8 GB and took 25 s
    assert time.perf_counter() - start < 5
    assert figures(score) == (1.0, 1.0, 1.0) and score.matches[9_999] == Match(9_999, 9_999, 1.0)
    assert ceiling_score([record] * 10_000).recall == 1 / 10_000


def naive_around(texts: Sequence[frozenset[str]], keyset: frozenset[str]
                 ) -> tuple[list[frozenset[str]], list[frozenset[str]]]:
    holding = [t for t in texts if keyset < t]
    sharing = [t for t in texts if t & keyset and not t <= keyset and not keyset <= t]
    return holding, sharing


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.frozensets(st.sampled_from(KEYS), min_size=1, max_size=5), min_size=1, max_size=10, unique=True))
def test_the_index_of_keys_held_alike_finds_what_a_comparison_of_every_pair_finds(
        texts_given: list[frozenset[str]]) -> None:
    index = _Containment(texts_given)
    for keyset in texts_given:
        assert index.around(keyset) == naive_around(texts_given, keyset)


@settings(max_examples=500, deadline=None, derandomize=True)
@given(st.lists(st.frozensets(st.sampled_from("abcdefgh"), min_size=1, max_size=5), min_size=1, max_size=12,
                unique=True), st.data())
def test_pairs_counted_by_units_of_texts_alike_are_those_a_comparison_of_every_pair_counts(
        texts_given: list[frozenset[str]], data: st.DataObject) -> None:
    weights = data.draw(st.lists(st.integers(1, 4), min_size=len(texts_given), max_size=len(texts_given)))
    counted = {keyset: (holding, sharing) for keyset, holding, sharing in
               _Containment(texts_given, weights).weights()}
    expected = {}
    for keyset in texts_given:
        holding, sharing = naive_around(texts_given, keyset)
        expected[keyset] = (sum(weights[texts_given.index(t)] for t in holding),
                            sum(weights[texts_given.index(t)] for t in sharing))
    assert counted == expected


def shared_list_page(records: int, items: int) -> str:
    """A list of `items` texts that every record lists, then each record's own leaf."""
    shared = "".join(f"<li>item {i}</li>" for i in range(items))
    own = "".join(f"<div>own {i}</div>" for i in range(records))
    return f"<html><body><ul>{shared}</ul>{own}</body></html>"


def test_many_records_sharing_a_large_element_are_checked_in_seconds() -> None:
    n = 2_000
    page = parse_html(shared_list_page(n, 119))
    records = [["/body[1]/ul[1]", f"/body[1]/div[{i}]"] for i in range(1, n + 1)]
    start = time.perf_counter()
    check = check_page("p", page, records)  # 2,000 records took about 35 s
    assert time.perf_counter() - start < 15
    assert check.overlapping_pairs == n * (n - 1) // 2 and check.overlapping[0] == (1, 2)
    assert check.nested_pairs == 0 and check.twice_pairs == 0 and check.ceiling == 1.0


def test_pair_counts_of_records_sharing_an_element_match_a_count_of_every_pair() -> None:
    page = parse_html(shared_list_page(12, 3))
    records = [["/body[1]/ul[1]", f"/body[1]/div[{i}]"] for i in range(1, 11)]
    records += [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]"], ["/body[1]/div[11]", "/body[1]/ul[1]/li[2]"]]
    check = check_page("p", page, records)
    sets = [frozenset(_keys(r)) for r in records]
    overlapping = sum(1 for i, a in enumerate(sets) for b in sets[i + 1:] if a & b and not a <= b and not b <= a)
    nested = sum(1 for a in sets for b in sets if a < b)
    assert (check.overlapping_pairs, check.nested_pairs) == (overlapping, nested)


def _keys(record: list[str]) -> set[str]:
    """The text keys of a record of `shared_list_page(12, 3)`: the list's items, or a leaf."""
    keys: set[str] = set()
    for xpath in record:
        keys |= {f"{xpath}/li[{i}]" for i in (1, 2, 3)} if xpath == "/body[1]/ul[1]" else {xpath}
    return keys


ARTICLES = ("<html><body><header><nav><a href='/'>Home</a></nav></header><main>"
            + "".join(f"<article><header><h2>Story {i}</h2></header><p>Text {i}</p><footer>By {i}</footer></article>"
                      for i in (1, 2, 3))
            + "</main><footer><p>Contact</p></footer></body></html>")


def test_an_article_s_own_header_and_footer_are_not_page_chrome() -> None:
    page = parse_html(ARTICLES)
    as_articles = [[f"/body[1]/main[1]/article[{i}]"] for i in (1, 2, 3)]
    as_fields = [[f"/body[1]/main[1]/article[{i}]/header[1]", f"/body[1]/main[1]/article[{i}]/p[1]",
                  f"/body[1]/main[1]/article[{i}]/footer[1]"] for i in (1, 2, 3)]
    assert not check_page("a", page, as_articles).includes_chrome
    assert not check_page("b", page, as_fields).includes_chrome  # the same text, spelt field by field
    report = summarise([check_page(n, page, r) for n, r in (("1", as_articles), ("2", as_articles), ("3", as_fields))])
    assert report.policy_outliers == []
    # the page's own banner and contentinfo still are
    assert check_page("c", page, [["/body[1]/header[1]/nav[1]/a[1]"]]).in_chrome == [1]
    assert check_page("d", page, [*as_articles, ["/body[1]/footer[1]/p[1]"]]).in_chrome == [4]


def test_xpaths_naming_nothing_and_chrome_records_are_named_by_record(tmp_path: Path, capsys) -> None:
    records = [[f"/body[1]/main[1]/article[{i}]"] for i in (1, 2, 3)]
    records += [["/body[1]/main[1]/article[9]"],  # names nothing at all
                ["/body[1]/main[1]/article[1]/p[1]", "/body[1]/div[7]"],  # one dead XPath beside a live one
                ["/body[1]/header[1]/nav[1]/a[1]"], ["/body[1]/footer[1]"]]
    check = check_page("p", parse_html(ARTICLES), records)
    assert check.unresolved_in == [(4, "/body[1]/main[1]/article[9]"), (5, "/body[1]/div[7]")]
    assert (check.unresolved_records, check.naming_nothing, check.naming_nothing_count) == (2, [4], 1)
    assert (check.chrome_records, check.in_chrome) == (2, [6, 7])
    (tmp_path / "html").mkdir()
    for name, truth in (("1", records[:3]), ("2", records[:3]), ("3", records)):
        (tmp_path / "html" / f"{name}.html").write_text(ARTICLES, encoding="utf-8")
        save_records(tmp_path / "gt" / f"{name}.json", truth)
    args = ["labels", "check", "--pages", str(tmp_path / "html"), "--gt", str(tmp_path / "gt")]
    assert cli_main(args) == 0
    out = capsys.readouterr().out
    assert ("page 3: 2 XPath(s) name no element or one without text (first: /body[1]/main[1]/article[9]), in 2 "
            "records (4, 5); 1 of them names nothing at all (4)") in out
    assert "labels page chrome (navigation, header, footer, aside), unlike most pages: 2 of 7 records (6, 7)" in out
    assert cli_main([*args, "--json"]) == 0
    page = next(p for p in json.loads(capsys.readouterr().out)["pages"] if p["page"] == "3")
    assert page["unresolved_in"] == [[4, "/body[1]/main[1]/article[9]"], [5, "/body[1]/div[7]"]]
    assert page["naming_nothing"] == [4] and page["in_chrome"] == [6, 7]


def test_the_json_ceiling_is_null_when_no_page_was_checked(tmp_path: Path, capsys) -> None:
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "1.html").write_text(ARTICLES, encoding="utf-8")
    (tmp_path / "gt").mkdir()
    (tmp_path / "gt" / "1.json").write_text("{}", encoding="utf-8")
    assert cli_main(["labels", "check", "--pages", str(tmp_path / "html"), "--gt", str(tmp_path / "gt"),
                     "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["pages"] == [] and document["ceiling"] is None


def test_an_import_whose_labels_cannot_be_read_does_not_say_the_page_was_imported(tmp_path: Path, capsys) -> None:
    data = tmp_path / "same"
    (data / "html").mkdir(parents=True)
    (data / "gt").mkdir()
    for name in ("a", "b"):
        (data / "html" / f"{name}.html").write_text(ARTICLES, encoding="utf-8")
    save_records(data / "gt" / "a.json", [["/body[1]/main[1]/article[1]"]])
    (data / "gt" / "b.json").write_text("{}", encoding="utf-8")
    assert cli_main(["project", "init", str(tmp_path / "p")]) == 0
    cli_main(["import", str(data), "--project", str(tmp_path / "p"), "-q"])
    out, err = capsys.readouterr()
    said = out + err
    assert "page b not imported" in said and "imported as a page of its own" not in said


def test_score_with_the_ceiling_leaves_out_a_page_whose_labels_cannot_be_read_from_both(tmp_path: Path,
                                                                                        capsys) -> None:
    """As score leaves out any page it cannot read (before, it refused the whole score): the figures and the
    ceiling are over the same pages, and the page left out is named."""
    (tmp_path / "html").mkdir()
    for name in ("1", "2"):
        (tmp_path / "html" / f"{name}.html").write_text(ARTICLES, encoding="utf-8")
        save_records(tmp_path / "pred" / f"{name}.json", [["/body[1]/main[1]/article[1]"]])
    save_records(tmp_path / "gt" / "1.json", [["/body[1]/main[1]/article[1]"]])
    (tmp_path / "gt" / "2.json").write_text("{}", encoding="utf-8")
    code = cli_main(["score", "--pred", str(tmp_path / "pred"), "--gt", str(tmp_path / "gt"), "--pages",
                     str(tmp_path / "html"), "--ceiling", "-q"])
    out, err = capsys.readouterr()
    assert code == 1 and "1 page of 2 with ground truth cannot be scored" in err
    assert "pages 1 of 2 (1 left out, below)" in out and "\n  2: " in out
    assert "mean F1 1.0000 over 1 page," in out


def test_a_flat_list_of_strings_is_one_warning_for_the_file(tmp_path: Path, capsys) -> None:
    (tmp_path / "html").mkdir()
    (tmp_path / "html" / "1.html").write_text(ARTICLES, encoding="utf-8")
    (tmp_path / "gt").mkdir()
    xpaths = [f"/body[1]/main[1]/article[{i}]" for i in (1, 2, 3)]
    (tmp_path / "gt" / "1.json").write_text(json.dumps(xpaths), encoding="utf-8")
    assert cli_main(["labels", "check", "--pages", str(tmp_path / "html"), "--gt", str(tmp_path / "gt")]) == 0
    err = capsys.readouterr().err
    assert err.count("one-XPath record") == 1
    assert "record 1 is a string, read as a one-XPath record, and so are 2 more (records 2, 3)" in err
