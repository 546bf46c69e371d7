"""Two connections on one project file, as two app windows hold it: a page 12 of a list of four items whose item 1 is
an accepted record, and, when given, bea's labels of the page."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from recordlens.core.store.files import store_snapshot
from recordlens.core.store.project import Project, Provenance, init_project, open_project

ANA = Provenance.person("ana")
BEN = Provenance.person("ben")
HTML = b"<html><body><ul><li>a</li><li>b</li><li>c</li><li>d</li></ul></body></html>"
ITEM = "/body[1]/ul[1]/li[{}]"


@contextmanager
def two_windows(folder: Path, beas: Sequence[int] = ()) -> Iterator[tuple[Project, Project]]:
    """Two connections on a new project at `folder` (page 12, item 1 accepted); bea labelled the items `beas`."""
    with init_project(folder) as project:
        digest = store_snapshot(project.root, HTML, ".html")
        project.add_page("12", digest, ".html", len(HTML))
        project.add_records("12", [[ITEM.format(1)]], ANA, status="accepted")
        if beas:
            project.annotators.set_page("bea", "12", [[ITEM.format(item)] for item in beas])
    with open_project(folder) as first, open_project(folder) as second:
        yield first, second
