"""Score a run (a folder of `N.json` predictions) against a dataset, page by page, as NEXT-EVAL does."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from .dataset import find_page_file, load_page, record_files
from .errors import DatasetError, RecordLensError
from .records import TextKeyIndex, load_records
from .score import DatasetScore, PageScore, score_page

Progress = Callable[[Iterable[str]], Iterable[str]]


def score_run(pred_dir: str | Path, gt_dir: str | Path, pages_dir: str | Path,
              progress: Progress = lambda names: names) -> tuple[DatasetScore, list[str]]:
    """Score every page that has ground truth; a missing prediction counts as an empty one, with a warning.

    Returns the scores and the run-level warnings (missing files, malformed records files...).
    """
    pred_dir, pages_dir = Path(pred_dir), Path(pages_dir)
    truths = record_files(gt_dir)
    if not truths:
        raise DatasetError(f"{gt_dir}: no ground-truth files (N.json)")
    if not pred_dir.is_dir():
        raise DatasetError(f"{pred_dir}: no such folder of predictions")
    warnings: list[str] = []
    pages: list[PageScore] = []
    for name in progress(list(truths)):
        page_file = find_page_file(pages_dir, name)
        if page_file is None:
            raise DatasetError(f"{pages_dir}: no page {name}.html or {name}.mhtml for ground truth {name}.json")
        true = load_records(truths[name])
        warnings.extend(true.warnings)
        pred_path = pred_dir / f"{name}.json"
        if pred_path.exists():
            try:
                predicted_file = load_records(pred_path)
                predicted = predicted_file.records
                warnings.extend(predicted_file.warnings)
            except RecordLensError as error:
                warnings.append(f"{error}; scored as an empty prediction")
                predicted = []
        else:
            warnings.append(f"page {name}: no prediction {pred_path}; scored as an empty prediction")
            predicted = []
        loaded = load_page(page_file, name)
        pages.append(score_page(predicted, true.records, TextKeyIndex(loaded.page.text_map), name))
    return DatasetScore(pages), warnings
