"""Deterministic bad inputs for the core pipeline (snapshot -> DOM -> formats -> scoring, and the CLI).

Every case is a `Case` known at collection time (so its pytest id is stable); its bytes are made when the test
runs, from a seed page and a mutation, with `random.Random(f"{FUZZ_SEED}:{case.id}")`: the same bytes on every
run, whichever cases are selected. Seeds are the demo pages, a few NEXT-EVAL dev pages (the test asks for the
`dev_dir` fixture for those) and MHTML made from them with `mhtml_bytes`. Synthetic cases need no seed: deep
nesting, a 50 MB text node, markup soup, unpaired surrogates...

What a case promises (`Expect`):

- EXACT: it must be read, and its text map must equal the seed page's (the mutation loses nothing).
- INTACT: a clear error, or a text map equal to the seed page's (reading must not silently lose records).
- STATED: as INTACT, or a page with a different text if a warning says something is off (the damage is
  structural and the reader may guess, but not silently).
- ERROR: a clear error.
- ANY: a clear error, or a page for which every invariant holds (the bytes themselves are damaged).
"""

from __future__ import annotations

import base64
import binascii
import enum
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from recordlens.core.page.dom import parse_html
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import Resource, read_snapshot

FUZZ_SEED = 1234
ROOT = Path(__file__).resolve().parents[2]
DEMO_HTML = ROOT / "resources" / "demo" / "dataset" / "html"
DEMO_SEEDS = ("demo1", "demo2", "demo3", "demo4")
DEV_SEEDS = ("dev111", "dev46")  # 5 KB and 39 KB NEXT-EVAL dev pages
BIG_TEXT_BYTES = 50 * 1024 * 1024
DEEP = 10_000


class Expect(enum.Enum):
    EXACT = "exact"
    INTACT = "intact"
    STATED = "stated"
    ERROR = "error"
    ANY = "any"


@dataclass(frozen=True)
class Case:
    id: str
    seed: str | None  # a name from DEMO_SEEDS or DEV_SEEDS; None for a synthetic case
    kind: str  # "html", "mhtml" or "synthetic"
    mutation: str

    @property
    def needs_dev_data(self) -> bool:
        return self.seed is not None and self.seed.startswith("dev")


@dataclass
class FuzzInput:
    """One input: bytes (read as a file would be) or a str (given straight to `parse_html`)."""

    data: bytes | str
    suffix: str
    expect: Expect
    seed_html: str | None = None
    # a text the page must hold in full when it is read (the 50 MB node): (text-map key, text)
    must_keep: tuple[str, str] | None = None
    notes: list[str] = field(default_factory=list)


def rng_for(case: Case) -> random.Random:
    return random.Random(f"{FUZZ_SEED}:{case.id}")


# ---------------------------------------------------------------------------------------------------------------
# Seeds


@lru_cache(maxsize=16)
def seed_html(seed: str, dev_dir: Path | None) -> str:
    if seed in DEMO_SEEDS:
        path = DEMO_HTML / f"{seed.removeprefix('demo')}.html"
    else:
        if dev_dir is None:
            raise ValueError(f"seed {seed} needs the dev data folder")
        path = dev_dir / "html" / f"{seed.removeprefix('dev')}.html"
    return read_snapshot(path).html


@lru_cache(maxsize=16)
def seed_text_map(html: str) -> dict[str, str]:
    return parse_html(html).text_map


def seed_resources(seed: str) -> list[Resource]:
    rng = random.Random(f"{FUZZ_SEED}:resources:{seed}")
    png = b"\x89PNG\r\n\x1a\n" + bytes(rng.randrange(256) for _ in range(3000))
    return [
        Resource("https://fuzz.example/style.css", None, "text/css", b"body{color:#222}\n/* caf\xc3\xa9 */\n" * 20),
        Resource("https://fuzz.example/logo.png", "logo@fuzz", "image/png", png),
        Resource("https://fuzz.example/frame.html", None, "text/html", b"<html><body><p>the frame</p></body></html>"),
    ]


_DATE = re.compile(rb"^Date: [^\r\n]*", re.MULTILINE)


@lru_cache(maxsize=16)
def seed_mhtml(seed: str, html: str) -> bytes:
    """The seed page as MHTML (made once per seed: every MHTML mutation of the seed starts from these bytes)."""
    data = mhtml_bytes(html, url=f"https://fuzz.example/{seed}", resources=seed_resources(seed))
    return _DATE.sub(b"Date: Tue, 14 May 2024 07:12:45 -0000", data, count=1)  # the same bytes on every day


# ---------------------------------------------------------------------------------------------------------------
# Byte-level helpers


def truncate(data: bytes, start: int, end: int, rng: random.Random) -> bytes:
    return data[: rng.randrange(max(start, 1), max(end, start + 1, 2))]


def flip_bytes(data: bytes, rng: random.Random, count: int = 8) -> bytes:
    out = bytearray(data)
    for _ in range(count):
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return bytes(out)


