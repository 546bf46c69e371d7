"""`site build` and the files a capture keeps beside a page: one that is a symbolic link out of the site folder is
left out of the index with a warning, and not read (an index naming it is refused by `load_site`, whose advice is
to run `site build`: it must then build an index that loads); one that is gone is said, in good grammar."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from recordlens.core.agent.capture import CaptureRules, capture_site
from recordlens.core.agent.sites import build_site, load_site
from tests.core.canned_web import NO_ROBOTS, Web

ROOT = "https://shop.example/"
ABOUT = ROOT + "about"


def _captured(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    capture_site([ROOT], site, Web({ROOT: ("Home", ["about"]), ABOUT: ("About", ["/"])}), CaptureRules(depth=1),
                 robots=NO_ROBOTS)
    return site


def _moved_out(site: Path, kind: str) -> tuple[Path, str]:
    """The about page's side file of `kind` moved out of the folder, a link to it left in its place."""
    relative = str(load_site(site).page(ABOUT).side_file(kind))
    outside = site.parent / "elsewhere" / Path(relative).name
    outside.parent.mkdir(exist_ok=True)
    shutil.move(site / relative, outside)
    os.symlink(outside, site / relative)
    return outside, relative


@pytest.mark.parametrize("kind", ["screenshot", "axtree", "meta"])
def test_a_side_file_linking_out_of_the_folder_is_left_out_with_a_warning(tmp_path: Path, kind: str) -> None:
    site = _captured(tmp_path)
    page_file = load_site(site).page(ABOUT).file
    _, relative = _moved_out(site, kind)
    built = build_site(site)
    assert built.warnings == [f"{page_file}: its capture's {Path(relative).name} is left out: it links to a file "
                              "outside the site folder"]
    assert built.page(ABOUT).side_file(kind) is None
    assert all(built.page(ABOUT).side_file(k) for k in ("screenshot", "axtree", "meta") if k != kind)
    loaded = load_site(site)  # the index it wrote loads: `site build` was the advice, and it is a way out
    assert loaded.page(ABOUT).side_file(kind) is None and len(loaded.pages) == 2


def test_a_meta_json_linking_out_of_the_folder_is_not_read(tmp_path: Path) -> None:
    site = _captured(tmp_path)
    outside, _ = _moved_out(site, "meta")
    data = json.loads(outside.read_text("utf-8"))
    outside.write_text(json.dumps(data | {"aliases": [ROOT + "planted"]}), "utf-8")  # not the site's to say
    built = build_site(site)
    assert built.page(ROOT + "planted", exact=True) is None and built.page(ABOUT).aliases == ()


def test_side_files_that_are_gone_are_said_singular_or_plural(tmp_path: Path) -> None:
    site = _captured(tmp_path)
    page = load_site(site).page(ABOUT)
    (site / str(page.side_file("screenshot"))).unlink()
    [said] = build_site(site, write=False).warnings
    assert f"its capture's {Path(str(page.side_file('screenshot'))).name} is gone from the folder;" in said
    (site / str(page.side_file("axtree"))).unlink()
    [said] = build_site(site, write=False).warnings
    assert (f"its capture's {Path(str(page.side_file('axtree'))).name} and "
            f"{Path(str(page.side_file('screenshot'))).name} are gone from the folder;") in said
