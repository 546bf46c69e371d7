"""Why `score`, `bench` and `extract` cannot read a dataset's page (`why_no_page_file`: no file for it, or an entry
named like it that is no file; `load_page`'s errors: an empty file) names the path as a hint names it
(`command_hints.hint_path`): in a folder named in bytes that are not UTF-8 (`caf\\xe9`) as `"$(printf %b
'…/caf\\0351/…')"`, in one whose name holds a space quoted (`'…/my dir/…'`), never the raw bytes, on stdout (the list
of pages left out) as on stderr and in `--json`, under a UTF-8 locale (C.UTF-8) as under the C locale. Each command
runs as a process of its own, under that locale."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from recordlens.core.command_hints import hint_path
from recordlens.core.page.dataset import load_page, why_no_page_file
from recordlens.core.runs.evaluate import PageNotRead, read_page
from tests.core.cli_runs import DEMO
from tests.core.test_summaries_name_paths_as_hints import CASES, recordlens
from tests.shell_words import made_folder

pytestmark = pytest.mark.timeout(600)


def damaged_dataset(folder: Path) -> Path:
    """The demo dataset in `folder`, its page 2 emptied, page 3's file gone and page 4's a folder."""
    made_folder(folder)
    data = folder / "data"
    shutil.copytree(DEMO, data)
    (data / "html" / "2.html").write_bytes(b"")
    (data / "html" / "3.html").unlink()
    (data / "html" / "4.html").unlink()
    (data / "html" / "4.html").mkdir()
    return data


def reasons(html: Path) -> dict[str, str]:
    """Why each damaged page cannot be read, as every command says it."""
    return {"2": f"Cannot read {hint_path(html / '2.html')}: the file is empty",
            "3": f"no page 3.html or 3.mhtml in {hint_path(html)}",
            "4": f"{hint_path(html / '4.html')}: a folder, not a page file; not read as the page"}


def test_the_reasons_name_the_paths_as_hints(tmp_path: Path) -> None:
    html = damaged_dataset(tmp_path / os.fsdecode(b"my caf\xe9")) / "html"
    said = reasons(html)
    assert said["3"].endswith(hint_path(html)) and hint_path(html).startswith('"$(printf %b ')
    assert why_no_page_file(html)("3") == said["3"]
    assert why_no_page_file(html)("4") == said["4"]
    with pytest.raises(Exception, match=r'^Cannot read "\$\(printf %b ') as raised:
        load_page(html / "2.html")
    assert str(raised.value).startswith(said["2"])
    not_read = read_page(html / "2.html", "2")
    assert isinstance(not_read, PageNotRead) and not_read.why.startswith(said["2"])


@pytest.mark.parametrize(("name", "locale"), CASES, ids=lambda value: ascii(value))
def test_score_and_bench_list_the_pages_left_out_with_their_paths_as_hints(tmp_path: Path, name: bytes,
                                                                          locale: str) -> None:
    folder = tmp_path / os.fsdecode(name)
    data = damaged_dataset(folder)
    said = reasons(data / "html")
    run_dir = folder / "run"
    code, _, err = recordlens(locale, "extract", "--method", "mdr", "--pages", data / "html", "--out", run_dir, "-q")
    assert code == 1, err
    assert f"warning: page 2 failed: {said['2']}" in err and f"warning: {said['4']}" in err, err

    code, out, err = recordlens(locale, "score", "--pred", run_dir, "--gt", data / "gt", "--pages", data / "html",
                                "-q")
    assert code == 1, err
    for name, why in said.items():
        assert f"\n  {name}: {why}" in out, out
    code, out, err = recordlens(locale, "score", "--pred", run_dir, "--gt", data / "gt", "--pages", data / "html",
                                "-q", "--json")
    assert code == 1, err
    document = json.loads(out)["pages_not_read"]
    assert {name: why[:len(said[name])] for name, why in document.items()} == said

    code, out, err = recordlens(locale, "bench", "--pages", data / "html", "--gt", data / "gt", "--methods", "mdr",
                                "--no-chart", "-q")
    assert code == 1, err
    for name, why in said.items():
        assert f"\n  {name}: {why}" in out, out
