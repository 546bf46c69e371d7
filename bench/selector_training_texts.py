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
import json
import sys
from pathlib import Path

from dev_data import development_sets

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
    text = json.dumps(texts_document(development_sets()), indent=1) + "\n"
    if args.check:
        same = SHIPPED.is_file() and SHIPPED.read_text(encoding="utf-8") == text
        print(f"{SHIPPED}: {'as made' if same else 'DIFFERS from what the development pages give'}")
        return 0 if same else 1
    SHIPPED.write_text(text, encoding="utf-8")
    print(f"wrote {SHIPPED}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
