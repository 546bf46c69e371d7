"""`recordlens labels check`: label hygiene of a dataset (`--pages DIR --gt DIR`) or a project (`--project P`),
as core/records/hygiene.py finds it, and the ceiling the labels allow."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence

from ..errors import RecordLensError
from ..page.dom import Page
from ..records.hygiene import check_pages


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("labels", help="label hygiene (labels check)")
    labels_sub = p.add_subparsers(dest="labels_command", metavar="ACTION", required=True)
    c = labels_sub.add_parser("check", help="flag records listed twice, nested records, XPaths that resolve to "
                                            "nothing, and pages whose label policy differs from the majority")
    c.add_argument("--pages", metavar="DIR", help="folder of N.html / N.mhtml")
    c.add_argument("--gt", metavar="DIR", help="folder of ground-truth N.json")
    c.add_argument("--project", metavar="DIR", help="a project: every page with accepted labels")
    c.add_argument("--json", action="store_true")
    c.set_defaults(handler=run)


def _sources(args: argparse.Namespace) -> Iterable[tuple[str, Page, Sequence[Sequence[str]]]]:
    if args.project:
        from ..store import open_project

        with open_project(args.project) as project:
            for info in project.pages():
                records = project.true_records(info.name)
                if records:
                    yield info.name, project.load(info.name).page, records
        return
    if not (args.pages and args.gt):
        raise RecordLensError("labels check needs --pages DIR and --gt DIR, or --project DIR")
    from ..page.dataset import find_page_file, load_page, record_files
    from ..records import load_records

    for name, truth in record_files(args.gt).items():
        page_file = find_page_file(args.pages, name)
        if page_file is not None:
            yield name, load_page(page_file, name).page, load_records(truth).records


def run(args: argparse.Namespace) -> int:
    report = check_pages(_sources(args))
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
        return 0
    for c in report.pages:
        if c.clean and c.page not in report.policy_outliers:
            continue
        parts = []
        if c.unresolved:
            parts.append(f"{len(c.unresolved)} XPath(s) resolve to nothing (first: {c.unresolved[0]})")
        if c.twice:
            parts.append(f"{len(c.twice)} pair(s) of records cover the same text (first: records {c.twice[0]})")
        if c.nested:
            parts.append(f"{len(c.nested)} record(s) inside another (first: record {c.nested[0][0]} in "
                         f"{c.nested[0][1]})")
        if c.page in report.policy_outliers:
            parts.append("labels page chrome (navigation, header, footer, aside)" if c.includes_chrome
                         else "labels no page chrome, unlike most pages")
        print(f"page {c.page}: " + "; ".join(parts))
    flagged = sum(1 for c in report.pages if not c.clean)
    print(f"{len(report.pages)} pages: {flagged} with label problems, {len(report.policy_outliers)} whose policy "
          f"differs from the majority (majority {'labels' if report.majority_includes_chrome else 'does not label'}"
          f" page chrome); the labels allow a mean F1 of at most {report.ceiling:.4f}", file=sys.stderr)
    return 0