def insert(data: bytes, position: int, junk: bytes) -> bytes:
    return data[:position] + junk + data[position:]


def junk_bytes(rng: random.Random, size: int) -> bytes:
    return bytes(rng.randrange(256) for _ in range(size))


_META = re.compile(rb"<meta\s+charset=[\"']?[A-Za-z0-9._:-]*[\"']?\s*/?>", re.IGNORECASE)
_HEAD = re.compile(rb"<head\b[^>]*>", re.IGNORECASE)


def with_meta_charset(data: bytes, label: str) -> bytes:
    """The page with its <meta charset> saying `label` (replaced, or added at the start of <head>)."""
    meta = f'<meta charset="{label}">'.encode("ascii")
    if _META.search(data):
        return _META.sub(meta, data, count=1)
    head = _HEAD.search(data)
    if head:
        return insert(data, head.end(), meta)
    return meta + data


def body_position(text: str, rng: random.Random) -> int:
    """A random position between two tags inside <body>, so inserted markup is not inside an attribute."""
    start = text.lower().find("<body")
    start = start if start >= 0 else 0
    gaps = [m.start() + 1 for m in re.finditer(r">\s*<", text[start:])]
    return start + (rng.choice(gaps) if gaps else 0)


def inject(html: str, markup: str, rng: random.Random) -> bytes:
    position = body_position(html, rng)
    return (html[:position] + markup + html[position:]).encode("utf-8")


# ---------------------------------------------------------------------------------------------------------------
# Markup for injections and synthetic pages

SVG_MATH_SOUP = (
    '<svg viewBox="0 0 10 10"><linearGradient id="g"><stop/></linearGradient><foreignObject><div><p>in foreign'
    "<math><mi>x</mi><mo>+</mo><mtext><b>mtext html</b></mtext><annotation-xml encoding='text/html'><div>ax</div>"
    "</annotation-xml></math></p></div></foreignObject><clipPath><text>svg text</text></clipPath><desc><p>desc p"
    "</desc><title>svg title</title><![CDATA[ cdata in svg ]]></svg><math><mglyph/><malignmark/><svg><p>breakout"
)
TEMPLATE_SOUP = (
    "<template id=t><tr><td>template cell</td></tr><template><p>nested</p></template></template>"
    "<iframe srcdoc='<p>x</p>'><p>iframe raw <b>text</b></p></iframe><noscript><p>noscript para</p></noscript>"
    "<noembed><b>noembed</b></noembed><table><template><td>in table</td></template><tr><td>cell</td></tr></table>"
    "<select><template><option>opt</option></template></select><xmp><b>xmp</b></xmp>"
)
COMMENT_SOUP = (
    "<!-- unterminated <p>swallowed?</p> --!><p>after bang</p><!--><p>abrupt</p><!---><p>abrupt2</p>"
    "<!-- -- -- --><p>dashes</p><![CDATA[ not cdata in html ]]><p>after cdata</p><?xml version='1.0'?>"
    "<p>after pi</p><!DOCTYPE html PUBLIC \"x><p>in doctype</p><!DOCTYPE><p>after doctype</p></><p>e</p><>"
    "<!ELEMENT x><p>after bogus</p>"
)
UNICODE_SOUP = (
    "<p>👩‍👩‍👧‍👦 family</p><p>🏳️‍🌈 flag</p><p>e\u0301\u0302\u0303\u0304 marks</p><p>\u0301\u0301\u0301</p>"
    "<p>\u200b</p><p>\u200c</p><p>\"</p><p>\ufeff\u00a0\u3000</p><p>\u202eRTL override\u202c</p>"
    "<p>line\u2028sep\u2029para</p><p>a\\nb\\\\c: d</p><p>x\ud7ff\ue000\uffff\U0010ffff</p>"
    "<p>Z̤̺̦̤̰̠̞̃̓̓̎ͤ͒a̮̩̞͎̦̘̮̙̯̹̎̆̓ͮͥ̇̾l̟͓̦͇͕̫̎ͤ͌͂̆͗ͬg̝̹̦̩̅̓o̻̝̩͍̗̩ͧ̉ͣ͌̾̓</p><p>\x01\x02\x0b\x1f\x7f\x85 controls</p>"
)
WEIRD_TAGS = "<x]>bracket</x]><p[2]>indexed</p[2]><a:b>colon</a:b><café>accent</café><x-y>dash</x-y>"


@lru_cache(maxsize=1)
def big_text() -> str:
    """About 50 MB of text (UTF-8) for one text node: words, blanks, newlines, entities to escape, non-ASCII."""
    rng = random.Random(f"{FUZZ_SEED}:big-text")
    words = ["record", "lens", "café", "naïve", "😀", "a&b", "x<y", "e\u0301", "日本語", "\t", "\n", "  ", "=3D"]
    block = " ".join(rng.choice(words) for _ in range(4000)) + "\n"
    repeats = BIG_TEXT_BYTES // len(block.encode("utf-8"))
    return "X" + block * repeats + "Y"  # no blank at either end, so the text map holds it as is


