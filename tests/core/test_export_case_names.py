"""Two pages whose names differ only in case (`Page` and `page`) export to two files that a file system ignoring
case (macOS, Windows) keeps apart too: the second as `page (2)`, said."""

from __future__ import annotations

import json
from pathlib import Path

from recordlens.core.cli.command import main

HTML = "<html><body><ul><li>one</li><li>two</li></ul></body></html>"


def test_two_pages_whose_names_differ_only_in_case_are_exported_apart(tmp_path: Path, capsys) -> None:
    ds = tmp_path / "ds"
    (ds / "html").mkdir(parents=True)
    (ds / "gt").mkdir()
    for name, item in (("Page", "one"), ("page", "two"), ("PAGE (2)", "three")):
        (ds / "html" / f"{name}.html").write_text(HTML.replace("one", item), encoding="utf-8")
        (ds / "gt" / f"{name}.json").write_text(json.dumps([["/body[1]/ul[1]/li[1]"]]), encoding="utf-8")
    project = tmp_path / "P"
    assert main(["project", "init", str(project)]) == 0
    assert main(["import", str(ds), "--project", str(project), "-q"]) == 0
    capsys.readouterr()
    out = tmp_path / "out"
    assert main(["export", "--project", str(project), "--format", "nexteval", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    html = sorted(p.stem for p in (out / "html").iterdir())
    gt = sorted(p.stem for p in (out / "gt").iterdir())
    assert len({stem.casefold() for stem in html}) == 3 == len(html) and html == gt
    assert "page (3)" in [stem.casefold() for stem in html]  # not "page (2)", which another page's name is
    assert "exported as 'page (3)', as its name is that of page 'Page' in another case" in err or \
        "exported as 'Page (3)', as its name is that of page 'page' in another case" in err, err
