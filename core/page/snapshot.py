"""Saved web pages: read MHTML and plain HTML files, write MHTML that Chromium opens.

The reader is a hand-written split on the boundary bytes rather than Python's `email` parser, which copies
and re-scans every part; decoding uses the C codecs in `binascii`, so a 50 MB archive of UTF-8 reads in under a
second (0.65 s for 57.6 MB, 0.2 s for a 42 MB `.html`). A page that declares no charset and is not UTF-8 adds its
charset guess: 0.05 s, or up to about a second while the guesser first meets its words.

Decisions a caller may need to know:

- **Charset** (`charset.decode_html`). A byte order mark wins, then the page's `<meta charset>` or `http-equiv` (in
  its first 1024 bytes, or further while still in <head>), else the charset detected in its bytes
  (`charset_detection.guess_charset`: only ASCII is windows-1252, UTF-8 is UTF-8, else the legacy encoding whose text
  reads most plausibly, with a warning that it was guessed; windows-1252, the default, when the bytes read as text in
  none, as damaged UTF-8 or random bytes do, and the warning says so). An archive part's `Content-Type` charset
  decides nothing, as Chromium ignores it (checked in QtWebEngine); a warning says so when it would have given another
  text. Labels are mapped as a browser maps them (`iso-8859-1` and `us-ascii` decode as windows-1252, `gb2312` as
  GB18030, ...), so the text is the text Chromium shows. A label outside the web's table (even one Python knows, such
  as `utf-7`) is ignored with a warning, and so is a declared charset that clearly does not fit the bytes (decoded
  with it, most of the page's `<` are gone, as when UTF-16 is declared on UTF-8: the page would read as a line of
  CJK); the page's charset is then detected from its bytes.
- **Undecodable bytes** under a declared charset are replaced with U+FFFD, as a browser does, and a warning says
  where the first one is: the page still opens and the loss is stated.
- **Truncation.** When the archive ends before its closing boundary, every complete part is kept and the cut
  part is dropped with a warning naming it. A last part that shows it is whole (base64 ending in its final
  padding) is kept, and the warning says only the closing boundary is missing; one whose end cannot be checked
  (another encoding, base64 without padding) is dropped as possibly cut. If the cut part is the HTML itself it
  is kept only when its text still ends with `</html>` (only the closing boundary was lost); otherwise reading
  fails, because a page with records missing would silently skew every label and score made on it.
- **Quoted-printable line breaks.** A hard line break decodes to `"\\n"` and an encoded `=0D` / `=0A` to itself,
  so that `read_mhtml(mhtml_bytes(html)).html == html` for any text. Chromium's own CRLF breaks therefore read
  as LF, which the HTML parser would have normalised anyway.
- **Malformed quoted-printable escapes.** An `=` followed by neither two hex digits nor a line break (`=G1`, a cut
  `=E`) is kept as written together with the two bytes after it, as Chromium keeps it (so `=A=41` reads
  `=A=41`, not `=AA`), and a warning names the part, how many there are and where the first is: the page opens
  as the browser shows it, and the text its author did not write is stated.
- **Duplicates.** When two parts share a Content-Location the later one wins, as in Chromium, with a warning.
- **Parts Chromium reads line by line.** A part's bytes are read as written, whatever its Content-Transfer-Encoding.
  Chromium reads a `7bit`, `8bit` or quoted-printable part line by line (lines end in CRLF): each line that is not
  UTF-8 it takes as Latin-1 and re-encodes in UTF-8, so a page in Shift_JIS or windows-1251 shows as mojibake, and a
  `7bit` or `8bit` part's lines it joins without their breaks, so words either side of a break run together and a
  tag split over two lines becomes another element (checked with QtWebEngine). That is a reading nobody wrote, so
  it is not followed: the archive is read as its bytes say, `Snapshot.chromium_reads_otherwise` says a browser
  opening the file shows another page (the app shows it from the snapshot as read), and a warning says so.
- **Title.** The page's own title, as `document.title` gives it; the archive's Subject header only for a page
  without one (Chromium writes the title it had into the Subject, but a hand-made archive's Subject may be anything,
  or raw bytes in a legacy charset).
- **Shapes Chromium also opens.** An archive that is one `text/html` part (a page saved without resources) is
  read as that page; a multipart inside a part (the HTML in a `multipart/alternative`) is read as the parts it
  holds, at most 8 deep.
"""

from __future__ import annotations

import binascii
import html as html_entities
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from ..command_hints import hint_path
from ..errors import SnapshotError, is_for_a_moment, shortened
from ..file_kinds import DatabaseFile, NotRegularFile, TooLarge, link_to_nothing, read_regular_file
from ..wording import counted
from .charset import (
    PRESCAN_BYTES,
    decode_html,
    decode_or_replace,
    decode_windows_1252,
    first_bad_utf_8_byte,  # the charset reader's own: where UTF-8 ends
    resolve_charset,
)

