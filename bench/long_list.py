"""The selector on one long list: a table of N rows (a seeded order list, the rest of the page small), for N = 300,
1000, 3000 and 6000. Prints, for each N, the extraction's seconds (the page parsed before, not timed in it), the
bare `lxml.html` parse of the same page in the same round as its baseline, and the growth against the first N:
near-linear means the time grows as the rows do (the candidates of one template once grew with their square).

    python bench/long_list.py [N ...]
"""

from __future__ import annotations

import argparse
import random

import lxml.html
from timing import interleaved_times

from recordlens.core.extract.selector import SelectorExtractor
from recordlens.core.page.dom import parse_html

ROWS = (300, 1000, 3000, 6000)
ROUNDS = 3


def orders_page(rows: int, seed: int = 1) -> str:
    """A page holding one table of `rows` orders, each row six cells (number, linked name, city, date, total,
    status)."""
    draw = random.Random(seed)
    body = "".join(
        f'<tr><td>{10000 + i}</td><td><a href="/o/{i}">Name {draw.randint(0, 10**6)}</a></td><td>City {i % 37}</td>'
        f"<td>{draw.randint(1, 28)}/05/2026</td><td>${draw.randint(1, 999)}</td><td>paid</td></tr>"
        for i in range(rows))
    return ("<html><body><main><table><thead><tr><th>No</th><th>Name</th><th>City</th><th>Date</th><th>Total</th>"
            f"<th>St</th></tr></thead><tbody>{body}</tbody></table></main></body></html>")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", nargs="*", type=int, default=list(ROWS))
    args = parser.parse_args()
    extractor = SelectorExtractor()
    extractor.extract(parse_html(orders_page(10)))  # the model loaded before any time is taken
    first: float | None = None
    print(f"{'rows':>6} {'kB':>6} {'records':>8} {'extract s':>10} {'lxml s':>8} {'ratio':>7} {'growth':>7}")
    for rows in args.rows:
        html = orders_page(rows)
        page = parse_html(html)
        found: list[int] = []
        times = interleaved_times(ROUNDS, {
            "extract": lambda page=page, found=found: found.append(len(extractor.extract(page).records)),
            "lxml": lambda html=html: lxml.html.fromstring(html),
        })
        seconds, baseline = min(times["extract"]), min(times["lxml"])
        first = first or seconds / rows
        print(f"{rows:>6} {len(html) / 1e3:>6.0f} {found[-1]:>8} {seconds:>10.3f} {baseline:>8.4f} "
              f"{seconds / baseline:>6.0f}x {seconds / rows / first:>6.2f}x")
    print(f"(best of {ROUNDS} rounds each, extraction and parse in turn; ratio: extraction over the parse; growth:"
          " seconds per row against the first size's, 1.00x is linear)")


if __name__ == "__main__":
    main()
