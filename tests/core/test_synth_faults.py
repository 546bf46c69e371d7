"""`recordlens synth`'s faults an explorer found, each fixed: variants keep their page's style sheets; a stopped
or killed run leaves pages that name their source; --rate 0 changes no structure; no page's HTML is held until
the end; what is said of pages labelled as holding none, of dropped XPaths and of pages without labels; a variant
of a variant names the original page; -t '' and repeated transformations; an empty detail in the manifest."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import time
import weakref
from pathlib import Path

import pytest

from recordlens.core.cli.command import main
from recordlens.core.extract.training import page_digest
from recordlens.core.page.dataset import load_page, synthetic_sources
from recordlens.core.page.dom import parse_html
from recordlens.core.page.mhtml_writer import mhtml_bytes
from recordlens.core.page.snapshot import Resource, read_snapshot
from recordlens.core.records.model import load_records
from recordlens.core.store.importer import import_paths, synthetic_sources_of
from recordlens.core.store.project import init_project, open_project
from recordlens.core.synth import pipeline
from recordlens.core.synth.pipeline import (
    MANIFEST,
    Source,
    SynthError,
    SynthOptions,
    dataset_sources,
    synthesise_dataset,
    synthesise_page,
)

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo" / "dataset"

SHOP = ("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Shop</title>"
        "<link rel=\"stylesheet\" href=\"http://shop.test/site.css\">"
        "<link rel=\"alternate stylesheet\" href=\"http://shop.test/alt.css\">"
        "<style>h1 { color: green }</style>"
        "<link rel=\"stylesheet\" href=\"/print.css\" media=\"print\"></head>"
        "<body><main><h1>Products</h1><ul class=\"items\">"
        + "".join(f"<li class=\"item\"><h2>Product {i}</h2><span class=\"price\">${i}.99</span></li>"
                  for i in range(1, 6))
        + "</ul></main></body></html>")
SHOP_RECORDS = [[f"/html[1]/body[1]/main[1]/ul[1]/li[{i}]"] for i in range(1, 6)]
SITE_CSS = b'@import url("base.css");\n.item { background: #fc0 } /* </style> in a comment */'


def shop_dataset(folder: Path) -> Path:
    """One MHTML page saved with its style sheets as parts (one imported by another), and its labels."""
    for sub in ("html", "gt"):
        (folder / sub).mkdir(parents=True)
    css = [Resource("http://shop.test/site.css", None, "text/css", SITE_CSS),
           Resource("http://shop.test/base.css", None, "text/css; charset=utf-8",
                    "body { font: 12px serif; content: 'é' }".encode()),
           Resource("http://shop.test/alt.css", None, "text/css", b"body { color: red }"),
           Resource("http://shop.test/print.css", None, "text/css", b"nav { display: none }"),
           Resource("http://shop.test/logo.png", None, "image/png", b"\x89PNG")]
    (folder / "html" / "1.mhtml").write_bytes(mhtml_bytes(SHOP, url="http://shop.test/", resources=css))
    (folder / "gt" / "1.json").write_text(json.dumps(SHOP_RECORDS), encoding="utf-8")
    return folder


def manifest(folder: Path) -> dict:
    return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))


def demo_synth(out: Path, **options: object) -> pipeline.SynthReport:
    return synthesise_dataset(dataset_sources(DEMO / "html", DEMO / "gt"), out, SynthOptions(**options))  # type: ignore[arg-type]


# 1. style sheets ---------------------------------------------------------------------------------------------


def test_a_variant_keeps_the_style_sheets_its_page_saved_inlined_in_order(tmp_path: Path) -> None:
    data = shop_dataset(tmp_path / "data")
    synthesise_dataset(dataset_sources(data / "html", data / "gt"), tmp_path / "out", SynthOptions(variants=1))
    html = (tmp_path / "out" / "html" / "1_v1.html").read_text(encoding="utf-8")
    head = html.split("</head>")[0]
    # the imported sheet first, then the linking one (its @import gone), the inline one, the print one; no alternate
    base, site, inline, printed = (head.index(t) for t in ("font: 12px serif", ".item { background: #fc0 }",
                                                          "h1 { color: green }", "nav { display: none }"))
    assert base < site < inline < printed
    assert "@import" not in head and "color: red" not in head and "content: 'é'" in head
    assert '<style media="print">nav' in head
    assert "<\\/style> in a comment" in head  # the sheet's text cannot end its <style> early
    assert head.count("<style") == 4
    # the MHTML holds the same HTML (a browser shows it styled, offline), and no image
    archived = read_snapshot(tmp_path / "out" / "mhtml" / "1_v1.mhtml")
    assert archived.html == html and not archived.resources
    # the labels still name the records
    page = load_page(tmp_path / "out" / "html" / "1_v1.html").page
    records = load_records(tmp_path / "out" / "gt" / "1_v1.json").records
    assert len(records) == 5 and all(page.resolve(x) is not None for r in records for x in r)
    document = manifest(tmp_path / "out")
    assert document["pages"][0]["style_sheets"] == {"kept": 4, "left_out": 0}
    assert "images" in document["kept"]["left_out"] and "style sheets" in document["kept"]["style_sheets"]


def test_a_style_sheet_the_page_links_but_did_not_save_is_counted_left_out_and_said(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    for sub in ("html", "gt"):
        (data / sub).mkdir(parents=True)
    (data / "html" / "1.html").write_text(SHOP, encoding="utf-8")  # plain HTML: its linked sheets are not there
    (data / "gt" / "1.json").write_text(json.dumps(SHOP_RECORDS), encoding="utf-8")
    assert main(["synth", "--pages", str(data / "html"), "--gt", str(data / "gt"), "--out", str(tmp_path / "out"),
                 "-k", "2", "-q"]) == 0
    assert manifest(tmp_path / "out")["pages"][0]["style_sheets"] == {"kept": 1, "left_out": 2}
    err = capsys.readouterr().err
    assert "note: 1 page (1) links style sheets that were not saved with it" in err


# 2. a stopped or killed run -------------------------------------------------------------------------------------


def stop_after_first(names):
    yield names[0]
    raise KeyboardInterrupt  # Ctrl+C while the second page is made


def test_a_stopped_run_names_each_page_written_with_its_source_and_import_notes_them(tmp_path: Path) -> None:
    sources = dataset_sources(DEMO / "html", DEMO / "gt")
    with pytest.raises(KeyboardInterrupt):
        synthesise_dataset(sources, tmp_path / "out", SynthOptions(variants=2), progress=stop_after_first)
    document = manifest(tmp_path / "out")
    assert document["complete"] is False
    assert [p["name"] for p in document["pages"]] == ["1_v1", "1_v2"]
    assert all(p["source_digest"] and p["transforms"] is not None for p in document["pages"])
    assert sorted(synthetic_sources(tmp_path / "out" / "html")) == ["1_v1", "1_v2"]
    with init_project(tmp_path / "p") as project:
        imported = import_paths(project, [tmp_path / "out"])
        assert sorted(imported.imported) == ["1_v1", "1_v2"]
        assert any("unfinished synth dataset" in w for w in imported.warnings)
        assert imported.unfinished == [str(tmp_path / "out")]
        assert sorted(synthetic_sources_of(project)) == ["1_v1", "1_v2"]  # their source kept, for good
    # The command exits 1, as `score` of an unfinished dataset does: pages or labels may be missing
    assert main(["project", "init", str(tmp_path / "q")]) == 0
    assert main(["import", str(tmp_path / "out"), "--project", str(tmp_path / "q"), "-q"]) == 1
    assert main(["import", str(DEMO), "--project", str(tmp_path / "q"), "-q"]) == 0


def test_a_killed_run_leaves_a_manifest_that_names_every_page_on_disk(tmp_path: Path) -> None:
    out = tmp_path / "out"
    command = ("from recordlens.core.cli.command import main; "
               f"main(['synth', '--pages', {str(DEMO / 'html')!r}, '--gt', {str(DEMO / 'gt')!r}, '--out', "
               f"{str(out)!r}, '-k', '300', '-q'])")
    process = subprocess.Popen([sys.executable, "-c", command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(list((out / "gt").glob("*.json")) if (out / "gt").is_dir()
                                                   else []) < 30:
            time.sleep(0.05)
    finally:
        process.kill()  # SIGKILL: no clean-up runs
        process.wait()
    on_disk = {p.name.split(".")[0] for sub in ("html", "mhtml", "gt") for p in (out / sub).iterdir()
               if not p.name.startswith(".")}
    assert len(on_disk) >= 30 and manifest(out)["complete"] is False
    named = synthetic_sources(out / "html")
    assert on_disk <= set(named), sorted(on_disk - set(named))[:5]


def test_the_command_says_what_a_stopped_run_left(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr("recordlens.core.cli.synth.progress", lambda names, **kwargs: stop_after_first(names))
    code = main(["synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(tmp_path / "out"),
                 "-k", "2"])
    assert code == 130
    err = capsys.readouterr().err
    assert (f"{tmp_path / 'out'}: synth stopped after 2 of 8 pages (6 of 24 files written); synth.json names each "
            "page written and its source page, and says complete: false; run the same command again") in err


def test_import_says_which_pages_of_a_synth_dataset_its_manifest_does_not_name(tmp_path: Path) -> None:
    demo_synth(tmp_path / "out", variants=1)
    document = manifest(tmp_path / "out")
    document.update(complete=False, pages=document["pages"][:1])  # as a run of an older RecordLens stopped left it
    (tmp_path / "out" / MANIFEST).write_text(json.dumps(document), encoding="utf-8")
    with init_project(tmp_path / "p") as project:
        imported = import_paths(project, [tmp_path / "out"])
    said = [w for w in imported.warnings if "not named with their source page" in w]
    assert len(said) == 1 and "3 pages of this synth dataset (2_v1, 3_v1, 4_v1)" in said[0]


def test_the_manifest_is_the_json_of_its_document_whatever_the_order_pages_were_written_in(tmp_path: Path) -> None:
    demo_synth(tmp_path / "out", variants=11)
    text = (tmp_path / "out" / MANIFEST).read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=1) + "\n"
    names = [p["name"] for p in json.loads(text)["pages"]]
    assert names[:3] == ["1_v1", "1_v2", "1_v3"] and names[9:11] == ["1_v10", "1_v11"]


# 3. --rate 0 ----------------------------------------------------------------------------------------------------


def test_rate_0_changes_no_structure_unless_at_least_one_is_asked_for(tmp_path: Path) -> None:
    demo_synth(tmp_path / "zero", variants=3, rate=0.0)
    assert all(p["transforms"] == [] and p["content"] for p in manifest(tmp_path / "zero")["pages"])
    demo_synth(tmp_path / "one", variants=3, rate=0.0, at_least_one=True)
    pages = manifest(tmp_path / "one")["pages"]
    # one transformation changed each variant (one drawn that did not apply to the page is listed with count 0)
    assert all(sum(1 for t in p["transforms"] if t["count"]) == 1 for p in pages)
    assert manifest(tmp_path / "one")["options"]["at_least_one"] is True


def test_a_low_rate_is_each_transformations_chance_alone(tmp_path: Path) -> None:
    source = Source("1", (DEMO / "html" / "1.html").read_text(encoding="utf-8"),
                    load_records(DEMO / "gt" / "1.json").records)
    options = SynthOptions(rate=0.02, content=False)
    drawn = sum(len(synthesise_page(source, k, options).transforms) for k in range(1, 41))
    assert drawn <= 25  # about 0.2 per variant (40 x 10 x 0.02 = 8); one forced per variant would give 40 or more


# 4. memory ------------------------------------------------------------------------------------------------------


def test_no_page_is_held_once_its_files_are_written(tmp_path: Path, monkeypatch) -> None:
    made: list[weakref.ref] = []
    real = pipeline.synthesise_page

    def tracked(*args, **kwargs):
        page = real(*args, **kwargs)
        made.append(weakref.ref(page))
        return page

    monkeypatch.setattr(pipeline, "synthesise_page", tracked)
    report = demo_synth(tmp_path / "out", variants=3)
    gc.collect()
    assert len(made) == 12 and all(ref() is None for ref in made)
    assert len(report.pages) == 12 and not hasattr(report.pages[0], "html")


def test_an_absurd_number_of_variants_is_refused(tmp_path: Path, capsys) -> None:
    with pytest.raises(SynthError, match="at most 1,000"):
        SynthOptions(variants=100_000)
    assert main(["synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "--out", str(tmp_path / "o"),
                 "-k", "5000"]) == 2
    assert "--variants is at most 1,000" in capsys.readouterr().err


# 5. what is said ------------------------------------------------------------------------------------------------


def small_dataset(folder: Path) -> Path:
    for sub in ("html", "gt"):
        (folder / sub).mkdir(parents=True)
    for name in ("1", "2"):
        (folder / "html" / f"{name}.html").write_bytes((DEMO / "html" / f"{name}.html").read_bytes())
    (folder / "gt" / "1.json").write_text("[]")  # a page labelled as holding no record
    truth = load_records(DEMO / "gt" / "2.json").records
    (folder / "gt" / "2.json").write_text(json.dumps([[*truth[0], "/html[1]/body[1]/nowhere[1]"], *truth[1:]]))
    (folder / "html" / "3.html").write_bytes((DEMO / "html" / "3.html").read_bytes())  # no labels
    return folder


def test_what_synth_says_of_empty_labels_dropped_xpaths_and_pages_without_labels(tmp_path: Path, capsys) -> None:
    data = small_dataset(tmp_path / "data")
    code = main(["synth", "--pages", str(data / "html"), "--gt", str(data / "gt"), "--out", str(tmp_path / "out"),
                 "-k", "3", "-q"])
    err = capsys.readouterr().err
    assert "page 1 is labelled as holding no record; so are its variants (1_v1, 1_v2, 1_v3)" in err
    assert "after the labels' XPaths were dropped" not in err and "hold no record though" not in err
    assert err.count("resolve to nothing and were dropped") == 1  # once for page 2, not once per variant
    said = f"1 page of {data / 'html'} has no ground truth in {data / 'gt'} (3); left out"
    assert f"warning: {said}" in err and said in manifest(tmp_path / "out")["problems"]
    assert code == 1  # a page left out
    assert load_records(tmp_path / "out" / "gt" / "1_v2.json").records == []


def test_a_project_page_labelled_as_holding_none_has_variants_too(tmp_path: Path) -> None:
    data = small_dataset(tmp_path / "data")
    (data / "html" / "3.html").unlink()
    with init_project(tmp_path / "p") as project:
        import_paths(project, [data])
    report = synthesise_dataset(pipeline.project_sources(tmp_path / "p"), tmp_path / "out", SynthOptions(variants=1))
    assert [p.name for p in report.pages] == ["1_v1", "2_v1"] and not report.problems


# 6. a variant of a variant ----------------------------------------------------------------------------------------


def test_a_variant_of_a_variant_names_the_original_page_from_a_dataset_and_from_a_project(tmp_path: Path) -> None:
    demo_synth(tmp_path / "first", variants=1, seed=3)
    originals = {p["name"]: p["source_digest"] for p in manifest(tmp_path / "first")["pages"]}
    html = (DEMO / "html" / "2.html").read_text(encoding="utf-8")
    assert originals["2_s3_v1"] == page_digest(parse_html(html), load_records(DEMO / "gt" / "2.json").records)
    synthesise_dataset(dataset_sources(tmp_path / "first" / "html", tmp_path / "first" / "gt"), tmp_path / "second",
                       SynthOptions(variants=1, seed=4))
    second = {p["name"]: p for p in manifest(tmp_path / "second")["pages"]}
    assert second["2_s3_v1_s4_v1"]["source_digest"] == originals["2_s3_v1"]
    variant = (tmp_path / "first" / "html" / "2_s3_v1.html").read_text(encoding="utf-8")
    assert second["2_s3_v1_s4_v1"]["input_digest"] == page_digest(
        parse_html(variant), load_records(tmp_path / "first" / "gt" / "2_s3_v1.json").records)
    with init_project(tmp_path / "p") as project:
        import_paths(project, [tmp_path / "first"])
    synthesise_dataset(pipeline.project_sources(tmp_path / "p"), tmp_path / "third", SynthOptions(variants=1))
    third = {p["name"]: p["source_digest"] for p in manifest(tmp_path / "third")["pages"]}
    assert third == {f"{name}_v1": digest for name, digest in originals.items()}
    with open_project(tmp_path / "p") as project:  # the project's own note is the original's too
        assert synthetic_sources_of(project) == originals


# 7. minor ---------------------------------------------------------------------------------------------------------


def test_an_empty_transformation_list_is_refused_and_a_repeated_one_counts_once(tmp_path: Path, capsys) -> None:
    args = ["synth", "--pages", str(DEMO / "html"), "--gt", str(DEMO / "gt"), "-k", "1", "-q"]
    assert main([*args, "--out", str(tmp_path / "a"), "-t", ""]) == 2
    assert "--transforms is empty" in capsys.readouterr().err
    assert main([*args, "--out", str(tmp_path / "b"), "-t", "shuffle_records,shuffle_records", "--rate", "1"]) == 0
    assert manifest(tmp_path / "b")["options"]["transforms"] == ["shuffle_records"]


def test_a_transformation_that_did_nothing_says_so_in_the_manifest(tmp_path: Path) -> None:
    source = Source("1", "<html><body><p>Tea</p><p>Rice</p></body></html>",
                    [["/html[1]/body[1]/p[1]"], ["/html[1]/body[1]/p[2]"]])
    result = synthesise_page(source, 1, SynthOptions(content=False), chosen=["rename_container", "table_cards"])
    assert all(t["detail"] for t in result.transforms), result.transforms
