"""`recordlens agreement --project P --between A B`: how two annotators' labels agree, page by page (`--all`: every
pair, in one table)."""

from __future__ import annotations

import argparse
import json

from ..command_hints import hint_words
from ..errors import RecordLensError
from ..records.agreement import Agreement, Disagreement, Holding, PageAgreement
from ..records.record_sizes import element_words
from ..records.review import MATCH_THRESHOLD
from ..runs.progress import progress
from ..store.adjudication import KEPT, MERGED
from ..store.agreement import NONE_SETTLED, Settled, agreement_and_decisions, every_pair_agreement
from ..store.project import open_project
from ..text_forms import cell, column_width, visible
from ..wording import counted
from .project import say_imports_under_way

_SHOWN_XPATHS = 3
_SHOWN_PAIRS = 3  # matched pairs with other XPaths shown per page
# What "A3" and "B5" number, said before the records so named: a reader looks for them in the app
NUMBERS = ("(records are numbered as the app numbers them: the project's labels by their number in its Records tab, "
           "which counts rejected and proposed records too; an annotator's by their place in their set, as "
           "Review's P numbers)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("agreement", help="compare two annotators' labels of a project",
                       description="Score annotator A's labels against B's on every page both labelled, with the "
                                   "structure-aware score (per page and mean P/R/F1: P is how much of A's records B "
                                   "also made, R how much of B's A made), and list the records they disagree on "
                                   "(only A, only B, different: overlap below the threshold), each marked when it "
                                   "is settled in the app's review (kept with O, or merged with Shift+T), and the "
                                   "matched records whose XPaths differ. A and B name an annotator imported with "
                                   "`import --annotator` (`recordlens annotators` lists them; a name in another "
                                   "Unicode form or with other spaces is read as theirs, and said), `project` (the "
                                   "project's own labels on labelled and reviewed pages), or a person who labelled "
                                   "in the app (`person:NAME` when an imported annotator has the name too, or "
                                   "another spelling of it): the records that person accepted, changed or made, as "
                                   "the history keeps them (what adjudication changed since is not theirs, and the "
                                   "pages it changed are said).")
    p.add_argument("--project", required=True, metavar="DIR", help="the project's folder")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--between", nargs=2, metavar=("A", "B"),
                       help="the two label sets to compare: an annotator's name, project, or person:NAME")
    which.add_argument("--all", action="store_true",
                       help="every pair of the project's label sets (its own and each imported annotator's): their "
                            "mean figures in one table, the pair agreeing least first; `--between` then shows a "
                            "pair's pages and records")
    p.add_argument("--threshold", type=float, default=MATCH_THRESHOLD,
                   help=f"overlap from which two records are the same record (default {MATCH_THRESHOLD})")
    p.add_argument("--json", action="store_true", help="print the figures and records as JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
    p.set_defaults(handler=cmd_agreement, only_reads=True)


def cmd_agreement(args: argparse.Namespace) -> int:
    say_imports_under_way(args.project, "the agreement is")
    if args.all:
        return _every_pair(args)
    a, b = args.between
    with open_project(args.project) as project:
        result, settled = agreement_and_decisions(
            project, a, b, args.threshold,
            progress=lambda names: progress(names, label="comparing", enabled=not args.quiet and not args.json))
    print(json.dumps(agreement_document(result, settled), ensure_ascii=False, indent=1) if args.json
          else format_agreement(result, settled))
    return 0 if result.pages else 1


def agreement_document(result: Agreement, settled: Settled) -> dict[str, object]:
    """`--json`: the agreement, each disagreement with how it was settled in the app's review (`settled`: "kept",
    "merged", or null while open) and the count of those open, per page and in all."""
    return result.as_dict() | {"open_disagreements": sum(settled.open(page) for page in result.pages),
                               "pages": [_page_document(page, settled) for page in result.pages]}


def _page_document(page: PageAgreement, settled: Settled) -> dict[str, object]:
    """A page's figures and records, as `PageAgreement.as_document` writes them, each disagreement settled or not."""
    document = page.as_document()
    rows = [row | {"settled": how} for row, how in zip(document["disagreements"], settled.of(page), strict=True)]
    return document | {"disagreements": rows, "open_disagreements": settled.open(page)}


def _every_pair(args: argparse.Namespace) -> int:
    """`--all`: each pair of label sets compared as `--between` compares it; the table of their means."""
    with open_project(args.project) as project:
        names = ["project", *project.annotators.names()]
        if len(names) < 2:
            raise RecordLensError("the project has no imported annotator to compare its labels with "
                                  "(`recordlens import DIR --project P --annotator NAME` imports one)")
        pairs = every_pair_agreement(project, names, args.threshold,
                                     progress=lambda pages: progress(pages, label="comparing",
                                                                     enabled=not args.quiet and not args.json))
    pairs.sort(key=lambda pair: (pair.f1 is None, pair.f1 if pair.f1 is not None else 0.0))
    if args.json:
        print(json.dumps({"threshold": args.threshold, "pairs": [
            {key: value for key, value in pair.as_dict().items() if key != "pages"} for pair in pairs]},
            ensure_ascii=False, indent=1))
    else:
        print(format_pairs(pairs))
    return 0 if any(pair.pages for pair in pairs) else 1


def format_pairs(pairs: list[Agreement]) -> str:
    """One row per pair of label sets, the pair agreeing least first; a pair with no page both labelled last."""
    names = {id(pair): f"{pair.a} – {pair.b}" for pair in pairs}
    width = column_width(names.values(), least=len("pair"))
    lines = [f"agreement of every pair of the project's {len({p.a for p in pairs} | {p.b for p in pairs})} label "
             "sets on the pages both labelled (means of per-page figures; the pair agreeing least first)",
             f"{cell('pair', width)} {'pages':>5} {'P':>6} {'R':>6} {'F1':>6}"]
    for pair in pairs:
        name = cell(names[id(pair)], width)
        if not pair.pages:
            lines.append(f"{name} {0:>5} {'-':>6} {'-':>6} {'-':>6}  (no page both labelled)")
            continue
        lines.append(f"{name} {len(pair.pages):>5} {pair.precision:>6.3f} {pair.recall:>6.3f} {pair.f1:>6.3f}")
    lines.append("(P: how much of the first's records the second also made; R: the other way round; "
                 "`--between A B` lists a pair's pages and records)")
    return "\n".join(lines)


def _xpaths(xpaths: tuple[str, ...]) -> str:
    """The first XPaths, each as `visible` writes it: two that differ only in Unicode form (`x-café`, one with a
    combining accent) would read alike, one naming an element and the other nothing."""
    shown = ", ".join(visible(xpath) for xpath in xpaths[:_SHOWN_XPATHS])
    return shown + (f", … ({len(xpaths)})" if len(xpaths) > _SHOWN_XPATHS else "")


def _numbers(side: str, numbers: tuple[int, ...]) -> str:
    """`A1–A25`, or runs of them (`A1–A3, A7`) when the numbers are not consecutive."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{side}{r[0]}" + (f"–{side}{r[-1]}" if len(r) > 1 else "") for r in runs)


def _record(side: str, number: int | None, xpaths: tuple[str, ...], named: int | None) -> str:
    """`A3: /body[1]/…`, marked as the app marks a record when some of its XPaths name no element of the page."""
    marked = f" {element_words(xpaths, named)}" if named is not None and named < len(xpaths) else ""
    return f"{side}{number}: {_xpaths(xpaths)}{marked}"


def _row(d: Disagreement, how: str | None) -> str:
    if d.kind == "only A":
        return f"  only A   {_record('A', d.a_number, d.a, d.a_named)}{_settled_words(how)}"
    if d.kind == "only B":
        return f"  only B   {_record('B', d.b_number, d.b, d.b_named)}{_settled_words(how)}"
    return (f"  different (overlap {d.overlap:.2f})  {_record('A', d.a_number, d.a, d.a_named)}  |  "
            f"{_record('B', d.b_number, d.b, d.b_named)}{_settled_words(how)}")


# How the app's review says a disagreement was settled, in its list under "kept"
_SETTLED = {KEPT: "kept: the project's version", MERGED: "kept: merged into the project's"}


def _settled_words(how: str | None) -> str:
    return f"  ({_SETTLED[how]})" if how is not None else ""


def _holding(h: Holding, settled: list[str | None]) -> str:
    """`B1 holds A1–A25 (labelled one level up)`, and how many of the rows it stands for are settled."""
    other = "B" if h.side == "A" else "A"
    level = "one level up" if h.one_level else "higher up"
    holder = f"{h.side}{h.number}"
    done = sum(1 for how in settled if how is not None)
    said = (_settled_words(settled[0]) if done == len(settled) and len(set(settled)) == 1 else
            f"  ({done} of its {len(settled)} rows kept)" if done else "")
    return f"  {holder} holds {_numbers(other, h.held)} (labelled {level}): {holder}: {_xpaths(h.xpaths)}{said}"


def _disagreement_lines(page: PageAgreement, settled: tuple[str | None, ...]) -> list[str]:
    """The page's disagreements: a record holding several of the other side's said once, the others a row each;
    each marked when it is settled in the app's review (`settled`)."""
    held = [page.holding_of(d) for d in page.disagreements]
    lines = [_holding(h, [how for how, holding in zip(settled, held, strict=True) if holding is h])
             for h in page.holdings]
    lines += [_row(d, how) for d, how, holding in zip(page.disagreements, settled, held, strict=True)
              if holding is None]
    return lines


def _settled_line(result: Agreement, settled: Settled) -> list[str]:
    """How many disagreements are settled in the app's review and how many are open ([] when none is settled: the
    pair is not an imported annotator and the project's labels, or no decision was taken)."""
    total = sum(len(page.disagreements) for page in result.pages)
    still = sum(settled.open(page) for page in result.pages)
    if still == total:
        return []
    return [f"(settled in the app's review: {total - still} of the {counted(total, 'disagreement')}, kept with O or "
            f"merged with Shift+T, marked below as the review lists them under \"kept\"; {still} open)"]


def format_agreement(result: Agreement, settled: Settled = NONE_SETTLED) -> str:
    """The figures per page, then the disagreements page by page (each marked when `settled` in the app)."""
    a, b = visible(result.a), visible(result.b)  # a name typed in another Unicode form shows as typed
    lines = [f"agreement of {a} (A) with {b} (B) on {len(result.pages)} page(s) both labelled"]
    # What the figures and the "disagree" rows are, said where they are read (not only in --help)
    lines.append(f"(NEXT-EVAL's structure-aware score: overlap of the records' text keys, P/R/F1 per page and their "
                 f"mean; a record disagrees when only one made it or when paired below overlap {result.threshold:g})")
    lines += [f"(note: {note})" for note in result.notes]
    width = column_width([page.page for page in result.pages], least=10)
    lines.append(f"{cell('page', width)} {'P':>6} {'R':>6} {'F1':>6} {'A rec':>6} {'B rec':>6} {'disagree':>8}")
    for page in result.pages:
        s = page.review.score
        lines.append(f"{cell(page.page, width)} {page.precision:6.3f} {page.recall:6.3f} {page.f1:6.3f} "
                     f"{s.predicted_records:>6} {s.true_records:>6} {len(page.disagreements):>8}")
    if not result.pages:  # an empty table and a 0 exit read as "they agree"
        lines.append(f"(no page labelled by both {a} and {b}: nothing to compare)")
    if result.pages:
        lines.append(f"{cell('mean', width)} {result.precision:6.3f} {result.recall:6.3f} {result.f1:6.3f}")
        # The app's Review shows an annotator as predicted against the project's labels: the other order
        lines.append(f"(P: how much of {a}'s records {b} also made; R: the other way round; "
                     f"`{hint_words(['--between', result.b, result.a])}` swaps them)")
    for name, pages in ((a, result.only_a_pages), (b, result.only_b_pages)):
        if pages:
            lines.append(f"labelled by {name} only (not compared): {', '.join(map(visible, pages))}")
    lines += _other_xpaths_counts(result)
    lines += _settled_line(result, settled)
    if any(page.disagreements or page.other_xpaths for page in result.pages):
        lines.append(NUMBERS)
    for page in result.pages:
        if not page.disagreements:
            continue
        still = settled.open(page)
        open_ones = f" ({still} open)" if still < len(page.disagreements) else ""
        lines.append(f"\npage {visible(page.page)}: {len(page.disagreements)} record(s) disagree{open_ones}")
        lines += _disagreement_lines(page, settled.of(page))
    for page in result.pages:
        lines += _other_xpaths(page)
    return "\n".join(lines)


def _other_xpaths_counts(result: Agreement) -> list[str]:
    """Per page, how many matched pairs have other XPaths: those of the same text (overlap 1, one record to the
    score), and apart those paired below overlap 1 (at the threshold or above), which share only part of their
    text and count by their overlap."""
    lines = []
    for whole, heading in ((True, "matched records with other XPaths (one record to the score, other labels once "
                                  "exported)"),
                           (False, f"matched records with other XPaths and only part of their text in common (paired "
                                   f"at overlap {result.threshold:g} or more, below 1: each counts by its overlap to "
                                   "the score)")):
        counts = [(page.page, n) for page in result.pages
                  if (n := sum(1 for d in page.other_xpaths if (d.overlap >= 1) == whole))]
        if counts:
            lines.append(f"{heading}: " + ", ".join(f"page {visible(name)} ({count})" for name, count in counts))
    return lines


def _other_xpaths(page: PageAgreement) -> list[str]:
    """The page's matched pairs whose XPaths differ, the first few (all of them are in --json)."""
    pairs = page.other_xpaths
    if not pairs:
        return []
    lines = [f"\npage {visible(page.page)}: {len(pairs)} matched record(s) with other XPaths"]
    lines += [f"  other XPaths (overlap {d.overlap:.2f})  {_record('A', d.a_number, d.a, d.a_named)}  |  "
              f"{_record('B', d.b_number, d.b, d.b_named)}" for d in pairs[:_SHOWN_PAIRS]]
    if len(pairs) > _SHOWN_PAIRS:
        lines.append(f"  … and {len(pairs) - _SHOWN_PAIRS} more (--json lists them all)")
    return lines
