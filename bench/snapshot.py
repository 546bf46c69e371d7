"""Seconds to read MHTML archives of growing size (3 MB and 50 MB), against `bytes.decode` of the same HTML; each
time the best of `--repeat` runs (default 3).

Usage: python bench/snapshot.py [--repeat N]"""

from __future__ import annotations

import argparse

from timing import best_time

from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import Resource, read_snapshot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"best of {args.repeat}")
    print(f"{'archive':>10} {'read s':>8} {'decode s':>9} {'ratio':>6}")
    for cards, images in ((50_000, 20), (800_000, 40)):
        html = "<html><body>" + '<div class="card">Caméra numérique = 399 €</div>\n' * cards + "</body></html>"
        resources = [Resource(f"https://example.com/{i}.png", None, "image/png", bytes(40_000)) for i in range(images)]
        data = mhtml_bytes(html, resources=resources)
        encoded = html.encode("utf-8")
        read = best_time(args.repeat, lambda data=data: read_snapshot(data))
        decode = best_time(args.repeat, lambda encoded=encoded: encoded.decode("utf-8"))
        print(f"{len(data) / 1e6:8.1f}MB {read:8.3f} {decode:9.4f} {read / decode:6.0f}")


if __name__ == "__main__":
    main()