DEFAULT_MAX_BYTES = 200 * 1024 * 1024
DEFAULT_URL = "http://recordlens.invalid/page"

_MHTML_SUFFIXES = {".mhtml", ".mht"}
_HTML_TYPES = {"text/html", "application/xhtml+xml"}
_SNIFF_BYTES = 8192


@dataclass(frozen=True)
class Resource:
    """One saved sub-resource of a snapshot: a stylesheet, an image, a frame's HTML..."""

    location: str
    content_id: str | None
    content_type: str
    data: bytes


@dataclass
class Snapshot:
    """A saved page: its decoded HTML and what was saved with it."""

    html: str
    url: str | None
    title: str | None
    charset: str
    resources: dict[str, Resource] = field(default_factory=dict)
    source: Path | None = None
    warnings: list[str] = field(default_factory=list)
    kind: str = "html"  # how the bytes were read: "html" or "mhtml" (the suffix to store them under)
    media_type: str = "text/html"  # the main part's type: "application/xhtml+xml" for a page saved from XHTML
    # True when Chromium, opening the archive file itself, reads a part otherwise than its bytes say (a 7bit or 8bit
    # part's lines joined, lines that are not UTF-8 taken as Latin-1): a view shows the snapshot as read instead.
    chromium_reads_otherwise: bool = False

    @property
    def suffix(self) -> str:
        """The file suffix under which these bytes open again, here and in a browser."""
        return ".mhtml" if self.kind == "mhtml" else ".html"

    def resource(self, ref: str) -> Resource | None:
        """The resource a page refers to, by its Content-Location or by a `cid:` reference."""
        found = self.resources.get(ref)  # Chromium also saves stylesheets under a "cid:" Content-Location
        if found is None and ref[:4].lower() == "cid:":
            return self._by_content_id(ref[4:])
        if found is None and "#" in ref:
            found = self.resources.get(ref.split("#", 1)[0])
        return found

    def _by_content_id(self, reference: str) -> Resource | None:
        # RFC 2392: a cid: URL is the Content-ID percent-encoded, without its angle brackets
        wanted = {reference, unquote(reference), reference.strip("<>")}
        return next((r for r in self.resources.values() if r.content_id in wanted), None)


# ---------------------------------------------------------------------------------------------------------------
# Reading


def read_snapshot(
    source: str | Path | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES, name: str | None = None
) -> Snapshot:
    """Read a saved page from a file path (`str` or `Path`) or from bytes: MHTML or plain HTML.

    The content decides the format; the extension only settles files whose content is neither clearly."""
    if isinstance(source, bytes | bytearray):
        label = name or "the snapshot"
        data = _checked_bytes(bytes(source), max_bytes, label)
        path = None
    else:
        path = Path(source)
        label = name or hint_path(path)  # why it cannot be read names the file as a hint names a path
        data = _read_file(path, max_bytes, label)
    suffix = (path or Path(name or "")).suffix.lower()
    snapshot = _read_sniffed(data, suffix, label)
    snapshot.source = path
    return snapshot


def read_mhtml(data: bytes, *, name: str | None = None) -> Snapshot:
    """Read an MHTML archive (multipart/related): the main HTML, its URL and title, and its resources."""
    label = name or "the snapshot"
    warnings: list[str] = []
    headers, body_start = _top_headers(data, label, warnings)
    if _media_type(headers.get("content-type", ""))[0] in _HTML_TYPES:
        # A page saved without resources is one HTML part, not multipart (as Internet Explorer saved it); Chromium
        # opens it, so it is read as an archive of that part alone.
        parts, closed, cut = [_Part(1, headers, data[body_start:])], True, False
    else:
        segments, closed, cut = _split_parts(data, body_start, _boundary(headers, label), label)
        parts = _flattened([_parse_part(segment, number, warnings) for number, segment in enumerate(segments, 1)],
                           warnings)
    main = _main_part_index(parts, headers, closed, label)
    _warn_if_main_part_is_not_the_saved_page(headers, parts, parts[main], warnings)
    html, charset = _main_html(parts[main], label, warnings)
    last_dropped = cut and _accept_truncation(parts, main, html, label, warnings)
    read_otherwise = _warn_of_parts_chromium_reads_otherwise(parts, warnings)
    if not cut and not closed:
        warnings.append(
            "The archive ends right after a boundary line, without its closing boundary: "
            "the file may have been truncated after its last complete part."
        )
    return Snapshot(
        html=html,
        url=_saved_url(headers, parts[main]),
        title=_title_of(headers, html, warnings),
        charset=charset,
        resources=_resources(parts[:-1] if last_dropped else parts, main, warnings),
        warnings=warnings,
        kind="mhtml",
        media_type=parts[main].mime_type or "text/html",
        chromium_reads_otherwise=read_otherwise,
    )


