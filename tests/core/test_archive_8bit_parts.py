"""A 7bit, 8bit or quoted-printable archive part written as raw bytes: Chromium reads it line by line, each line
that is not UTF-8 as Latin-1 (a Shift_JIS page shows as mojibake) and a 7bit or 8bit part's lines joined without
their breaks (checked with QtWebEngine in tests/app/test_archive_8bit_parts_shown.py). The core reads the bytes as
written, the text the user labels; the snapshot says that a browser would show another page (the app then shows
it as read), and the import warns, naming the part and what Chromium does to it."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from recordlens.core.page import mhtml_bytes, read_snapshot
from recordlens.core.page.dataset import parse_snapshot
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project
from tests.core.line_read_archives import CAMERA, CREME, FORECAST, PRIVET, SPLIT_LINES, archive, list_page

LEGACY_PAGES = [
    pytest.param((FORECAST, CAMERA), "shift_jis", "cp932", id="shift_jis"),
    pytest.param((PRIVET, "Ёлка"), "windows-1251", "cp1251", id="windows-1251"),
    pytest.param((CREME, "Œuvre"), "windows-1252", "cp1252", id="windows-1252"),
    pytest.param(("שלום עולם", "ספר"), "windows-1255", "cp1255", id="windows-1255"),
    pytest.param((FORECAST, CAMERA), None, "euc_jp", id="undeclared-euc-jp"),
]


def read_file(tmp_path: Path, data: bytes):  # noqa: ANN201 - a Snapshot
    path = tmp_path / "page.mhtml"
    path.write_bytes(data)
    return read_snapshot(path)


def body_texts(snapshot) -> list[str]:  # noqa: ANN001
    return [text for key, text in parse_snapshot(snapshot).text_map.items() if key.startswith("/body")]


def chromium_warnings(snapshot) -> list[str]:  # noqa: ANN001
    return [w for w in snapshot.warnings if "which Chromium reads otherwise" in w]


@pytest.mark.parametrize("encoding", ["8bit", "7bit", "8BIT"])
@pytest.mark.parametrize(("items", "charset", "codec"), LEGACY_PAGES)
def test_a_legacy_page_sent_as_7bit_or_8bit_reads_as_written_and_says_a_browser_shows_it_otherwise(
        tmp_path: Path, encoding: str, items: tuple[str, ...], charset: str | None, codec: str):
    snapshot = read_file(tmp_path, archive(list_page(items, charset, codec), encoding))

    assert body_texts(snapshot) == list(items)
    assert snapshot.title == items[0]
    assert snapshot.chromium_reads_otherwise
    [warning] = chromium_warnings(snapshot)
    assert warning.startswith(f"Part 1 (text/html, http://shop.example/) has Content-Transfer-Encoding "
                              f"{encoding.lower()}, which Chromium reads otherwise than the bytes say: it takes its "
                              "lines that are not UTF-8 (the first is line 1 of the part's body) as Latin-1 and "
                              "joins its lines, dropping their line breaks.")
    assert "shows other characters (mojibake)" in warning and "the app shows the page as read" in warning


def test_a_utf_8_page_sent_as_8bit_is_said_for_its_joined_lines_alone(tmp_path: Path):
    snapshot = read_file(tmp_path, archive(SPLIT_LINES, "8bit"))

    assert parse_snapshot(snapshot).element_xpaths()[-2:] == ["/body[1]/p[1]", "/body[1]/p[2]"]
    assert body_texts(snapshot) == ["one\ntwo", "Café"]
    assert snapshot.chromium_reads_otherwise
    [warning] = chromium_warnings(snapshot)
    assert "it joins its lines, dropping their line breaks." in warning
    assert "Latin-1" not in warning
    assert "the words either side of a line break run together" in warning


def test_quoted_printable_with_raw_legacy_bytes_is_said_for_its_lines_not_in_utf_8(tmp_path: Path):
    page = list_page((FORECAST, CAMERA), None, "cp932")  # no "=" in it: no malformed escape
    snapshot = read_file(tmp_path, archive(page, "quoted-printable"))

    assert body_texts(snapshot) == [FORECAST, CAMERA]
    assert snapshot.chromium_reads_otherwise
    [warning] = chromium_warnings(snapshot)
    assert "takes its lines that are not UTF-8 (the first is line 1 of the part's body) as Latin-1." in warning
    assert "joins" not in warning  # Chromium keeps a quoted-printable part's line breaks


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(archive(list_page((FORECAST, CAMERA), "shift_jis", "cp932"), "binary"), id="binary"),
        pytest.param(archive(list_page((FORECAST, CAMERA), "shift_jis", "cp932"), None), id="no-header"),
        pytest.param(archive(f'<meta charset="utf-8"><p>{FORECAST}</p>'.encode(), "8bit"), id="8bit-one-utf-8-line"),
        pytest.param(archive(b"<p>plain</p>\r\n\r\n", "7bit"), id="7bit-line-breaks-only-at-its-end"),
        pytest.param(archive(base64.encodebytes(list_page((FORECAST,), "shift_jis", "cp932")).replace(b"\n", b"\r\n"),
                             "base64"), id="base64"),
        pytest.param(mhtml_bytes(f"<p>{CREME}</p>\n<p>{FORECAST}</p>", date="Mon, 01 Jan 2024 00:00:00 +0000"),
                     id="written-by-recordlens"),
    ],
)
def test_parts_chromium_reads_as_written_are_not_said(tmp_path: Path, data: bytes):
    snapshot = read_file(tmp_path, data)
    assert not snapshot.chromium_reads_otherwise
    assert chromium_warnings(snapshot) == []


def test_a_frame_s_part_counts_and_every_such_part_is_counted_in_one_warning(tmp_path: Path):
    frame = list_page((CREME,), "windows-1252", "cp1252").replace(b"\r\n", b"")
    page = b'<html><body><iframe src="http://shop.example/frame.html"></iframe></body></html>'
    alone = read_file(tmp_path, archive(page, "binary", frame=frame))
    both = read_file(tmp_path, archive(page + b"\r\n<p>x</p>", "8bit", frame=frame))

    assert alone.chromium_reads_otherwise
    assert chromium_warnings(alone)[0].startswith(
        "Part 2 (text/html, http://shop.example/frame.html) has Content-Transfer-Encoding 8bit")
    [warning] = chromium_warnings(both)
    assert warning.startswith("Part 1 (text/html, http://shop.example/) has Content-Transfer-Encoding 8bit")
    assert warning.endswith("the app shows the page as read. 1 other part likewise.")


def test_the_import_warns_of_such_an_archive(tmp_path: Path):
    dataset = tmp_path / "dataset" / "html"
    dataset.mkdir(parents=True)
    (dataset / "forecast.mhtml").write_bytes(archive(list_page((FORECAST, CAMERA), "shift_jis", "cp932"), "8bit"))
    with init_project(tmp_path / "project") as project:
        report = import_paths(project, [tmp_path / "dataset"])
        assert report.imported == ["forecast"]
        assert project.page("forecast").title == FORECAST
    assert any("which Chromium reads otherwise" in line and "mojibake" in line for line in report.warning_lines())
