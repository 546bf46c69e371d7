"""`recordlens represent --out FILE` writes its file as every command does (`core/atomic.py`): a write that stops
part way leaves the earlier file whole, and no half-written file under the name asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.page import formats
from tests.core.cli_runs import DEMO, run

PAGE = DEMO / "html" / "1.html"


def test_represent_out_writes_the_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "deeper" / "page.json"
    code, out, err = run(capsys, "represent", str(PAGE), "--out", str(target))
    assert code == 0 and out == ""
    assert target.read_text(encoding="utf-8").startswith("{")
    assert f"wrote {target}" in err
    assert [p.name for p in target.parent.iterdir()] == ["page.json"]  # no temporary file left beside it


def test_a_represent_out_stopped_mid_write_leaves_the_earlier_file_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "page.json"
    target.write_text("the earlier document\n", encoding="utf-8")
    # A document that cannot be written whole (a lone surrogate cannot be encoded): the write stops part way, as
    # a killed run or a failing disk stops it.
    monkeypatch.setattr(formats, "represent", lambda page, fmt: "{" + "x" * 100_000 + "\ud800}")
    with pytest.raises(UnicodeEncodeError):
        run(capsys, "represent", str(PAGE), "--out", str(target))
    assert target.read_text(encoding="utf-8") == "the earlier document\n"
    assert [p.name for p in tmp_path.iterdir()] == ["page.json"]