def read_html(data: bytes, *, name: str | None = None) -> Snapshot:
    """Read a plain HTML file, decoding it as a browser would (see the module notes on charsets)."""
    warnings: list[str] = []
    html, charset = decode_html(data, None, warnings)
    return Snapshot(
        html=html,
        url=_saved_from_url(html),
        title=title_from_html(html),
        charset=charset,
        warnings=warnings,
    )


def _fail(label: str, reason: str) -> SnapshotError:
    return SnapshotError(f"Cannot read {label}: {reason}")


def _checked_bytes(data: bytes, max_bytes: int, label: str) -> bytes:
    if len(data) > max_bytes:
        raise _fail(label, _too_large(len(data), max_bytes))
    return data


def _too_large(size: int, max_bytes: int) -> str:
    return f"it is {size:,} bytes, more than the limit of {max_bytes:,} bytes."


def read_file_bytes(path: str | Path, *, max_bytes: int = DEFAULT_MAX_BYTES, name: str | None = None) -> bytes:
    """A saved page's bytes, as `read_snapshot` reads them: a folder, a FIFO or any other non-regular file, a file
    of a database SQLite may have open (a hard link to a project's, `file_kinds.sqlite_file_in_use`), and a file
    over `max_bytes`, is a SnapshotError before a single byte is read (and nothing blocks). Its message names the
    file by `name`, else by its path as a hint names it (`hint_path`)."""
    return _read_file(Path(path), max_bytes, name or hint_path(path))


def _read_file(path: Path, max_bytes: int, label: str) -> bytes:
    """The file's bytes, refused by its kind and size before a single byte is read."""
    try:
        return read_regular_file(path, max_bytes)
    except NotRegularFile as error:
        if error.kind == "a folder":
            raise _fail(label, "it is a folder, not a file.") from None
        raise _fail(label, f"it is {error.strerror}; only saved pages on disk can be read.") from None
    except TooLarge as error:
        raise _fail(label, _too_large(error.size, max_bytes)) from None
    except DatabaseFile as error:
        raise _fail(label, f"it is {error.strerror}, not a saved page.") from None
    except FileNotFoundError:
        link = link_to_nothing(path)  # a name that is listed, leading nowhere: said so, with where it points
        raise _fail(label, f"it is {link}." if link else "the file does not exist.") from None
    except IsADirectoryError:
        raise _fail(label, "it is a folder, not a file.") from None
    except OSError as error:
        if is_for_a_moment(error):
            raise  # not the file's fault: the command stops, to be run again (`runs.evaluate.page_or_why`)
        raise _fail(label, f"{error.strerror or error}.") from None


def _read_sniffed(data: bytes, suffix: str, label: str) -> Snapshot:
    if not data.strip():
        raise _fail(label, "the file is empty (or holds only blank space).")
    if _looks_like_mime(data):
        snapshot = read_mhtml(data, name=label)
        if suffix in (".html", ".htm"):
            snapshot.warnings.append(f"The file is named {suffix} but holds an MHTML archive; it was read as MHTML.")
        return snapshot
    if suffix in _MHTML_SUFFIXES and not data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<"):
        return read_mhtml(data, name=label)  # raises, with the reason the content is not MHTML
    snapshot = read_html(data, name=label)
    if suffix in _MHTML_SUFFIXES:
        snapshot.warnings.append(f"The file is named {suffix} but holds plain HTML; it was read as HTML.")
    return snapshot


_HEADER_START = re.compile(rb"[A-Za-z][A-Za-z0-9-]*[ \t]*:")
_MIME_HEADER = re.compile(rb"^(?:mime-version|content-type)[ \t]*:", re.IGNORECASE | re.MULTILINE)
_BLANK_LINE = re.compile(rb"\r?\n\r?\n")


def _looks_like_mime(data: bytes) -> bool:
    """True when the data starts with a MIME header block: what MHTML starts with and HTML never does."""
    head = data[:_SNIFF_BYTES].lstrip(b" \t\r\n")
    if not _HEADER_START.match(head):
        return False
    end = _BLANK_LINE.search(head)
    return _MIME_HEADER.search(head[: end.start() if end else len(head)]) is not None


# --- MIME structure ---------------------------------------------------------------------------------------------


@dataclass
class _Part:
    number: int
    headers: dict[str, str]
    body: bytes  # still in its transfer encoding

    @property
    def mime_type(self) -> str:
        return _media_type(self.headers.get("content-type", ""))[0]

    @property
    def location(self) -> str | None:
        return self.headers.get("content-location") or None

    @property
    def content_id(self) -> str | None:
        value = self.headers.get("content-id", "").strip()
        return value[1:-1] if value.startswith("<") and value.endswith(">") else value or None

    def describe(self) -> str:
        where = self.location or (f"cid:{self.content_id}" if self.content_id else "with no location")
        return f"part {self.number} ({self.mime_type or 'no type'}, {where})"