@lru_cache(maxsize=1)
def big_text_html() -> str:
    escaped = big_text().replace("&", "&amp;").replace("<", "&lt;")
    return f"<!DOCTYPE html><html><head><title>big</title></head><body><p>{escaped}</p></body></html>\n"


def _siblings(rng: random.Random) -> str:
    return "<ul>" + "".join(f"<li>item {i} {rng.randrange(10**6)}</li>" for i in range(20_000)) + "</ul>"


def _deep_text_each_level() -> str:
    return "<section>" + "".join(f"<div>level {i}" for i in range(2_000)) + "</section><p>after</p>"


def html_page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><title>fuzz</title></head><body>{body}</body></html>\n"


# ---------------------------------------------------------------------------------------------------------------
# Mutations of a seed page saved as plain HTML

HtmlMutation = Callable[[str, bytes, random.Random], tuple[bytes, Expect]]


def _utf16_without_bom(html: str, data: bytes, rng: random.Random) -> tuple[bytes, Expect]:
    return html.encode("utf-16-le"), Expect.ANY


HTML_MUTATIONS: dict[str, HtmlMutation] = {
    "identity": lambda h, d, r: (d, Expect.EXACT),
    "trunc-1": lambda h, d, r: (truncate(d, 1, len(d), r), Expect.ANY),
    "trunc-2": lambda h, d, r: (truncate(d, 1, len(d), r), Expect.ANY),
    "trunc-head": lambda h, d, r: (truncate(d, 1, max(d.find(b"<body"), 2), r), Expect.ANY),
    "flip-1": lambda h, d, r: (flip_bytes(d, r), Expect.ANY),
    "flip-2": lambda h, d, r: (flip_bytes(d, r, 200), Expect.ANY),
    "junk-1": lambda h, d, r: (insert(d, r.randrange(len(d)), junk_bytes(r, 64)), Expect.ANY),
    "junk-2": lambda h, d, r: (insert(d, r.randrange(len(d)), junk_bytes(r, 4096)), Expect.ANY),
    "nul": lambda h, d, r: (insert(insert(d, r.randrange(len(d)), b"\x00" * 3), r.randrange(len(d)), b"\x00"),
                            Expect.ANY),
    "meta-shift_jis": lambda h, d, r: (with_meta_charset(d, "shift_jis"), Expect.ANY),
    "meta-latin-1": lambda h, d, r: (with_meta_charset(d, "latin-1"), Expect.ANY),
    "meta-iso-8859-1": lambda h, d, r: (with_meta_charset(d, "iso-8859-1"), Expect.ANY),
    "meta-utf-16": lambda h, d, r: (with_meta_charset(d, "utf-16"), Expect.EXACT),  # the standard reads UTF-8
    "meta-unknown": lambda h, d, r: (with_meta_charset(d, "x-klingon-9"), Expect.EXACT),  # ignored: UTF-8
    "meta-base64-codec": lambda h, d, r: (with_meta_charset(d, "base64"), Expect.EXACT),  # not a text codec
    "meta-x-user-defined": lambda h, d, r: (with_meta_charset(d, "x-user-defined"), Expect.ANY),
    "cp1252-bytes-meta-utf8": lambda h, d, r: (with_meta_charset(h.encode("cp1252", "replace"), "utf-8"),
                                               Expect.ANY),
    "shift_jis-bytes-meta-utf8": lambda h, d, r: (with_meta_charset(h.encode("shift_jis", "replace"), "utf-8"),
                                                  Expect.ANY),
    "cp1252-bytes-no-meta": lambda h, d, r: (_META.sub(b"", h.encode("cp1252", "replace")), Expect.ANY),
    "bom-utf8": lambda h, d, r: (b"\xef\xbb\xbf" + d, Expect.EXACT),
    "bom-utf8-meta-shift_jis": lambda h, d, r: (b"\xef\xbb\xbf" + with_meta_charset(d, "shift_jis"), Expect.EXACT),
    "bom-utf16le": lambda h, d, r: (h.encode("utf-16"), Expect.EXACT),  # "utf-16" writes a BOM
    "bom-utf16be": lambda h, d, r: (b"\xfe\xff" + h.encode("utf-16-be"), Expect.EXACT),
    "utf16le-no-bom": _utf16_without_bom,
    "lf-to-crlf": lambda h, d, r: (d.replace(b"\n", b"\r\n"), Expect.EXACT),
    "lf-to-cr": lambda h, d, r: (d.replace(b"\n", b"\r"), Expect.EXACT),
    "inject-comment-doctype-soup": lambda h, d, r: (inject(h, COMMENT_SOUP, r), Expect.ANY),
    "inject-svg-mathml": lambda h, d, r: (inject(h, SVG_MATH_SOUP, r), Expect.ANY),
    "inject-template-iframe-noscript": lambda h, d, r: (inject(h, TEMPLATE_SOUP, r), Expect.ANY),
    "inject-unicode": lambda h, d, r: (inject(h, UNICODE_SOUP, r), Expect.ANY),
    "inject-huge-attribute": lambda h, d, r: (inject(h, f'<p title="{"A" * 2_000_000}">t</p>', r), Expect.ANY),
    "inject-unclosed-attribute": lambda h, d, r: (inject(h, '<p title="never closed>', r), Expect.ANY),
    "inject-siblings": lambda h, d, r: (inject(h, _siblings(r), r), Expect.ANY),
    "named-mhtml": lambda h, d, r: (d, Expect.EXACT),  # plain HTML in a .mhtml file
}


