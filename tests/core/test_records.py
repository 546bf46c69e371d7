"""XPath normalisation and expansion, character for character as NEXT-EVAL's mapResponseToFullXPath."""

from __future__ import annotations

import json

import pytest

from recordlens.core.errors import DatasetError
from recordlens.core.records.model import (
    TextKeyIndex,
    load_records,
    matches_everything,
    new_records,
    normalise_xpath,
    parse_records,
    save_records,
)


@pytest.mark.parametrize(("raw", "expected"), [
    ("/html[1]/body[1]/div[2]", "/body[1]/div[2]"),
    ("/html/body/div[2]/div", "/body[1]/div[2]/div[1]"),
    ("/body[1]/div", "/body[1]/div[1]"),
    ("/HTML/body", "/HTML[1]/body[1]"),          # case-sensitive: not stripped, matches nothing
    ("/html[2]/body", "[2]/body[1]"),            # the reference strips '/html' only
    ("//div", "//div[1]"),                       # empty steps stay, so it matches nothing
    ("/body/text()", "/body[1]/text()[1]"),
    ("/body/div[@id='a']", "/body[1]/div[@id='a'][1]"),
    ("", ""), ("/", "/"), ("/html", ""), ("/html[1]", ""),
    ("/body[1]/", "/body[1]/"),
])
def test_normalise(raw: str, expected: str) -> None:
    assert normalise_xpath(raw) == expected


def test_expansion_is_self_or_descendant_and_never_a_sibling_with_a_longer_index() -> None:
    keys = TextKeyIndex(["/body[1]/div[1]", "/body[1]/div[1]/span[1]", "/body[1]/div[10]", "/body[1]/div[2]"])
    assert keys.expand(["/body/div"]) == {"/body[1]/div[1]", "/body[1]/div[1]/span[1]"}
    assert keys.expand(["/body[1]/div[1]/"]) == {"/body[1]/div[1]/span[1]"}
    assert keys.expand(["//div"]) == frozenset()
    assert keys.expand(["/nothing[1]"]) == frozenset()
    assert keys.expand([""]) == set(keys.keys)
    assert keys.expand(["/html"]) == set(keys.keys)


def test_matches_everything_flags_the_reference_blind_spot() -> None:
    assert all(matches_everything(x) for x in ("", "/", "/html", "/html[1]"))
    assert not matches_everything("/body")


def test_records_files_round_trip_and_bad_files_say_why(tmp_path) -> None:
    path = save_records(tmp_path / "run" / "3.json", [["/body[1]/p[1]", "/body[1]/p[2]"], ["/body[1]/é[1]"]])
    assert load_records(path).records == [["/body[1]/p[1]", "/body[1]/p[2]"], ["/body[1]/é[1]"]]
    (tmp_path / "bad.json").write_text("[[1, 2]]")
    with pytest.raises(DatasetError, match="record 1 is not a list of XPath strings"):
        load_records(tmp_path / "bad.json")
    (tmp_path / "trunc.json").write_text('[["/body[1]"')
    with pytest.raises(DatasetError, match="not valid JSON"):
        load_records(tmp_path / "trunc.json")
    with pytest.raises(DatasetError, match="no such records file"):
        load_records(tmp_path / "missing.json")
    lenient = parse_records(json.loads('["/body[1]/a[1]", ["/body[1]/a[2]"]]'))
    assert lenient.records == [["/body[1]/a[1]"], ["/body[1]/a[2]"]]
    assert lenient.warnings


def test_new_records_leave_out_what_is_already_there_however_it_is_spelled() -> None:
    existing = [["/body[1]/ul[1]/li[1]"], ["/body[1]/ul[1]/li[3]", "/body[1]/ul[1]/li[4]"]]
    proposed = [["/html[1]/body/ul/li"], ["/body[1]/ul[1]/li[2]"], ["/body[1]/ul[1]/li[4]", "/body[1]/ul[1]/li[3]"],
                ["/body[1]/ul[1]/li[2]"]]
    assert new_records(proposed, existing) == [["/body[1]/ul[1]/li[2]"]]