_LEADING_BLANKS = re.compile(rb"[ \t\r\n]*")


def _top_headers(data: bytes, label: str, warnings: list[str]) -> tuple[dict[str, str], int]:
    block = _header_block(data, _LEADING_BLANKS.match(data).end())
    if block is None:
        raise _fail(label, "it is not an MHTML archive (no blank line ends a MIME header block).")
    return _parse_headers(block[0], warnings), block[1]


def _header_block(data: bytes, start: int) -> tuple[bytes, int] | None:
    """The header block starting at `start` and the offset of the body after it; None if it never ends."""
    for line_break in (b"\r\n", b"\n"):
        if data.startswith(line_break, start):
            return b"", start + len(line_break)
    end = _BLANK_LINE.search(data, start)
    return (data[start : end.start()], end.end()) if end else None


def _parse_headers(block: bytes, warnings: list[str]) -> dict[str, str]:
    """Header names (lower case) to unfolded values; the first of repeated headers wins."""
    fields: list[list[str]] = []
    for line in re.split(r"\r?\n", _header_text(block, warnings)):
        if line[:1] in (" ", "\t") and fields:
            fields[-1].append(line)  # a folded header continues on lines that start with a blank
        elif ":" in line:
            fields.append([line])
    headers: dict[str, str] = {}
    for lines in fields:
        name, value = "".join(lines).split(":", 1)
        headers.setdefault(name.strip().lower(), value.strip())
    return headers


def _header_text(block: bytes, warnings: list[str]) -> str:
    try:
        return block.decode("utf-8")
    except UnicodeDecodeError:
        warnings.append("A MIME header is not valid UTF-8; it was decoded as windows-1252.")
        return decode_windows_1252(block)


_PARAMETER = re.compile(r';\s*([^\s=;]+)\s*=\s*("(?:[^"\\]|\\.)*"?|[^;]*)')


def _media_type(value: str) -> tuple[str, dict[str, str]]:
    """`text/html; charset="utf-8"` -> ("text/html", {"charset": "utf-8"})."""
    parameters: dict[str, str] = {}
    for match in _PARAMETER.finditer(value):
        raw = match.group(2).strip()
        if raw.startswith('"'):
            raw = re.sub(r"\\(.)", r"\1", raw[1:-1] if raw.endswith('"') and len(raw) > 1 else raw[1:])
        parameters.setdefault(match.group(1).lower(), raw)
    return value.split(";", 1)[0].strip().lower(), parameters


def _boundary(headers: dict[str, str], label: str) -> bytes:
    content_type = headers.get("content-type")
    if content_type is None:
        raise _fail(label, "it is not an MHTML archive (its MIME header has no Content-Type).")
    media_type, parameters = _media_type(content_type)
    if not media_type.startswith("multipart/"):
        raise _fail(
            label, f"it is not an MHTML archive (its Content-Type is {shortened(media_type) or 'empty'}, "
                   "not multipart/related).")
    boundary = parameters.get("boundary", "")
    if not boundary:
        raise _fail(label, f"its Content-Type is {shortened(media_type)} but gives no boundary, so its parts "
                           "cannot be found.")
    return boundary.encode("utf-8")


def _split_parts(data: bytes, start: int, boundary: bytes, label: str) -> tuple[list[bytes], bool, bool]:
    """The raw parts between the boundary lines, whether the closing boundary was found, and whether the
    last part was cut (it runs to the end of the data for want of a boundary after it)."""
    delimiter = b"--" + boundary
    segments: list[bytes] = []
    part_start: int | None = None
    for line_start, after, closing in _delimiter_lines(data, start, delimiter):
        if part_start is not None:
            segments.append(data[part_start:line_start])
        if closing:
            return segments, True, False
        part_start = after
    if part_start is None:
        raise _fail(
            label,
            f"no part starts with its boundary {shortened(boundary.decode('utf-8', 'replace'))!r}: "
            "the file is truncated or its boundary parameter is wrong.",
        )
    if not data[part_start:].strip():
        return segments, False, False
    # a line break at the very end would have begun the missing boundary line
    tail = data[part_start:].removesuffix(b"\n").removesuffix(b"\r")
    return [*segments, tail], False, True


def _delimiter_lines(data: bytes, start: int, delimiter: bytes) -> Iterable[tuple[int, int, bool]]:
    """Each boundary line: where its line starts, where the next part starts, and whether it closes."""
    position = start
    while (hit := data.find(delimiter, position)) >= 0:
        position = hit + len(delimiter)
        if hit != start and data[hit - 1 : hit] != b"\n":
            continue  # the boundary text inside a line is not a boundary
        line_start = hit if hit == start else hit - 2 if data[hit - 2 : hit] == b"\r\n" else hit - 1
        if data.startswith(b"--", position):
            yield line_start, position + 2, True
            return
        line_end = _end_of_boundary_line(data, position)
        if line_end is None:
            continue  # a longer word that merely starts with the boundary
        yield line_start, line_end, False
        position = line_end


