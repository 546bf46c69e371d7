"""Write the digests of the pages repeats' hand rules were tuned on (the 40 pages of nexteval-synth-dev) to
resources/models/repeats-tuning-pages.json, so that `score`, `bench` and `bench --cv` know those pages by content,
whatever their folder is called, as the selector's model knows the pages it was trained on. A digest is
`training.page_digest`: a page's texts where they stand and its labels.

Usage: python bench/repeats_tuning_pages.py [--check]   (--check: exit 1 when the shipped file differs)"""

from __future__ import annotations

import argparse
from pathlib import Path

from dev_data import DEV, require, write_or_check

from recordlens.core.records.hygiene import dataset_labels
from recordlens.core.runs.in_sample import REPEATS_TUNING_PAGES, digests_of

SHIPPED = Path(__file__).resolve().parents[1] / "resources" / Path(*REPEATS_TUNING_PAGES)


def tuning_document(pages_dir: Path, gt_dir: Path) -> dict[str, object]:
    """The shipped file's content: the sorted digests of the dataset's labelled pages, and what they are."""
    digests = sorted({digest for _, digest in digests_of(dataset_labels(pages_dir, gt_dir))})
    return {"about": "training.page_digest of each page repeats' hand rules were tuned on (its texts and labels); "
                     "made by bench/repeats_tuning_pages.py",
            "dataset": "nexteval-synth-dev", "pages": len(digests), "digests": digests}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the shipped file instead of writing it")
    args = parser.parse_args()
    require(DEV / "html")
    return write_or_check(SHIPPED, tuning_document(DEV / "html", DEV / "gt"), check=args.check)

if __name__ == "__main__":
    raise SystemExit(main())
