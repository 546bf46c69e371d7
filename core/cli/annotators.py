"""`recordlens annotators --project P`: the other annotators' label sets a project holds, and taking one (or some
of its pages) out when it was imported by mistake, its labels set aside in the project folder first."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..command_hints import hint_path, hint_words
from ..errors import RecordLensError
from ..page.dataset import natural_key
from ..path_text import shown_bytes
from ..store.agreement import also_persons, unlike
from ..store.label_sets import PERSON_PREFIX, SET_ASIDE, SetAside, SetPage, kept_set_asides
from ..store.project import open_project
from ..store.removed_files import REMOVED
from ..text_forms import visible, written
from ..wording import counted, listed
from .output import print_json


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("annotators", help="list other annotators' label sets; remove one imported by mistake",
                       description="List the label sets imported with `import --annotator NAME`, with their pages "
                                   "and how many records each holds. --remove NAME takes a set out of the project "
                                   "(or, with --page, some of its pages); what it removes is first written to "
                                   f"P/{REMOVED}/{SET_ASIDE}/NAME.TIME/ (gt/N.json), which `import --annotator "
                                   "NAME` puts back. The project's own labels are never touched.")
    p.add_argument("--project", required=True, metavar="DIR", help="the project's folder")
    p.add_argument("--remove", metavar="NAME", help="take this annotator's label set out of the project")
    p.add_argument("--page", action="append", metavar="N",
                   help="with --remove: only this page of the set (again for more pages), such as a page the "
                        "annotator's newer folder lacks (`import --annotator` names those, and keeps them)")
    p.add_argument("--json", action="store_true", help="print the label sets as JSON, every page of each")
    p.set_defaults(handler=cmd_annotators, only_reads=lambda args: args.remove is None)


def cmd_annotators(args: argparse.Namespace) -> int:
    if args.page and not args.remove:
        raise RecordLensError("--page names pages of the set to remove: it goes with --remove NAME")
    if args.remove is not None:
        with open_project(args.project) as project:
            kept = project.annotators.remove(args.remove, args.page)
        print(shown_bytes(_removed(kept, Path(args.project), whole=not args.page)))
        return 0
    with open_project(args.project) as project:  # only reads: on read-only media, listed where it is
        pages = project.annotators.set_pages()
        people = {name: found for name in project.annotators.names() if (found := also_persons(project, name))}
    if args.json:
        print_json([vars(page) for page in pages], indent=1)
    else:
        print(format_sets(pages, people, Path(args.project)))
    return 0


def format_sets(pages: list[SetPage], persons: dict[str, dict[str, int]], project: Path) -> str:
    """One paragraph per set: its pages and records, then its pages with their record counts, and the persons of the
    app under its name or another spelling of it (`persons`: set -> person -> pages they labelled); then where the
    labels set aside are kept, if some are (the hidden folder a command stopped part way left is none: it is
    removed)."""
    set_aside = kept_set_asides(project)
    if not pages:
        return "no other annotator's labels in the project (`recordlens import DIR --annotator NAME` adds some)"
    sets: dict[str, list[SetPage]] = {}
    for page in pages:
        sets.setdefault(page.annotator, []).append(page)
    lines = []
    for name, held in sets.items():
        held.sort(key=lambda p: natural_key(p.page))
        last = max(p.imported_at for p in held)
        records = counted(sum(p.records for p in held), "record")
        lines.append(f"{visible(name)}: {counted(len(held), 'page')}, {records} "
                     f"(last imported {last[:16].replace('T', ' ')} UTC)")
        # the first few: a set of a thousand pages would fill a screen (`--json` lists them all)
        pages = [f"{visible(p.page)} ({p.records})" for p in held]  # two names that read alike show how they differ
        lines.append("  pages (records): " + listed(pages, PAGES_SHOWN) + ("; `--json` lists them all" if
                                                                          len(pages) > PAGES_SHOWN else ""))
        lines += [_also_a_person(name, person, n) for person, n in persons.get(name, {}).items()]
    if set_aside:
        lines.append(f"labels replaced or removed earlier are kept in {hint_path(project / REMOVED / SET_ASIDE)} (each "
                     "folder is put back by `import FOLDER --annotator NAME`)")
    return "\n".join(lines)


PAGES_SHOWN = 8  # of a set's pages, those a line names


def _also_a_person(annotator: str, person: str, pages: int) -> str:
    """A person of the app whose name is the set's, or another spelling of it, which `agreement` reads as the set."""
    if person == annotator:
        return (f"  ({annotator} is also a person who labelled {counted(pages, 'page')} in the app: `agreement` names "
                f"that person {PERSON_PREFIX}{annotator})")
    return (f"  (a person who labelled {counted(pages, 'page')} in the app is named {written(person)}, another "
            f"spelling of {written(annotator)} ({unlike(person, annotator)}): `agreement` reads that name as this "
            f"set, and names the person {hint_words([PERSON_PREFIX + person])})")


def _removed(kept: SetAside, project: Path, *, whole: bool) -> str:
    pages = listed([f"{page} ({counted(n, 'record')})" for page, n in kept.pages.items()], PAGES_SHOWN)
    what = (f"{kept.annotator}'s label set ({counted(len(kept.pages), 'page')}: " if whole else
            f"{counted(len(kept.pages), 'page')} of {kept.annotator}'s label set (")
    return f"removed {what}{pages}); kept in {hint_path(kept.folder)} ({kept.how_to_restore(project)})"