def _end_of_boundary_line(data: bytes, position: int) -> int | None:
    # RFC 2046 lets a boundary line end with spaces or tabs ("transport padding")
    while data[position : position + 1] in (b" ", b"\t"):
        position += 1
    if data.startswith(b"\r\n", position):
        return position + 2
    if data.startswith(b"\n", position) or position >= len(data):
        return position + 1
    return None


def _parse_part(segment: bytes, number: int, warnings: list[str]) -> _Part:
    block = _header_block(segment, 0)
    if block is None:  # a part cut inside its headers: headers only
        return _Part(number, _parse_headers(segment, warnings), b"")
    return _Part(number, _parse_headers(block[0], warnings), segment[block[1] :])


_NESTING_LIMIT = 8  # multipart inside multipart: deeper than any saved page, shallow enough for hostile files


def _flattened(parts: list[_Part], warnings: list[str], depth: int = 0) -> list[_Part]:
    """The parts, each multipart one (a multipart/alternative holding the HTML, as some mail clients save a
    page) replaced by the parts inside it, as Chromium reads nested multiparts."""
    flat: list[_Part] = []
    for part in parts:
        boundary = _media_type(part.headers.get("content-type", ""))[1].get("boundary", "")
        if not part.mime_type.startswith("multipart/") or not boundary:
            flat.append(part)
            continue
        if depth >= _NESTING_LIMIT:
            warnings.append(f"{part.describe().capitalize()} nests multiparts more than {_NESTING_LIMIT} deep; "
                            "it was dropped.")
            continue
        try:
            segments, closed, _ = _split_parts(part.body, 0, boundary.encode("utf-8"), part.describe())
        except SnapshotError:
            warnings.append(f"{part.describe().capitalize()} holds no part that starts with its boundary; dropped.")
            continue
        if not closed:
            warnings.append(f"{part.describe().capitalize()} ends before its closing boundary.")
        # a part inside keeps its multipart's number in messages: "part 3" is where it is in the file
        flat += _flattened([_parse_part(segment, part.number, warnings) for segment in segments], warnings, depth + 1)
    return flat


def _main_part_index(parts: list[_Part], headers: dict[str, str], closed: bool, label: str) -> int:
    """The HTML part: the one named by the `start` parameter, else the first HTML part (Chromium's rule)."""
    start = _media_type(headers.get("content-type", ""))[1].get("start", "").strip("<>")
    if start:
        for index, part in enumerate(parts):
            if part.content_id == start:
                return index
    for index, part in enumerate(parts):
        if part.mime_type in _HTML_TYPES:
            return index
    found = ", ".join(sorted({p.mime_type or "no type" for p in parts})) or "no parts"
    cut = " It also ends before its closing boundary: the file is probably truncated." if not closed else ""
    raise _fail(label, f"it has no HTML part (found: {found}).{cut}")


def _warn_if_main_part_is_not_the_saved_page(headers: dict[str, str], parts: list[_Part], main: _Part,
                                             warnings: list[str]) -> None:
    """Chromium shows the first HTML part; when that is not the saved page (a damaged archive lost the page's
    headers, or put a frame first), say so rather than label the wrong document in silence."""
    saved = headers.get("snapshot-content-location")
    if not saved or not main.location or main.location == saved:
        return
    own = next((p for p in parts if p.location == saved and p.mime_type in _HTML_TYPES), None)
    where = (f"the page's own HTML is {own.describe()}, after it: Chromium shows the first HTML part too, so "
             "this is what it shows of the file" if own is not None
             else "the archive may be damaged, and the page's own HTML part missing or unreadable")
    warnings.append(f"The HTML shown ({main.describe()}) is not the saved page ({saved}): {where}.")


def _main_html(part: _Part, label: str, warnings: list[str]) -> tuple[str, str]:
    try:
        raw = _decode_transfer(part, warnings)
    except ValueError as error:
        raise _fail(label, f"its HTML {part.describe()} cannot be decoded: {error}.") from None
    charset = _media_type(part.headers.get("content-type", ""))[1].get("charset")
    return decode_html(raw, charset, warnings)


