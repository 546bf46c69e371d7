"""The agent's, the dataset readers', the records' and synth's errors and messages name a path as a hint names one
(`command_hints.hint_path`): for a folder whose name holds a space and a byte that is not UTF-8 (`caf\\xe9 x`), the
form a POSIX shell reads back as those bytes, never the raw name (which a UTF-8 terminal cannot show, Qt drops a
byte of, a space makes ambiguous, and a UTF-8 file such as synth.json cannot hold). One error or message of each
module that says them: an accessibility tree's, a candidates file's, a capture's summary, a references folder's, a
model folder's, a site's, a tasks file's, a dataset folder's, a saved page's, a records file's, a labels check's
and synth's."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from recordlens.core.agent.axtree import read_tree
from recordlens.core.agent.candidates import load_candidates
from recordlens.core.agent.capture import CaptureSummary
from recordlens.core.agent.model import reference_files
from recordlens.core.agent.near_duplicates import SentenceTransformerEmbedder
from recordlens.core.agent.sites import build_site
from recordlens.core.agent.tasks import load_tasks
from recordlens.core.command_hints import hint_path
from recordlens.core.errors import RecordLensError
from recordlens.core.page.dataset import SYNTH_MANIFEST, lands_outside, load_page, page_files
from recordlens.core.page.snapshot import read_snapshot
from recordlens.core.path_text import shown_bytes
from recordlens.core.records.hygiene import dataset_labels
from recordlens.core.records.model import load_records
from recordlens.core.synth.pipeline import SynthOptions, dataset_sources, synthesise_dataset
from tests.shell_words import made_folder, read_back

ODD = "caf\udce9 x"  # a space, and the byte 0xe9 of a Latin-1 name (os.fsdecode's surrogateescape)
PAGE = "<html><body><ul><li>a</li><li>b</li></ul></body></html>"


@pytest.fixture
def odd(tmp_path: Path) -> Path:
    """A folder named with a space and a byte that is not UTF-8."""
    return made_folder(tmp_path / ODD)


def named_as_a_hint(message: str, path: Path | str) -> None:
    """`message` names `path` as a hint does, which `sh` reads back as the path's bytes, and never as it is."""
    hint = hint_path(path)
    assert hint in message, message
    assert read_back(hint) == [os.fsencode(path)]
    assert str(path) not in message and shown_bytes(str(path)) not in message, message


def said(call: object, *args: object) -> str:
    """What the RecordLensError raised by `call(*args)` says."""
    with pytest.raises(RecordLensError) as raised:
        call(*args)  # type: ignore[operator]
    return str(raised.value)


def test_an_accessibility_tree_is_named_as_a_hint(odd: Path) -> None:
    named_as_a_hint(said(read_tree, odd / "a.axtree.json"), odd / "a.axtree.json")
    (odd / "b.axtree.json").write_text("{}", encoding="utf-8")
    named_as_a_hint(said(read_tree, odd / "b.axtree.json"), odd / "b.axtree.json")


def test_a_candidates_file_is_named_as_a_hint(odd: Path) -> None:
    named_as_a_hint(said(load_candidates, odd / "c.jsonl"), odd / "c.jsonl")
    (odd / "d.jsonl").write_text("not JSON\n", encoding="utf-8")
    named_as_a_hint(said(load_candidates, odd / "d.jsonl"), odd / "d.jsonl")


def test_a_capture_s_summary_names_its_folder_as_a_hint(odd: Path) -> None:
    summary = CaptureSummary(folder=str(odd))
    named_as_a_hint(summary.message(), odd)
    named_as_a_hint(summary.no_site(), odd)
    summary.index_error = "the disk is full"
    named_as_a_hint(summary.no_site(), odd / "pages")


def test_a_references_folder_and_file_are_named_as_hints(odd: Path) -> None:
    named_as_a_hint(said(reference_files, odd / "refs"), odd / "refs")
    (odd / "refs").mkdir()
    (odd / "refs" / "t.json").write_text("[]", encoding="utf-8")
    named_as_a_hint(said(reference_files, odd / "refs"), odd / "refs" / "t.json")


def test_a_model_folder_is_named_as_a_hint(odd: Path) -> None:
    named_as_a_hint(said(SentenceTransformerEmbedder, odd / "model"), odd / "model")


