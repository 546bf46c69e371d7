"""An archive's title is its page's own, as `document.title` gives it (the README: "the page's title is its first
<title> outside SVG and MathML"); the MIME Subject header only stands in for a page without one. A Subject can be
anything a saver wrote, even raw bytes in a legacy charset, which no reader can decode for sure; Chromium writes
the page's title there, so for an archive it saved the two agree."""

from __future__ import annotations

import base64
import quopri
from pathlib import Path

import pytest

from recordlens.core.page import read_snapshot
from recordlens.core.store.importer import import_paths
from recordlens.core.store.project import init_project

OWN_TITLE = "本当のタイトル"


def archive(page: bytes, subject: bytes | None) -> bytes:
    """A CRLF archive of one base64 HTML part, with `subject` as its Subject header's raw value (None: none)."""
    header = b"" if subject is None else b"Subject: " + subject + b"\r\n"
    return (b"From: <Saved by a script>\r\nSnapshot-Content-Location: http://example.jp/c\r\n" + header
            + b'MIME-Version: 1.0\r\nContent-Type: multipart/related;\r\n\ttype="text/html";\r\n\tboundary="B"\r\n\r\n'
            b"--B\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\nContent-Location: "
            b"http://example.jp/c\r\n\r\n" + base64.encodebytes(page).replace(b"\n", b"\r\n") + b"\r\n--B--\r\n")


def page(head: str, body: str = "<ul><li>一</li><li>二</li></ul>", charset: str = "utf-8") -> bytes:
    return (f'<html><head><meta charset="{charset}">{head}</head><body>{body}</body></html>').encode(
        "cp932" if charset == "shift_jis" else charset)


def title_of(tmp_path: Path, data: bytes) -> str | None:
    path = tmp_path / "page.mhtml"
    path.write_bytes(data)
    return read_snapshot(path).title


@pytest.mark.parametrize(
    "subject",
    [
        pytest.param("シフト".encode("shift_jis"), id="raw-shift_jis"),
        pytest.param("生のUTF-8件名".encode(), id="raw-utf-8"),
        pytest.param(b"=?shift_jis?B?" + base64.b64encode("シフトJIS件名".encode("shift_jis")) + b"?=",
                     id="encoded-word"),
        pytest.param(b"=?koi8-r?Q?" + quopri.encodestring("Заголовок".encode("koi8_r"), header=True) + b"?=",
                     id="koi8-r-encoded-word"),
        pytest.param(b"page", id="another-plain-title"),
    ],
)
def test_the_page_s_own_title_wins_over_any_subject(tmp_path: Path, subject: bytes):
    assert title_of(tmp_path, archive(page(f"<title>{OWN_TITLE}</title>"), subject)) == OWN_TITLE


def test_the_title_is_read_as_document_title_gives_it(tmp_path: Path):
    head = "<title>\n  Jobs &amp;\t careers \n</title><title>second</title>"
    assert title_of(tmp_path, archive(page(head), b"Subject line")) == "Jobs & careers"


def test_a_title_in_the_page_s_legacy_charset_is_read_in_it(tmp_path: Path):
    data = archive(page(f"<title>{OWN_TITLE}</title>", charset="shift_jis"), "シフト".encode("shift_jis"))
    assert title_of(tmp_path, data) == OWN_TITLE


@pytest.mark.parametrize(
    "head",
    [
        pytest.param("", id="no-title"),
        pytest.param("<title></title>", id="empty-title"),
        pytest.param("<title> \n </title>", id="blank-title"),
    ],
)
def test_the_subject_stands_in_for_a_page_without_a_title(tmp_path: Path, head: str):
    subject = b"=?utf-8?B?" + base64.b64encode("Caméras – Shop".encode()) + b"?="
    assert title_of(tmp_path, archive(page(head), subject)) == "Caméras – Shop"


def test_a_title_inside_svg_is_not_the_page_s_so_the_subject_stands_in(tmp_path: Path):
    body = "<svg><title>a drawing</title></svg><p>x</p>"
    assert title_of(tmp_path, archive(page("", body), b"Subject line")) == "Subject line"


def test_without_title_or_subject_there_is_none(tmp_path: Path):
    assert title_of(tmp_path, archive(page(""), None)) is None
    assert title_of(tmp_path, archive(page("<title></title>"), None)) == ""


def test_the_project_lists_an_imported_archive_by_its_page_s_title(tmp_path: Path):
    html = tmp_path / "dataset" / "html"
    html.mkdir(parents=True)
    (html / "1.mhtml").write_bytes(archive(page(f"<title>{OWN_TITLE}</title>"), "シフト".encode("shift_jis")))
    with init_project(tmp_path / "project") as project:
        assert import_paths(project, [tmp_path / "dataset"]).imported == ["1"]
        assert project.page("1").title == OWN_TITLE
