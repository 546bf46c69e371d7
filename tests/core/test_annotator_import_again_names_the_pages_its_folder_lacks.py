"""An annotator's folder imported again without a page their set holds (removed from their copy since): the page's
labels stay in the set (a folder may hold part of a set), and the summary says so, naming the page and the command
that takes it out. It said "nothing changed" alone, and `agreement` went on comparing the labels of a page the
annotator had dropped."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from recordlens.core.cli.command import main
from recordlens.core.store import import_paths, init_project, open_project

DEMO = Path(__file__).resolve().parents[2] / "resources" / "demo" / "dataset"


def _folder(root: Path, pages: tuple[str, ...]) -> Path:
    """A NEXT-EVAL folder of these pages of the demo dataset, each with all but its first record (bob's labels)."""
    (root / "html").mkdir(parents=True)
    (root / "gt").mkdir()
    for page in pages:
        shutil.copy(DEMO / "html" / f"{page}.html", root / "html")
        records = json.loads((DEMO / "gt" / f"{page}.json").read_text(encoding="utf-8"))
        (root / "gt" / f"{page}.json").write_text(json.dumps(records[1:]), encoding="utf-8")
    return root


def _command(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    said = capsys.readouterr()
    return code, said.out, said.err


def _bobs_pages(project: Path) -> list[str]:
    with open_project(project) as opened:
        return opened.annotators.pages("bob")


def test_a_page_the_new_folder_lacks_is_said_kept_with_the_command_that_drops_it(tmp_path: Path, capsys) -> None:
    p = tmp_path / "P"
    with init_project(p) as project:
        import_paths(project, [DEMO])
    v1, v2 = _folder(tmp_path / "v1", ("1", "2", "3")), _folder(tmp_path / "v2", ("1", "3"))
    code, out, _ = _command(capsys, "import", str(v1), "--project", str(p), "--annotator", "bob")
    assert code == 0 and "also holds" not in out, out
    code, out, err = _command(capsys, "import", str(v2), "--project", str(p), "--annotator", "bob")
    assert code == 0, err
    assert "nothing changed" in out and ("bob's set also holds 1 page this import brought no labels of (2), kept as "
                                         "it was") in out, out
    drop = f"recordlens annotators --project {p} --remove bob --page 2"
    assert f"`{drop}` takes it out" in out, out
    assert _bobs_pages(p) == ["1", "2", "3"]  # kept: a folder may hold part of a set
    assert _command(capsys, *drop.split()[1:])[0] == 0  # the command said works as given
    assert _bobs_pages(p) == ["1", "3"]
    code, out, _ = _command(capsys, "import", str(v2), "--project", str(p), "--annotator", "bob")
    assert code == 0 and "also holds" not in out, out  # the set and the folder agree now


def test_labels_set_aside_put_back_are_not_said_to_lack_the_rest_of_the_set(tmp_path: Path, capsys) -> None:
    p = tmp_path / "P"
    with init_project(p) as project:
        import_paths(project, [DEMO])
    assert _command(capsys, "import", str(_folder(tmp_path / "v1", ("1", "2"))), "--project", str(p),
                    "--annotator", "bob")[0] == 0
    assert _command(capsys, "annotators", "--project", str(p), "--remove", "bob", "--page", "2")[0] == 0
    (set_aside,) = (p / "removed" / "annotators").iterdir()
    code, out, err = _command(capsys, "import", str(set_aside), "--project", str(p), "--annotator", "bob")
    assert code == 0 and "also holds" not in out, out  # a set-aside folder holds part of a set by its nature
    assert _bobs_pages(p) == ["1", "2"]


def test_many_pages_lacking_are_named_in_part_with_a_command_for_the_first_few(tmp_path: Path) -> None:
    from recordlens.core.store.label_sets import remove_pages_hint

    pages = [str(n) for n in range(1, 12)]
    hint = remove_pages_hint(Path("my p"), "bob", pages)
    assert hint.startswith("`recordlens annotators --project 'my p' --remove bob --page 1 --page 2 ")
    assert "--page 8`" in hint and "--page 9" not in hint and "the other 3" in hint
