"""A method's parameters (an extractor's `parameters` property, recorded in run.json, compared on resume and read
for a bench's in-sample figures) that fail to be read raise their error, as its call settings already do
(`call_settings`): `getattr(extractor, "parameters", {})` took an AttributeError raised inside the property (an
attribute not set) for a method without parameters, so a run.json said "parameters": {} and a bench reported the
method's figures as made without a model file."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.extract import create
from recordlens.core.extract.base import Extraction
from recordlens.core.page.dom import Page
from recordlens.core.runs import bench
from recordlens.core.runs.run_files import META_DIR
from recordlens.core.runs.runner import method_parameters, run_extractor
from tests.core.cli_runs import DEMO

pytestmark = pytest.mark.timeout(300)


class ParametersThatFail:
    """The MDR method, with parameters whose property fails inside, reading an attribute never set."""

    def __init__(self) -> None:
        self.inner = create("mdr")
        self.name, self.version = self.inner.name, self.inner.version

    @property
    def parameters(self) -> dict[str, object]:
        return {"k": self.threshold_not_set}  # type: ignore[attr-defined] - the fault under test

    def extract(self, page: Page) -> Extraction:
        return self.inner.extract(page)


class NoParameters:
    name, version = "none", "1"


class ParametersOfItsOwn:
    parameters = {"k": 10}  # noqa: RUF012 - read only


def test_method_parameters_raises_the_propertys_error_and_tells_a_method_without_any() -> None:
    with pytest.raises(AttributeError, match="threshold_not_set"):
        method_parameters(ParametersThatFail())
    assert method_parameters(NoParameters()) == {}
    assert method_parameters(ParametersOfItsOwn()) == {"k": 10}
    assert method_parameters(create("mdr")) == create("mdr").parameters


def test_extract_raises_before_it_writes_a_run_description_without_parameters(tmp_path: Path) -> None:
    out = tmp_path / "run"
    with pytest.raises(AttributeError, match="threshold_not_set"):
        run_extractor(ParametersThatFail(), DEMO / "html", out)  # type: ignore[arg-type]
    assert not (out / META_DIR / "run.json").exists()
    assert not list(out.glob("*.json"))


def test_bench_raises_rather_than_report_a_method_without_its_parameters(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "make_extractor", lambda spec, *args, **kwargs: ParametersThatFail())
    with pytest.raises(AttributeError, match="threshold_not_set"):
        bench.run_bench(DEMO / "html", DEMO / "gt", bench.parse_methods("mdr"))
