"""A JSON file cut short (a full disk, a killed copy) is said as such: json names only where it stopped reading
("Expecting ',' delimiter: line 1 column 1000001"), which does not tell a person the file is incomplete."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recordlens.core.errors import DatasetError
from recordlens.core.extract.selector_model import ModelError, SelectorModel
from recordlens.core.records.model import load_records
from recordlens.core.wording import json_problem


def problem_of(text: str) -> str:
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    return json_problem(caught.value)


@pytest.mark.parametrize("text", ['[["/a"], ["/b"', '[["/a", "/b', "[", '[["/a"],', '[["/a"]  \n'[:-4]])
def test_a_text_that_ends_before_its_value_does_is_said_cut_short(text: str) -> None:
    assert problem_of(text).endswith("; cut short?")


@pytest.mark.parametrize("text", ['[["/a"]] x', '{"a": }', '[["/a"] ["/b"]]', ""])
def test_a_text_wrong_before_its_end_is_not(text: str) -> None:
    assert "cut short" not in problem_of(text)


def test_a_records_file_and_a_model_file_cut_short_say_so(tmp_path: Path) -> None:
    records = tmp_path / "1.json"
    records.write_text(json.dumps([[f"/html[1]/body[1]/p[{k}]"] for k in range(1, 500)])[:-7], encoding="utf-8")
    with pytest.raises(DatasetError, match=r"not valid JSON \(.*; cut short\?\)"):
        load_records(records)
    with pytest.raises(ModelError, match=r"invalid JSON: .*; cut short\?\)"):
        SelectorModel.from_json('{"format": "recordlens-selector/5", "members": [', "m.json")
