"""A saved page: MHTML and HTML read and written, charsets, the browser's element tree, XPaths, the text map, the
LLM input formats, and the dataset layouts pages are found in.

    from recordlens.core.page import read_snapshot, parse_snapshot
    page = parse_snapshot(read_snapshot("12.mhtml"))
"""

from . import formats
from .bounds import MAX_NESTING, TooManyElementsError
from .dataset import (
    PAGE_READER_VERSION,
    PAGE_SUFFIXES,
    LoadedPage,
    find_page_file,
    load_page,
    natural_key,
    page_files,
    parse_snapshot,
    record_files,
)
from .dom import Element, Page, ParseError, parse_html
from .formats import FORMATS
from .mhtml_writer import mhtml_bytes, write_mhtml
from .snapshot import Resource, Snapshot, read_file_bytes, read_html, read_mhtml, read_snapshot

__all__ = [
    "FORMATS", "MAX_NESTING", "PAGE_READER_VERSION", "PAGE_SUFFIXES", "Element", "LoadedPage", "Page", "ParseError",
    "Resource", "Snapshot",
    "TooManyElementsError",
    "find_page_file", "formats", "load_page", "mhtml_bytes", "natural_key", "page_files", "parse_html",
    "parse_snapshot", "read_file_bytes", "read_html",
    "read_mhtml", "read_snapshot", "record_files", "write_mhtml",
]
