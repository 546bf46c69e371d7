"""Draws RecordLens's icon, resources/icons/recordlens.png (the windows' icon, and the desktop entry's): a
saved page whose records are boxed in the app's first three record colours, under a lens. Run it again after
changing the drawing; the PNG is committed, so a build never needs this script.

    python packaging/make_icon.py [OUT.png] [--size 256]
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw

# The annotator's first record colours (annotator's page view palette): the icon shows what the app shows.
RECORD_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c")
BACKGROUND = "#1f2a37"
PAGE = "#f8f9fa"
TEXT = "#ced4da"
LENS = "#868e96"  # mid grey: visible on the white page and on the dark ground alike
GLASS = (116, 192, 252, 80)
SUPERSAMPLE = 4  # drawn large and scaled down: Pillow's shapes have no antialiasing of their own

DEFAULT_OUT = Path(__file__).resolve().parents[1] / "resources" / "icons" / "recordlens.png"


def draw_icon(size: int = 256) -> Image.Image:
    s = size * SUPERSAMPLE
    u = s / 64  # the drawing is laid out on a 64-unit grid

    def box(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        return (x0 * u, y0 * u, x1 * u, y1 * u)

    image = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(box(2, 2, 62, 62), radius=12 * u, fill=BACKGROUND)
    draw.rounded_rectangle(box(10, 8, 46, 56), radius=3 * u, fill=PAGE)
    for row, colour in enumerate(RECORD_COLOURS):
        top = 13 + row * 14
        draw.rectangle(box(14, top, 42, top + 10), outline=colour, width=round(1.6 * u))
        draw.rectangle(box(18, top + 3, 32, top + 4.5), fill=TEXT)
        draw.rectangle(box(18, top + 6, 28, top + 7.5), fill=TEXT)
        draw.ellipse(box(11.5, top - 2.5, 16.5, top + 2.5), fill=colour)  # the record's numbered badge
    # The lens over the middle record: a ring, a faint glass, a handle to the corner.
    glass = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(glass).ellipse(box(30, 28, 50, 48), fill=GLASS)
    image = Image.alpha_composite(image, glass)  # drawn directly, the tint would replace the page, not tint it
    draw = ImageDraw.Draw(image)
    draw.line(box(47, 45, 56, 54), fill=LENS, width=round(5 * u))
    draw.ellipse(box(30, 28, 50, 48), outline=LENS, width=round(3.2 * u))
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--size", type=int, default=256)
    args = parser.parse_args(argv)
    draw_icon(args.size).save(args.out, "PNG", optimize=True)
    print(f"wrote {args.out} ({args.size}x{args.size})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