def _accept_truncation(parts: list[_Part], main: int, html: str, label: str, warnings: list[str]) -> bool:
    """Keep a cut archive when its HTML is whole; refuse it when the HTML itself was cut. True if its last part, a
    resource, is to be dropped as cut off."""
    if main < len(parts) - 1:
        last = parts[-1]
        ending = _ending_of_last_part(last)
        if ending == "whole":
            warnings.append(
                f"The archive lacks only its closing boundary: its last part, {last.describe()}, is whole (its "
                "base64 ends with its final padding) and was kept."
            )
            return False
        warnings.append(
            "The archive ends before its closing boundary (the file is truncated): "
            f"{last.describe()} was cut off and was dropped; the HTML and the other parts are complete."
            if ending == "cut" else
            "The archive ends before its closing boundary (the file may be truncated): "
            f"{last.describe()} may have been cut off (where it ends cannot be checked) and was dropped; the HTML "
            "and the other parts are complete."
        )
        return True
    if html.rstrip().lower().endswith("</html>"):
        warnings.append(
            "The archive ends before its closing boundary, but its HTML ends with </html> and was read as complete."
        )
    else:
        raise _fail(
            label,
            "the file is truncated: it ends inside the HTML part, before the closing boundary, "
            "so part of the page is missing. Save the page again.",
        )
    return False


def _ending_of_last_part(part: _Part) -> str:
    """How the last part of an archive without its closing boundary ends: "whole", "cut", or "unknown".

    Only base64 tells: a cut almost always leaves letters that are not a whole number of 4-letter groups, and
    only an encoder's last group carries `=` padding. A part that ends on a group without padding, or that is in
    another encoding, may be whole or cut: it is not kept on a guess."""
    letters = _BLANKS.sub(b"", part.body)
    if not letters:
        return "cut"  # cut in its headers, or right after them
    if _transfer_encoding(part) != "base64" or _NOT_BASE64.search(letters):
        return "unknown"
    if len(letters) % 4:
        return "cut"
    return "whole" if letters.endswith(b"=") and _decodes_as_base64(letters) else "unknown"


def _decodes_as_base64(letters: bytes) -> bool:
    try:
        _decode_base64(letters)  # the one strict decoding of a part's base64
    except ValueError:
        return False
    return True


def _resources(parts: list[_Part], main: int, warnings: list[str]) -> dict[str, Resource]:
    resources: dict[str, Resource] = {}
    for index, part in enumerate(parts):
        resource = None if index == main else _resource(part, warnings)
        if resource is None:
            continue
        if resource.location in resources:
            warnings.append(f"Two parts are saved for {resource.location}; the later one, {part.describe()}, is used.")
        resources[resource.location] = resource
    return resources


def _resource(part: _Part, warnings: list[str]) -> Resource | None:
    location = part.location or (f"cid:{part.content_id}" if part.content_id else None)
    if location is None:
        warnings.append(f"{part.describe().capitalize()} has neither Content-Location nor Content-ID; dropped.")
        return None
    try:
        data = _decode_transfer(part, warnings)
    except ValueError as error:
        warnings.append(f"{part.describe().capitalize()} cannot be decoded ({error}); dropped.")
        return None
    return Resource(location, part.content_id, part.headers.get("content-type", ""), data)


def _transfer_encoding(part: _Part) -> str:
    return part.headers.get("content-transfer-encoding", "").strip().lower()


def _decode_transfer(part: _Part, warnings: list[str]) -> bytes:
    """Undo a part's Content-Transfer-Encoding; ValueError says why it cannot be undone, and a warning what was
    kept as written."""
    body, encoding = part.body, _transfer_encoding(part)
    if encoding in ("", "7bit", "8bit", "binary"):
        return body
    if encoding == "quoted-printable":
        decoded, malformed = _decode_quoted_printable(body)
        if malformed is not None:
            warnings.append(_malformed_escapes_said(part, malformed))
        return decoded
    if encoding == "base64":
        return _decode_base64(body)
    raise ValueError(f"unknown Content-Transfer-Encoding {shortened(encoding)!r}")


def _decode_base64(body: bytes) -> bytes:
    """A base64 body with its line breaks (and other blanks) aside, and nothing else. The lenient decoding drops
    every other character unseen, so that a part marked base64 that holds plain HTML (a hand-edited archive) would
    decode to noise; Chromium shows such a part as an empty page (checked with QtWebEngine), and here it cannot be
    decoded, said with the first character that is not base64."""
    letters = _BLANKS.sub(b"", body)
    stray = _NOT_BASE64.search(letters)
    if stray is not None:
        raise ValueError(f"broken base64 data: it holds {_shown_byte(stray.group())}, which base64 does not use "
                         "(is it marked base64 but written otherwise?)")
    try:
        return binascii.a2b_base64(letters, strict_mode=True)
    except binascii.Error as error:
        raise ValueError(f"broken base64 data ({error})") from None


_BLANKS = re.compile(rb"[ \t\r\n\f\v]+")
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/=]")


def _shown_byte(byte: bytes) -> str:
    """`'<'`, or `the byte 0x80` for one that is no printable ASCII character."""
    return repr(chr(byte[0])) if 0x20 < byte[0] < 0x7F else f"the byte 0x{byte[0]:02X}"


_TRAILING_BLANKS = re.compile(rb"[ \t]+(?=\n|\Z)")


# an "=" that starts neither an escape nor a soft line break (an "=" that ends the body ends its last line)
_MALFORMED_ESCAPE = re.compile(rb"=(?![0-9A-Fa-f]{2}|\n|\Z)")