# ---------------------------------------------------------------------------------------------------------------
# Mutations of a seed page saved as MHTML


@dataclass
class Layout:
    """Where things are in an archive `seed_mhtml` wrote: HTML part first, then css, png, frame."""

    data: bytes
    boundary: bytes
    body_start: int  # after the top header block
    delimiters: list[int]  # each "--boundary" at a line start; the last is the closing one

    @classmethod
    def of(cls, data: bytes) -> Layout:
        boundary = re.search(rb'boundary="([^"]+)"', data).group(1)  # type: ignore[union-attr]
        body_start = data.index(b"\r\n\r\n") + 4
        delimiters = [m.start() for m in re.finditer(b"(?m)^--" + re.escape(boundary), data)]
        return cls(data, boundary, body_start, delimiters)

    def part(self, number: int) -> tuple[int, int, int]:
        """(start of its headers, start of its body, end of its body) for part 1 (the HTML), 2, 3..."""
        line_end = self.data.index(b"\r\n", self.delimiters[number - 1]) + 2
        body = self.data.index(b"\r\n\r\n", line_end) + 4
        return line_end, body, self.delimiters[number] - 2

    def cut_in(self, start: int, end: int, rng: random.Random) -> bytes:
        return self.data[: rng.randrange(start, max(end, start + 1))]


MhtmlMutation = Callable[[Layout, random.Random], tuple[bytes, Expect]]


def _trunc_soft_break(layout: Layout, rng: random.Random) -> tuple[bytes, Expect]:
    start, body, end = layout.part(1)
    breaks = [m.start() for m in re.finditer(rb"=\r\n", layout.data[body:end])]
    if not breaks:
        return layout.cut_in(body, end, rng), Expect.INTACT
    cut = body + rng.choice(breaks) + rng.choice((1, 2))  # after "=" or between "=\r" and "\n"
    return layout.data[:cut], Expect.INTACT


def _trunc_after_html_end(layout: Layout, rng: random.Random) -> tuple[bytes, Expect]:
    _, body, end = layout.part(1)
    close = layout.data.rfind(b"</html>", body, end)
    return layout.data[: (close + 7) if close >= 0 else end], Expect.INTACT


def _replace_header(layout: Layout, pattern: bytes, replacement: bytes, part: int | None = None) -> bytes:
    """Replace a header line (regex `pattern`, matched at a line start) in the top block or in one part."""
    start, end = (0, layout.body_start) if part is None else layout.part(part)[:2]
    block = re.sub(b"(?im)^" + pattern, replacement, layout.data[start:end], count=1)
    return layout.data[:start] + block + layout.data[end:]


def _html_charset(label: bytes) -> MhtmlMutation:
    def mutate(layout: Layout, rng: random.Random) -> tuple[bytes, Expect]:
        data = _replace_header(layout, rb"Content-Type: text/html; charset=utf-8",
                               b"Content-Type: text/html; charset=" + label, part=1)
        return data, Expect.EXACT if label in (b"x-bogus-charset", b'" UTF-8 "', b"utf-8\x00") else Expect.ANY

    return mutate


