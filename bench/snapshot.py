"""Seconds to read MHTML archives of growing size (about 4.7 MB and 60 MB), against Python's own MIME parser
(`email.message_from_bytes`) splitting the same archive into its parts, in the same run; each time the best of
`--repeat` runs (default 3). The baseline splits the archive into its parts and reads their headers, as the reader
does; unlike the reader it leaves the parts' bodies encoded. A `bytes.decode` of the HTML, the baseline before,
took under a millisecond on the smaller archive, too little to steady the ratio (it read 56 and 97 for one
archive in two runs).

Usage: python bench/snapshot.py [--repeat N]"""

from __future__ import annotations

import argparse
import email

from timing import best_time

from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import Resource, read_snapshot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"best of {args.repeat}")
    print(f"{'archive':>10} {'read s':>8} {'email s':>8} {'ratio':>6}")
    for cards, images in ((50_000, 20), (800_000, 40)):
        html = "<html><body>" + '<div class="card">Caméra numérique = 399 €</div>\n' * cards + "</body></html>"
        resources = [Resource(f"https://example.com/{i}.png", None, "image/png", bytes(40_000)) for i in range(images)]
        data = mhtml_bytes(html, resources=resources)
        read = best_time(args.repeat, lambda data=data: read_snapshot(data))
        baseline = best_time(args.repeat, lambda data=data: email.message_from_bytes(data))
        print(f"{len(data) / 1e6:8.1f}MB {read:8.3f} {baseline:8.3f} {read / baseline:6.2f}")


if __name__ == "__main__":
    main()