@dataclass(frozen=True)
class _MalformedEscapes:
    """The malformed escapes of a quoted-printable body: how many, the first as written, and its line."""

    count: int
    first: bytes
    line: int


def _decode_quoted_printable(body: bytes) -> tuple[bytes, _MalformedEscapes | None]:
    # A hard line break stands for a text line break, read as "\n"; encoded =0D and =0A stay what they are,
    # which is what lets a written snapshot give back its exact text.
    body = body.replace(b"\r\n", b"\n")
    if b" \n" in body or b"\t\n" in body or body.endswith((b" ", b"\t")):
        body = _TRAILING_BLANKS.sub(b"", body)  # RFC 2045: blanks that end an encoded line came from transport
    decoded = binascii.a2b_qp(body)
    if _all_escapes_well_formed(body, decoded):
        return decoded, None
    positions = _malformed_escape_positions(body)
    if not positions:
        return decoded, None
    # Chromium keeps a malformed escape as written with the two bytes after it, whatever they are (an "=" among
    # them starts no escape); a2b_qp would read "=A=41" as "=AA", "==41" as "=41", and "=\r" as a soft break
    pieces: list[bytes] = []
    start = 0
    for position in positions:
        pieces += [binascii.a2b_qp(body[start:position]), body[position : position + 3]]
        start = position + 3
    pieces.append(binascii.a2b_qp(body[start:]))
    first = positions[0]
    malformed = _MalformedEscapes(len(positions), body[first : first + 3], body.count(b"\n", 0, first) + 1)
    return b"".join(pieces), malformed


def _all_escapes_well_formed(body: bytes, decoded: bytes) -> bool:
    """Whether every "=" of `body` starts an escape or a soft line break, from the length a2b_qp decoded it to:
    both take away two bytes per "=" (one for an "=" that ends the body), a2b_qp fewer for a malformed one, and
    more only for a soft break it reads from "=\\r". Two passes of C code where a regex takes a second on 50 MB."""
    expected = len(body) - 2 * body.count(b"=") + body.endswith(b"=")
    return len(decoded) == expected and b"=\r" not in body


def _malformed_escape_positions(body: bytes) -> list[int]:
    """Where each malformed escape starts, read as Chromium reads them: one takes the two bytes after it along."""
    positions: list[int] = []
    position = 0
    while (match := _MALFORMED_ESCAPE.search(body, position)) is not None:
        positions.append(match.start())
        position = match.start() + 3
    return positions


def _malformed_escapes_said(part: _Part, malformed: _MalformedEscapes) -> str:
    kept = "it was" if malformed.count == 1 else "they were"
    return (f"{part.describe().capitalize()} has {counted(malformed.count, 'malformed quoted-printable escape')} "
            f"(an '=' followed by neither two hex digits nor a line break); {kept} kept as written, as Chromium "
            f"does. The first is {repr(malformed.first)[1:]}, on line {malformed.line:,} of the part's body.")


# --- parts Chromium reads otherwise ----------------------------------------------------------------------------

# Chromium's MHTML reader takes these parts line by line, each line that is not UTF-8 as Latin-1 (re-encoded in
# UTF-8, then decoded in the page's charset: mojibake), and joins the lines of 7bit and 8bit parts without their
# CRLF (checked with QtWebEngine). A binary part, or one that names no encoding, it takes as its bytes.
_READ_BY_LINES = {"7bit", "8bit", "quoted-printable"}
_LINES_JOINED = {"7bit", "8bit"}


def _warn_of_parts_chromium_reads_otherwise(parts: list[_Part], warnings: list[str]) -> bool:
    """Whether Chromium, opening the archive file itself, reads some part otherwise than its bytes say; a warning
    names the first such part, what Chromium does to it and what that shows."""
    found = [(part, changes) for part in parts if (changes := _how_chromium_reads_otherwise(part))]
    if not found:
        return False
    part, changes = found[0]
    others = f" {counted(len(found) - 1, 'other part')} likewise." if len(found) > 1 else ""
    warnings.append(
        f"{part.describe().capitalize()} has Content-Transfer-Encoding {_transfer_encoding(part)}, which Chromium "
        f"reads otherwise than the bytes say: it {' and '.join(done for done, _ in changes)}. Opened in a browser, "
        f"the file shows {' and '.join(shown for _, shown in changes)}; RecordLens reads the bytes as written (a "
        f"page in its own charset), and the app shows the page as read.{others}"
    )
    return True


