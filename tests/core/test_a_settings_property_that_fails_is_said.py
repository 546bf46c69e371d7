"""An extractor whose `settings` property fails part way (an attribute it reads is missing) is a fault to be said,
not a method without call settings: taken for one, every page's record of a run left out the endpoint that
answered it (on Ray a worker's shared budget lacked the caps `GeminiExtractor.settings` reads), and a later resume
with another --base-url kept the old endpoint's answers without a word."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.extract import create
from recordlens.core.extract.base import Extraction
from recordlens.core.page.dom import Page
from recordlens.core.resource_files import resource_path
from recordlens.core.runs.run_files import RunSummary, extract_pages

DEMO_PAGES = resource_path("demo", "dataset", "html")


class _SettingsThatFail:
    """The default method, with call settings whose property reads an attribute its caller lacks."""

    name = "repeats"

    def __init__(self) -> None:
        self._inner = create("repeats")
        self.version = self._inner.version

    @property
    def settings(self) -> dict[str, object]:
        return {"max_requests": self.caller_budget_cap}  # type: ignore[attr-defined] - the fault under test

    def extract(self, page: Page) -> Extraction:
        return self._inner.extract(page)


def test_a_settings_property_that_raises_attribute_error_is_raised_not_taken_for_no_settings(tmp_path: Path) -> None:
    files = {"1": DEMO_PAGES / "1.html"}
    with pytest.raises(AttributeError, match="caller_budget_cap"):
        extract_pages(_SettingsThatFail(), files, ["1"], tmp_path / "run", RunSummary(tmp_path / "run"),
                      resume=False)  # type: ignore[arg-type]


def test_a_method_without_call_settings_still_records_its_pages(tmp_path: Path) -> None:
    out = tmp_path / "run"
    summary = RunSummary(out)
    extract_pages(create("repeats"), {"1": DEMO_PAGES / "1.html"}, ["1"], out, summary, resume=False)
    assert summary.extracted == ["1"] and (out / "1.json").exists()
