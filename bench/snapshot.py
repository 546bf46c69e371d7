"""Seconds to read MHTML archives of growing size (about 4.7 MB and 60 MB), against Python's own MIME parser
(`email.message_from_bytes`) splitting the same archive into its parts, in the same run. The reader and the parser
are timed in turn, round after round (`--rounds`, default 11): a busy spell of the machine falls on both alike, where
timing each in a block of its own swung the ratio from 0.51 to 0.87 between runs. Each time printed is the best of
the rounds; each ratio the median of the rounds' ratios, with their range. The baseline splits the archive into its
parts and reads their headers, as the reader does; unlike the reader it leaves the parts' bodies encoded. A
`bytes.decode` of the HTML, the baseline before, took under a millisecond on the smaller archive, too little to
steady the ratio (it read 56 and 97 for one archive in two runs).

Usage: python bench/snapshot.py [--rounds N]"""

from __future__ import annotations

import argparse
import email

from timing import interleaved_times, median_ratio, round_ratios

from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import Resource, read_snapshot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", "--repeat", type=int, default=11,
                        help="rounds of the reader and the parser, timed in turn (default 11)")
    args = parser.parse_args()
    print(f"{args.rounds} rounds, the reader and the parser timed in turn: the best seconds of each, the median of "
          "the rounds' ratios")
    print(f"{'archive':>10} {'read s':>8} {'email s':>8} {'ratio':>6}  rounds' range")
    for cards, images in ((50_000, 20), (800_000, 40)):
        html = "<html><body>" + '<div class="card">Caméra numérique = 399 €</div>\n' * cards + "</body></html>"
        resources = [Resource(f"https://example.com/{i}.png", None, "image/png", bytes(40_000)) for i in range(images)]
        data = mhtml_bytes(html, resources=resources)
        times = interleaved_times(args.rounds, {"read": lambda data=data: read_snapshot(data),
                                                "email": lambda data=data: email.message_from_bytes(data)})
        ratios = round_ratios(times["read"], times["email"])
        print(f"{len(data) / 1e6:8.1f}MB {min(times['read']):8.3f} {min(times['email']):8.3f} "
              f"{median_ratio(times['read'], times['email']):6.2f}  {min(ratios):.2f}-{max(ratios):.2f}")


if __name__ == "__main__":
    main()