def _how_chromium_reads_otherwise(part: _Part) -> list[tuple[str, str]]:
    """What Chromium does to this part's bytes, each with what it shows ([]: it reads them as written)."""
    encoding = _transfer_encoding(part)
    if encoding not in _READ_BY_LINES:
        return []
    body = part.body.rstrip(b"\r\n")  # the breaks that end a part lead to its boundary: joined, they change nothing
    changes = []
    # a line break never cuts a UTF-8 sequence: the body is UTF-8 exactly when each of its lines is
    not_utf_8 = first_bad_utf_8_byte(body)
    if not_utf_8 < len(body):
        line = body.count(b"\n", 0, not_utf_8) + 1
        changes.append((f"takes its lines that are not UTF-8 (the first is line {line:,} of the part's body) as "
                        "Latin-1", "other characters (mojibake)"))
    if encoding in _LINES_JOINED and b"\r\n" in body:
        changes.append(("joins its lines, dropping their line breaks", "the words either side of a line break run "
                        "together (and a tag split over two lines as another element)"))
    return changes


# --- URL and title -----------------------------------------------------------------------------------------------


def _saved_url(headers: dict[str, str], main: _Part) -> str | None:
    return headers.get("snapshot-content-location") or main.location


_SAVED_FROM = re.compile(r"<!--\s*saved from url=\(\d+\)(\S+?)\s*-->", re.IGNORECASE)


def _saved_from_url(html: str) -> str | None:
    """The URL in the comment a browser writes into a page saved as HTML only."""
    match = _SAVED_FROM.search(html, 0, PRESCAN_BYTES)
    return match.group(1) if match else None


def _title_of(headers: dict[str, str], html: str, warnings: list[str]) -> str | None:
    """The page's own title, as `document.title` gives it; the Subject header only for a page without one (or with
    an empty one): Chromium writes the page's title there, a hand-made archive anything, even raw legacy bytes."""
    own = title_from_html(html)
    if own or "subject" not in headers:
        return own
    return _decode_rfc2047(headers["subject"], warnings)


# <title>, and the elements whose content holds titles document.title passes over: an SVG (or MathML) one is
# not the page's, and a template's content is not in the document
_TITLE_OR_OUT_OF_IT = re.compile(r"<(/?)(title|svg|math|template)(?=[\t\n\f\r />])", re.IGNORECASE)
_TITLE_END = re.compile(r"</title\s*>", re.IGNORECASE)
_ASCII_BLANKS = re.compile(r"[ \t\n\f\r]+")


def title_from_html(html: str) -> str | None:
    """The page's title as `document.title` gives it: the first HTML <title>'s text, entities decoded,
    whitespace collapsed.

    One forward scan, not a regex with a lazy `.*?` that each of 40,000 unclosed `<title>` would run to the end
    of the page (quadratic): the first `<title` outside <svg>, <math> and <template> decides, as the text after
    it is the title's up to `</title>`.
    """
    outside = {"svg": 0, "math": 0, "template": 0}
    for tag in _TITLE_OR_OUT_OF_IT.finditer(html):
        closing, name = tag.group(1), tag.group(2).lower()
        if name != "title":
            self_closed = name != "template" and html[tag.end() : html.find(">", tag.end()) + 1].endswith("/>")
            outside[name] = max(0, outside[name] + (-1 if closing else 0 if self_closed else 1))
        elif not closing and not any(outside.values()):
            return _title_text(html, tag.end())
    return None


def _title_text(html: str, after_name: int) -> str | None:
    open_end = html.find(">", after_name)
    if open_end < 0:
        return None
    end = _TITLE_END.search(html, open_end + 1)
    if end is None:
        return None
    return _ASCII_BLANKS.sub(" ", html_entities.unescape(html[open_end + 1 : end.start()])).strip(" ")


_ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=")


def _decode_rfc2047(value: str, warnings: list[str]) -> str:
    """A header value with its `=?charset?B|Q?...?=` encoded words decoded."""
    pieces: list[str] = []
    end = 0
    for match in _ENCODED_WORD.finditer(value):
        between = value[end : match.start()]
        if end == 0 or between.strip(" \t"):  # RFC 2047: blanks between two encoded words are not text
            pieces.append(between)
        pieces.append(_decode_encoded_word(match, warnings))
        end = match.end()
    pieces.append(value[end:])
    return "".join(pieces)


def _decode_encoded_word(match: re.Match[str], warnings: list[str]) -> str:
    label, kind, payload = match.group(1).split("*", 1)[0], match.group(2).upper(), match.group(3)
    charset = resolve_charset(label)  # "*" starts an RFC 2231 language tag
    raw = _encoded_word_bytes(kind, payload)
    if charset is None or raw is None:
        warnings.append(f"The encoded title word {shortened(match.group(0))!r} cannot be decoded; it was kept as "
                        "written.")
        return match.group(0)
    return decode_or_replace(raw, charset, "the title", warnings)


def _encoded_word_bytes(kind: str, payload: str) -> bytes | None:
    try:
        if kind == "B":
            return binascii.a2b_base64(payload + "=" * (-len(payload) % 4))
        return binascii.a2b_qp(payload, header=True)
    except (binascii.Error, ValueError):
        return None
