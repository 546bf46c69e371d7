"""A method's call settings (a model-calling extractor's `settings` property, recorded in run.json and a bench's
report) that fail to be read raise their error, as `extract_pages` already did: `extract`'s run description and
`bench`'s provenance read them through `getattr(extractor, "settings", {})`, which takes an AttributeError raised
inside the property (a caller not set up) for a method without settings, so a run.json said "settings": {} (no
endpoint: a resume against another endpoint would mix answers) and a bench reported figures without them."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.extract import create
from recordlens.core.extract.base import Extraction
from recordlens.core.page.dom import Page
from recordlens.core.runs import bench
from recordlens.core.runs.run_files import META_DIR, call_settings
from recordlens.core.runs.runner import run_extractor
from tests.core.cli_runs import DEMO

pytestmark = pytest.mark.timeout(300)


class SettingsThatFail:
    """The MDR method, with call settings whose property fails inside as a caller not set up makes it fail."""

    def __init__(self) -> None:
        self.inner = create("mdr")
        self.name, self.version = self.inner.name, self.inner.version
        self.parameters = getattr(self.inner, "parameters", {})
        self.caller = None

    @property
    def settings(self) -> dict[str, object]:
        return {"base_url": self.caller.recorded_base_url}  # type: ignore[attr-defined] - None has none

    def extract(self, page: Page) -> Extraction:
        return self.inner.extract(page)


class NoSettings:
    name, version = "none", "1"


class SettingsOfItsOwn:
    settings = {"base_url": "http://127.0.0.1:1/"}  # noqa: RUF012 - read only


def test_call_settings_raises_the_propertys_error_and_tells_a_method_without_any() -> None:
    with pytest.raises(AttributeError, match="recorded_base_url"):
        call_settings(SettingsThatFail())
    assert call_settings(NoSettings()) is None
    assert call_settings(SettingsOfItsOwn()) == {"base_url": "http://127.0.0.1:1/"}


def test_extract_raises_before_it_writes_a_run_description_without_settings(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with pytest.raises(AttributeError, match="recorded_base_url"):
        run_extractor(SettingsThatFail(), DEMO / "html", out)  # type: ignore[arg-type]
    assert not (out / META_DIR / "run.json").exists()
    assert not list(out.glob("*.json"))


def test_bench_raises_rather_than_report_a_method_without_its_settings(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "make_extractor", lambda spec, *args, **kwargs: SettingsThatFail())
    with pytest.raises(AttributeError, match="recorded_base_url"):
        bench.run_bench(DEMO / "html", DEMO / "gt", bench.parse_methods("mdr"))
