"""bench/mdr_vs_reference.py scores our MDR records against the reference's XPaths, which start at /html[1] where
ours start at /body[1]. A verifier read that the F1 was scored against the unstripped XPaths (the stripped ones were
used only for the "identical" column) and guessed the F1 was wrong: it is not, since scoring normalises every XPath
as the reference does (/html[1] dropped). Checked here on a synthetic page."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.page.dom import parse_html
from recordlens.core.records.model import TextKeyIndex
from tests.script_modules import script_module

BENCH = Path(__file__).resolve().parents[2] / "bench"
PAGE = "<html><body><ul><li>one a</li><li>two b</li><li>three c</li></ul><p>footer</p></body></html>"


def test_the_reference_s_html_prefix_changes_neither_the_f1_nor_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))  # as `python bench/NAME.py` runs
    script = script_module(BENCH / "mdr_vs_reference.py", "recordlens_bench_mdr_vs_reference")
    keys = TextKeyIndex(parse_html(PAGE).text_map)
    ours = [[f"/body[1]/ul[1]/li[{i}]"] for i in (1, 2, 3)]
    assert script.agreement(ours, [["/html[1]" + x for x in r] for r in ours], keys) == (1.0, True)
    # Two of their three records ours, the third another: F1 2/3 whether or not their XPaths start at /html[1].
    theirs = [*ours[:2], ["/body[1]/p[1]"]]
    f1, identical = script.agreement(ours, [["/html[1]" + x for x in r] for r in theirs], keys)
    assert f1 == pytest.approx(2 / 3) and not identical
    assert script.agreement(ours, theirs, keys)[0] == f1