def _html_as_base64(layout: Layout, cut: bool = False, broken: bool = False) -> bytes:
    headers, body, end = layout.part(1)
    html = binascii.a2b_qp(layout.data[body:end].replace(b"\r\n", b"\n"))
    encoded = base64.encodebytes(html).replace(b"\n", b"\r\n").rstrip(b"\r\n")
    if broken:
        encoded = encoded[:40] + b"!@#$%=" + encoded[40:]
    block = layout.data[headers:body].replace(b"quoted-printable", b"base64")
    data = layout.data[:headers] + block + encoded + layout.data[end:]
    return data[: headers + len(block) + len(encoded) // 2] if cut else data


def _remove_line_at(data: bytes, offset: int) -> bytes:
    end = data.index(b"\n", offset) + 1
    return data[:offset] + data[end:]


def _dup_line_at(data: bytes, offset: int) -> bytes:
    end = data.index(b"\n", offset) + 1
    return data[:end] + data[offset:end] + data[end:]


def _many_parts(layout: Layout, rng: random.Random) -> tuple[bytes, Expect]:
    delimiter = b"--" + layout.boundary + b"\r\n"
    extra = b"".join(
        delimiter + b"Content-Type: text/plain\r\nContent-Location: https://fuzz.example/p%d\r\n\r\nx%d\r\n" % (i, i)
        for i in range(2_000)
    )
    closing = layout.delimiters[-1]
    return layout.data[:closing] + extra + layout.data[closing:], Expect.EXACT


MHTML_MUTATIONS: dict[str, MhtmlMutation] = {
    "identity": lambda lay, r: (lay.data, Expect.EXACT),
    "trunc-top-header": lambda lay, r: (lay.cut_in(1, lay.body_start - 2, r), Expect.INTACT),
    "trunc-top-header-blank-line": lambda lay, r: (lay.data[: lay.body_start - 2], Expect.INTACT),
    "trunc-first-boundary": lambda lay, r: (
        lay.cut_in(lay.delimiters[0] + 1, lay.part(1)[0], r), Expect.INTACT),
    "trunc-html-headers": lambda lay, r: (lay.cut_in(lay.part(1)[0], lay.part(1)[1], r), Expect.INTACT),
    "trunc-html-body-1": lambda lay, r: (lay.cut_in(lay.part(1)[1], lay.part(1)[2], r), Expect.INTACT),
    "trunc-html-body-2": lambda lay, r: (lay.cut_in(lay.part(1)[1], lay.part(1)[2], r), Expect.INTACT),
    "trunc-qp-soft-break-1": _trunc_soft_break,
    "trunc-qp-soft-break-2": _trunc_soft_break,
    "trunc-after-html-close-tag": _trunc_after_html_end,
    "trunc-in-second-boundary": lambda lay, r: (
        lay.cut_in(lay.part(1)[2], lay.part(2)[0], r), Expect.INTACT),
    "trunc-resource-headers": lambda lay, r: (lay.cut_in(lay.part(3)[0], lay.part(3)[1], r), Expect.EXACT),
    "trunc-base64-1": lambda lay, r: (lay.cut_in(lay.part(3)[1], lay.part(3)[2], r), Expect.EXACT),
    "trunc-base64-2": lambda lay, r: (lay.cut_in(lay.part(3)[1] + 1, lay.part(3)[1] + 80, r), Expect.EXACT),
    "trunc-closing-boundary": lambda lay, r: (lay.cut_in(lay.delimiters[-1], len(lay.data), r), Expect.EXACT),
    "trunc-last-byte": lambda lay, r: (lay.data[:-1], Expect.EXACT),
    "flip-1": lambda lay, r: (flip_bytes(lay.data, r), Expect.ANY),
    "flip-2": lambda lay, r: (flip_bytes(lay.data, r, 100), Expect.ANY),
    "flip-headers": lambda lay, r: (flip_bytes(lay.data[: lay.part(1)[1]], r, 4) + lay.data[lay.part(1)[1]:],
                                    Expect.ANY),
    "junk-1": lambda lay, r: (insert(lay.data, r.randrange(len(lay.data)), junk_bytes(r, 256)), Expect.ANY),
    "junk-2": lambda lay, r: (insert(lay.data, r.randrange(len(lay.data)), junk_bytes(r, 4096)), Expect.ANY),
    "nul-in-headers": lambda lay, r: (insert(lay.data, r.randrange(lay.body_start), b"\x00\x00"), Expect.ANY),
    "part-charset-nul": _html_charset(b"utf-8\x00"),
    "subject-nul-in-charset": lambda lay, r: (
        _replace_header(lay, rb"Subject: [^\r\n]*", b"Subject: =?utf-8\x00?B?w6k=?= =?x\x00y?Q?a?="), Expect.EXACT),
    "part-charset-shift_jis": _html_charset(b"shift_jis"),
    "part-charset-latin-1": _html_charset(b"latin-1"),
    "part-charset-utf-16": _html_charset(b"utf-16"),
    "part-charset-unknown": _html_charset(b"x-bogus-charset"),
    "part-charset-quoted-blanks": _html_charset(b'" UTF-8 "'),
    "crlf-to-lf": lambda lay, r: (lay.data.replace(b"\r\n", b"\n"), Expect.EXACT),
    "crlf-to-cr": lambda lay, r: (lay.data.replace(b"\r\n", b"\r"), Expect.INTACT),
    "lowercase-headers": lambda lay, r: (
        re.sub(rb"(?m)^([A-Za-z-]+):", lambda m: m.group(1).lower() + b":", lay.data), Expect.EXACT),
    "qp-lowercase-hex": lambda lay, r: (
        lay.data[: lay.part(1)[1]] + lay.data[lay.part(1)[1]:].replace(b"=3D", b"=3d"), Expect.EXACT),
    "dup-first-boundary": lambda lay, r: (_dup_line_at(lay.data, lay.delimiters[0]), Expect.EXACT),
    "remove-first-boundary": lambda lay, r: (_remove_line_at(lay.data, lay.delimiters[0]), Expect.STATED),
    "remove-second-boundary": lambda lay, r: (_remove_line_at(lay.data, lay.delimiters[1]), Expect.ANY),
    "remove-closing-boundary": lambda lay, r: (lay.data[: lay.delimiters[-1]], Expect.EXACT),
    "boundary-param-removed": lambda lay, r: (
        re.sub(rb';\s*boundary="[^"]*"', b"", lay.data, count=1), Expect.ERROR),
    "boundary-param-wrong": lambda lay, r: (
        lay.data.replace(b'boundary="' + lay.boundary, b'boundary="' + lay.boundary[:-6] + b"XYZ", 1), Expect.ERROR),
    "delete-top-content-type": lambda lay, r: (
        _replace_header(lay, rb'Content-Type: multipart/related;\r\n\ttype="text/html";\r\n\tboundary="[^"]*"\r\n',
                        b""), Expect.ERROR),
    "delete-html-content-type": lambda lay, r: (
        _replace_header(lay, rb"Content-Type: [^\r\n]*\r\n", b"", part=1), Expect.STATED),
    "delete-html-transfer-encoding": lambda lay, r: (
        _replace_header(lay, rb"Content-Transfer-Encoding: [^\r\n]*\r\n", b"", part=1), Expect.ANY),
    "delete-html-location": lambda lay, r: (
        _replace_header(lay, rb"Content-Location: [^\r\n]*\r\n", b"", part=1), Expect.EXACT),
    "unknown-transfer-encoding": lambda lay, r: (
        _replace_header(lay, rb"Content-Transfer-Encoding: [^\r\n]*", b"Content-Transfer-Encoding: x-uuencode",
                        part=1), Expect.INTACT),
    "bom-prefix": lambda lay, r: (b"\xef\xbb\xbf" + lay.data, Expect.EXACT),
    "leading-blank-lines": lambda lay, r: (b"\r\n\r\n  \r\n" + lay.data, Expect.EXACT),
    "html-as-base64": lambda lay, r: (_html_as_base64(lay), Expect.EXACT),
    "html-as-base64-truncated": lambda lay, r: (_html_as_base64(lay, cut=True), Expect.INTACT),
    "html-as-base64-broken": lambda lay, r: (_html_as_base64(lay, broken=True), Expect.ANY),
    "subject-bad-encoded-word": lambda lay, r: (
        _replace_header(lay, rb"Subject: [^\r\n]*", b"Subject: =?x-bogus?B?!!!?= =?utf-8?Q?=ZZ?= =?utf-8?B?w6k?="),
        Expect.EXACT),
    "huge-header": lambda lay, r: (
        _replace_header(lay, rb"MIME-Version: 1.0", b"X-Junk: " + b"j" * 1_000_000 + b"\r\nMIME-Version: 1.0"),
        Expect.EXACT),
    "many-parts": _many_parts,
    "named-html": lambda lay, r: (lay.data, Expect.EXACT),  # an archive in a .html file
}


# ---------------------------------------------------------------------------------------------------------------
# Synthetic inputs


def _deep_mhtml(html: str) -> bytes:
    return mhtml_bytes(html, url="https://fuzz.example/deep")


def _binary(size: int) -> Callable[[random.Random], FuzzInput]:
    return lambda r: FuzzInput(junk_bytes(r, size), ".html", Expect.ANY)


@lru_cache(maxsize=2)
def big_input(kind: str) -> bytes:
    html = big_text_html()
    return html.encode("utf-8") if kind == "html" else mhtml_bytes(html, url="https://fuzz.example/big")


def _big(kind: str) -> Callable[[random.Random], FuzzInput]:
    return lambda r: FuzzInput(big_input(kind), f".{kind}", Expect.ANY, must_keep=("/body[1]/p[1]", big_text()))


def _page(body: str, expect: Expect = Expect.ANY, suffix: str = ".html") -> Callable[[random.Random], FuzzInput]:
    return lambda r: FuzzInput(html_page(body).encode("utf-8"), suffix, expect)


def _raw(data: bytes, expect: Expect = Expect.ANY, suffix: str = ".html") -> Callable[[random.Random], FuzzInput]:
    return lambda r: FuzzInput(data, suffix, expect)


def _text(html: str) -> Callable[[random.Random], FuzzInput]:
    """A str given straight to parse_html (the CLI test writes it with `surrogatepass`)."""
    return lambda r: FuzzInput(html, ".html", Expect.ANY)


SYNTHETIC: dict[str, Callable[[random.Random], FuzzInput]] = {
    "empty": _raw(b"", Expect.ERROR),
    "blank": _raw(b" \r\n\t\n ", Expect.ERROR),
    "empty-mhtml": _raw(b"", Expect.ERROR, ".mhtml"),
    "only-bom": _raw(b"\xef\xbb\xbf", Expect.ANY),
    "only-nul": _raw(b"\x00", Expect.ANY),
    "binary-64k": _binary(65_536),
    "binary-64k-mhtml": lambda r: FuzzInput(junk_bytes(r, 65_536), ".mhtml", Expect.ANY),
    "binary-1m": _binary(1_000_000),
    "mime-headers-only": _raw(b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=x\r\n", Expect.ERROR),
    "mime-no-parts": _raw(b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=x\r\n\r\n", Expect.ERROR),
    "mime-not-multipart": _raw(b"MIME-Version: 1.0\r\nContent-Type: text/plain\r\n\r\n<p>x</p>", Expect.ERROR),
    "mime-single-html-part": _raw(b"MIME-Version: 1.0\r\nContent-Type: text/html\r\n\r\n<p>x</p>", Expect.ANY),
    "mime-empty-boundary": _raw(b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=""\r\n\r\n--\r\n',
                                Expect.ERROR),
    "mime-no-html-part": _raw(b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=b\r\n\r\n--b\r\n"
                              b"Content-Type: image/png\r\n\r\nxx\r\n--b--\r\n", Expect.ERROR),
    "mime-nested-multipart": _raw(
        b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=a\r\n\r\n--a\r\n"
        b"Content-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>in</p>\r\n"
        b"--b--\r\n--a--\r\n", Expect.ANY, ".mhtml"),
    "mime-boundary-in-html": _raw(
        b"MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=b\r\n\r\n--b\r\nContent-Type: text/html"
        b"\r\n\r\n<p>a --b inside --b-- text</p>\r\n--bx\r\n<p>--b</p></html>\r\n--b--\r\n", Expect.ANY),
    "text-50mb-html": _big("html"),
    "text-50mb-mhtml": _big("mhtml"),
    "div-10000": _page("<div>" * DEEP + "deep"),
    "div-10000-closed": _page("<div>" * DEEP + "deep" + "</div>" * DEEP + "<p>after</p>"),
    "div-10000-mhtml": lambda r: FuzzInput(_deep_mhtml(html_page("<div>" * DEEP + "deep")), ".mhtml", Expect.ANY),
    "b-i-alternating-10000": _page("<b><i>" * (DEEP // 2) + "deep"),
    "table-tr-td-10000-unclosed": _page("<table><tr><td>" * DEEP + "deep"),
    "ul-li-10000": _page("<ul><li>" * (DEEP // 2) + "deep"),
    "span-a-10000": _page("<span><a href=x>" * (DEEP // 2) + "deep"),
    "svg-g-10000": _page("<svg>" + "<g>" * DEEP + "<text>deep</text></svg>"),
    "template-10000": _page("<template>" * DEEP + "<p>deep</p>"),
    "div-995-text-deepest": _page("<div>" * 995 + "deep"),
    # Past the parser's reach: bounded before lexbor sees them (core/page/bounds.py).
    "template-100000": _page("<template>" * 100_000 + "<p>deep</p>"),
    "div-200000": _page("<div>" * 200_000 + "deep"),
    "title-unclosed-40000": _page("<title>" * 40_000 + "x"),
    "empty-elements-2m": _page("<i></i>" * 2_000_000),  # 14 MB: a clear "too many elements"
    "mime-boundary-1m": _raw(b'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="' + b"b" * 1_000_000
                             + b'"\r\n\r\n--x\r\nContent-Type: text/html\r\n\r\n<p>x</p>\r\n--x--\r\n', Expect.ERROR),
    "div-2000-text-each-level": _page(_deep_text_each_level()),
    "misnested-formatting-2000": _page("<b><p><i></b>x</i></p>" * 2_000),
    "siblings-20000": lambda r: FuzzInput(html_page(_siblings(r)).encode("utf-8"), ".html", Expect.ANY),
    "attribute-5mb": _page(f'<p data-x="{"v" * 5_000_000}">t</p>'),
    "attributes-10000": _page("<p " + " ".join(f"a{i}={i}" for i in range(10_000)) + ">t</p>"),
    "lt-run-1m": _page("<" * 1_000_000),
    "comment-soup": _page(COMMENT_SOUP),
    "unterminated-comment": _page("<p>before</p><!-- never closed <p>lost?</p>"),
    "processing-instruction-in-body": _page("<p>before</p><?php echo 1; ?><p>after</p>"),
    "xml-declaration-in-body": _page("<p>before</p><?xml version='1.0'?><p>after</p>"),
    "unterminated-doctype": _raw(b"<!DOCTYPE html PUBLIC \"-//W3C//DTD"),
    "svg-mathml-soup": _page(SVG_MATH_SOUP),
    "template-iframe-noscript": _page(TEMPLATE_SOUP),
    "frameset": _raw(b"<html><frameset><frame src=a><noframes><p>no frames</p></noframes></frameset>t</html>"),
    "plaintext": _page("<plaintext><p>all the rest</p></body></html>"),
    "table-foster-soup": _page("<table>foster<tr>x<td>c</td>y</tr><b>bold</b><p>para</table>"),
    "unicode-soup": _page(UNICODE_SOUP),
    "weird-tag-names": _page(WEIRD_TAGS),
    "surrogate-in-text": _text(html_page("<p>a\ud800b</p><p>\udfff</p><p>\udbff\udfff ok pair</p>")),
    "surrogate-in-attribute": _text(html_page('<p title="\ud800">t</p>')),
    "surrogate-in-tag-name": _text(html_page("<p\ud800>t</p\ud800><x\udc00y>u</x\udc00y>")),
    "surrogate-only": _text("\ud800"),
    "surrogate-bytes": _raw(html_page("<p>a\ud800b</p>").encode("utf-8", "surrogatepass")),
    "cesu-bytes-meta-utf8": _raw(b'<meta charset="utf-8"><p>\xed\xa0\xbd\xed\xb8\x80</p>'),
    "overlong-utf8": _raw(b"<p>\xc0\xaf\xe0\x80\xaf\xf8\x88\x80\x80\x80</p>"),
    "nul-everywhere": _raw(b"<\x00p\x00>\x00t\x00<\x00/\x00p\x00>"),
}


# ---------------------------------------------------------------------------------------------------------------
# The cases


def release() -> None:
    """Drop the cached inputs (the 50 MB ones hold a few hundred MB)."""
    for cached in (seed_html, seed_text_map, seed_mhtml, big_text, big_text_html, big_input):
        cached.cache_clear()


def all_cases() -> list[Case]:
    cases: list[Case] = []
    for seed in (*DEMO_SEEDS, *DEV_SEEDS):
        cases += [Case(f"{seed}-html-{name}", seed, "html", name) for name in HTML_MUTATIONS]
        cases += [Case(f"{seed}-mhtml-{name}", seed, "mhtml", name) for name in MHTML_MUTATIONS]
    cases += [Case(f"synthetic-{name}", None, "synthetic", name) for name in SYNTHETIC]
    return cases


def build(case: Case, dev_dir: Path | None = None) -> FuzzInput:
    """The input of a case: the same bytes on every run."""
    rng = rng_for(case)
    if case.kind == "synthetic":
        return SYNTHETIC[case.mutation](rng)
    assert case.seed is not None
    html = seed_html(case.seed, dev_dir)
    if case.kind == "html":
        data, expect = HTML_MUTATIONS[case.mutation](html, html.encode("utf-8"), rng)
        suffix = ".mhtml" if case.mutation == "named-mhtml" else ".html"
    else:
        data, expect = MHTML_MUTATIONS[case.mutation](Layout.of(seed_mhtml(case.seed, html)), rng)
        suffix = ".html" if case.mutation == "named-html" else ".mhtml"
    return FuzzInput(data, suffix, expect, seed_html=html)


# ---------------------------------------------------------------------------------------------------------------
# Records files (N.json, as a run or a model answer writes them)

_GOOD_RECORDS = b'[["/html/body/div[1]"], ["/html/body/div[2]/p[1]", "/html/body/div[2]/p[2]"]]'

RECORDS_FILES: dict[str, Callable[[random.Random], bytes]] = {
    "valid": lambda r: _GOOD_RECORDS,
    "truncated": lambda r: _GOOD_RECORDS[: r.randrange(1, len(_GOOD_RECORDS) - 1)],
    "binary": lambda r: junk_bytes(r, 512),
    "empty-file": lambda r: b"",
    "bom-utf8": lambda r: b"\xef\xbb\xbf" + _GOOD_RECORDS,
    "utf-16": lambda r: _GOOD_RECORDS.decode("ascii").encode("utf-16"),
    "latin-1-text": lambda r: '[["/html/body/p[1]", "caf\u00e9"]]'.encode("latin-1"),
    "trailing-garbage": lambda r: _GOOD_RECORDS + b" xyz",
    "deep-list-10000": lambda r: b"[" * DEEP + b"]" * DEEP,
    "deep-object-10000": lambda r: b'{"a":' * DEEP + b"1" + b"}" * DEEP,
    "nested-record": lambda r: b'[[["/html/body"]]]',
    "top-level-object": lambda r: b'{"records": [["/html/body"]]}',
    "null": lambda r: b"null",
    "nan": lambda r: b"[NaN, Infinity]",
    "mixed-types": lambda r: b'[["/html/body", 1, null]]',
    "string-records": lambda r: b'["/html/body/div[1]", "/html/body/div[2]"]',
    "empty-list": lambda r: b"[]",
    "empty-records": lambda r: b"[[], [], []]",
    "dangling-xpaths": lambda r: b'[["/html/body/div[99999]"], ["//div"], ["not an xpath"], ["/body[1]/p[0]"]]',
    "whole-page-xpaths": lambda r: b'[["/html"], [""], ["/"]]',
    "lone-surrogate-escape": lambda r: b'[["\\ud800"], ["/html/body/\\udfff"]]',
    "huge-xpath": lambda r: b'[["/' + b"x" * 10_000_000 + b'"]]',
    "many-records": lambda r: ("[" + ",".join(f'["/html/body/div[{i}]"]' for i in range(1, 20_001)) + "]").encode(),
}