def test_a_site_folder_and_its_pages_are_named_as_hints(odd: Path) -> None:
    named_as_a_hint(said(build_site, odd / "none"), odd / "none")
    site = odd / "site"
    site.mkdir()
    (site / "a b.html").write_bytes(b"")  # a page that cannot be read
    refused = said(build_site, site)
    named_as_a_hint(refused, site)
    (site / "c.html").write_text(f"<!-- saved from url=(0022)http://example.com/ -->{PAGE}", encoding="utf-8")
    warnings = "\n".join(build_site(site, write=False).warnings)
    assert warnings.startswith(f"{hint_path('a b.html')} left out: Cannot read "), warnings
    named_as_a_hint(warnings, site / "a b.html")


def test_a_tasks_file_is_named_as_a_hint(odd: Path) -> None:
    named_as_a_hint(said(load_tasks, odd / "t.jsonl"), odd / "t.jsonl")
    (odd / "u.jsonl").write_text("{}\n", encoding="utf-8")
    named_as_a_hint(said(load_tasks, odd / "u.jsonl"), odd / "u.jsonl")


def test_a_dataset_s_folders_are_named_as_hints(odd: Path) -> None:
    named_as_a_hint(said(page_files, odd / "html"), odd / "html")
    named_as_a_hint(str(lands_outside(odd / "gt", "../x.json", "../x")), odd / "gt")
    (odd / "html").mkdir()
    (odd / SYNTH_MANIFEST).write_text('{"complete": false}', encoding="utf-8")
    warnings: list[str] = []
    page_files(odd / "html", warnings)
    named_as_a_hint("\n".join(warnings), odd)


def test_a_saved_page_is_named_as_a_hint(odd: Path) -> None:
    (odd / "e.html").write_bytes(b"")
    named_as_a_hint(said(read_snapshot, odd / "e.html"), odd / "e.html")
    refused = said(load_page, odd / "e.html")  # said once, as a hint, however read
    assert refused.startswith(f"Cannot read {hint_path(odd / 'e.html')}: the file is empty"), refused
    assert refused.count("Cannot read") == 1, refused


def test_a_records_file_is_named_as_a_hint(odd: Path) -> None:
    named_as_a_hint(said(load_records, odd / "1.json"), odd / "1.json")
    (odd / "2.json").write_text("not JSON", encoding="utf-8")
    named_as_a_hint(said(load_records, odd / "2.json"), odd / "2.json")
    (odd / "3.json").write_text('[{"a": 1}]', encoding="utf-8")
    named_as_a_hint(said(load_records, odd / "3.json"), odd / "3.json")


def test_a_labels_check_names_the_files_as_hints(odd: Path) -> None:
    (odd / "html").mkdir()
    (odd / "gt").mkdir()
    (odd / "gt" / "1.json").write_text("[]", encoding="utf-8")
    unreadable: list[str] = []
    assert list(dataset_labels(odd / "html", odd / "gt", unreadable)) == []
    named_as_a_hint("\n".join(unreadable), odd / "gt" / "1.json")
    named_as_a_hint("\n".join(unreadable), odd / "html")


def test_synth_names_its_folders_as_hints_and_keeps_them_in_its_manifest(odd: Path) -> None:
    (odd / "html").mkdir()
    (odd / "gt").mkdir()
    named_as_a_hint(said(dataset_sources, odd / "html", odd / "gt"), odd / "html")
    (odd / "html" / "1.html").write_text(PAGE, encoding="utf-8")
    (odd / "html" / "2.html").write_text(PAGE, encoding="utf-8")  # a page without labels: said, and kept in synth.json
    (odd / "gt" / "1.json").write_text('[["/html/body/ul/li[1]"], ["/html/body/ul/li[2]"]]', encoding="utf-8")
    sources = dataset_sources(odd / "html", odd / "gt")
    named_as_a_hint("\n".join(sources.problems), odd / "gt")
    out = odd / "out"
    synthesise_dataset(sources, out, SynthOptions(variants=1, seed=1))
    problems = json.loads((out / SYNTH_MANIFEST).read_text(encoding="utf-8"))["problems"]
    named_as_a_hint("\n".join(problems), odd / "html")
    named_as_a_hint(said(synthesise_dataset, sources, odd / "html", SynthOptions(variants=1, seed=1)), odd / "html")
