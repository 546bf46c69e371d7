"""`extract --model MODEL` with a model of one stage (trained on too few pages) says once, before its pages, that
its proposals may be far off, as `train` says when it writes such a model and the app's Propose each time it uses
one. It used to say nothing but, page by page, that no region was likely enough to hold records."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.extract import create
from recordlens.core.extract.selector import caution_before_a_run
from tests.core.catalogue_pages import write_dataset
from tests.core.cli_runs import run

pytestmark = pytest.mark.usefixtures("quick_fits")

ONE_STAGE = ("is of one stage only, from 1 labelled page (a second stage needs 6): its proposals may be far off on "
             "pages it was not trained on; train it on more labelled pages (`recordlens train`), or check its "
             "proposals against labels (`recordlens score`) before relying on them")


def one_page_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path]:
    """A model trained on one page (one stage), and a folder of two pages to extract."""
    pages, gt = write_dataset(tmp_path / "one", [None], seed=5)  # type: ignore[list-item]
    model = tmp_path / "m_one.json"
    code, _, err = run(capsys, "train", "--pages", str(pages), "--gt", str(gt), "--out", str(model), "-q",
                       "--workers", "1")
    assert code == 0, err
    others, _ = write_dataset(tmp_path / "others", [None, None], seed=7)  # type: ignore[list-item]
    return model, others


@pytest.mark.timeout(300)
def test_extract_with_a_one_stage_model_says_so_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model, others = one_page_model(tmp_path, capsys)
    code, _, err = run(capsys, "extract", "--model", str(model), "--pages", str(others), "--out",
                       str(tmp_path / "run"), "-q")
    assert code == 0, err
    assert err.count(ONE_STAGE) == 1, err
    assert f"warning: the model {model.resolve()} {ONE_STAGE}" in err, err


def test_the_shipped_model_and_other_extractors_are_not_cautioned() -> None:
    assert caution_before_a_run(create("selector")) is None
    assert caution_before_a_run(create("repeats")) is None


@pytest.mark.timeout(300)
def test_a_one_stage_model_is_cautioned_in_the_words_of_train(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    model, _ = one_page_model(tmp_path, capsys)
    assert caution_before_a_run(create("selector", model=str(model))) == f"the model {model.resolve()} {ONE_STAGE}"
