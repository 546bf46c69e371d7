"""Write the text digests of the 80 pages the shipped selector model was trained on to
resources/models/selector-training-texts.json, so that `score` and `train --cv` know those pages by their texts
whatever their labels: a project's relabelled copy of the development pages is pages the shipped model was trained
on (under other labels), not pages it never saw. The model's own provenance knows each page by its texts and labels
together (`training.page_digest`); a text digest is the same digest without labels (`page_digest(page, [])`).

The pages read must be the model's pages exactly (their texts-and-labels digests are its provenance's), else nothing
is written.

Usage: python bench/selector_training_texts.py [--check]   (--check: exit 1 when the shipped file differs)"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dev_data import development_sets, write_or_check

from recordlens.core.extract.selector import load_model
from recordlens.core.records.hygiene import dataset_labels
from recordlens.core.runs.in_sample import SHIPPED_MODEL_TEXTS

SHIPPED = Path(__file__).resolve().parents[1] / "resources" / Path(*SHIPPED_MODEL_TEXTS)


def texts_document(sets: list[tuple[Path, Path]]) -> dict[str, object]:
    """The shipped file's content: the sorted text digests of the labelled pages of `sets`, which must be the pages
    the shipped model lists in its provenance."""
    from recordlens.core.extract.training import page_digest

    digests, texts = set(), set()
    for pages_dir, gt_dir in sets:
        for _, page, truth in dataset_labels(pages_dir, gt_dir):
            digests.add(page_digest(page, truth))
            texts.add(page_digest(page, []))
    model = load_model()
    if digests != model.trained_digests():
        raise SystemExit("these pages are not the ones the shipped model was trained on (their digests differ)")
    return {"about": "training.page_digest(page, []) of each page the shipped selector model was trained on (its "
                     "texts, without labels); made by bench/selector_training_texts.py",
            "model": model.digest, "pages": len(texts), "digests": sorted(texts)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing it")
    args = parser.parse_args()
    return write_or_check(SHIPPED, texts_document(development_sets()), check=args.check)

if __name__ == "__main__":
    sys.exit(main())
