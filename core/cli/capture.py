"""`recordlens site capture URL... --site DIR`: crawl a site from the web into a snapshot site.

The crawl is core's (core/agent/capture.py); the rendering is the app's Chromium, registered by the installed
`recordlens` command, in this process (which is a process of its own: the app's Chromium stays offline).
"""

from __future__ import annotations

import argparse
import re
import sys

from ..agent.capture import (
    CAPTURE_NO_SITE,
    CAPTURE_SOME_FAILED,
    DEFAULT_DEPTH,
    DEFAULT_MAX_PAGES,
    DEFAULT_VIEWPORT,
    MAX_PAGE_MIB,
    PAGE_TIMEOUT_S,
    CaptureError,
    CaptureInterrupted,
    CaptureRules,
    CaptureSummary,
    capture_runner,
    check_not_capturing,
    check_root,
    check_site_folder,
)
from ..command_hints import hint_path
from .output import print_json

DEFAULT_TIMEOUT_S = PAGE_TIMEOUT_S
BAR = 24
MIN_VIEWPORT_SIDE = 100
# Chromium cannot be trusted with a larger view: at 16,384 px a side (its texture limit, where full-page screenshots
# are cut) a page's screenshot already takes most of its time, and beyond it the capture hangs or the process dies
# (SIGILL/SIGSEGV, tried). 8,192 px holds an 8K screen (7680x4320) and captures a whole site.
MAX_VIEWPORT_SIDE = 8192


def register(site_sub: argparse._SubParsersAction) -> None:
    q = site_sub.add_parser(
        "capture", help="crawl a site from the web into a snapshot site (MHTML, accessibility tree, screenshot)",
        description="Crawl from the root pages within the URL rules; every page is kept as MHTML with Chromium's "
                    "accessibility tree, a full-page PNG and its metadata, and DIR/site.json indexes the site. "
                    "This goes online. A stopped capture continues when run again with the same --site; a "
                    "complete one loads nothing again unless --refresh is given. A page the site answers HTTP 4xx "
                    "(404, 410, 403, …; not 408 or 429) is a dead link, and an answer that is no page (a PDF or "
                    "another file, a page sent as a download, HTTP 204 or 205) a link to no page: the site's final "
                    "answer, listed, kept in capture.json and not asked for again (--ask-again asks again), and no "
                    "failure. Exits with 1 when a page failed (no answer, 5xx, 408, 429: tried again when run "
                    "again), with 2 when it leaves no site (no page saved, or no site index could be built over "
                    "the pages saved: it says why), with 130 on Ctrl+C.")
    q.add_argument("urls", nargs="+", metavar="URL", help="root pages (http:// or https://)")
    q.add_argument("--site", required=True, metavar="DIR", help="the site folder (created when missing)")
    q.add_argument("--depth", type=int, default=DEFAULT_DEPTH, help=f"link levels below a root (default "
                                                                     f"{DEFAULT_DEPTH})")
    q.add_argument("--max-pages", type=int, default=DEFAULT_MAX_PAGES, help=f"stop after saving this many "
                                                                             f"pages (default {DEFAULT_MAX_PAGES})")
    q.add_argument("--include", action="append", default=[], metavar="REGEX",
                   help="follow only URLs matching one of these (repeatable)")
    q.add_argument("--exclude", action="append", default=[], metavar="REGEX",
                   help="never follow URLs matching one of these (repeatable)")
    host = q.add_mutually_exclusive_group()
    host.add_argument("--same-host", dest="same_host", action="store_true", default=True,
                      help="stay on the roots' hosts (the default)")
    host.add_argument("--any-host", dest="same_host", action="store_false", help="follow links to other hosts")
    q.add_argument("--delay", type=float, default=0.0, metavar="S", help="seconds between two page loads (default 0)")
    q.add_argument("--ignore-robots", action="store_true", help="do not honour robots.txt (off by default)")
    q.add_argument("--viewport", default=f"{DEFAULT_VIEWPORT[0]}x{DEFAULT_VIEWPORT[1]}", metavar="WxH",
                   help=f"the browser window the pages are laid out in, each side {MIN_VIEWPORT_SIDE} to "
                        f"{MAX_VIEWPORT_SIDE:,} px (default {DEFAULT_VIEWPORT[0]}x{DEFAULT_VIEWPORT[1]})")
    q.add_argument("--no-scripts", action="store_true", help="do not run the pages' scripts")
    q.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S, metavar="S",
                   help=f"per page load (default {DEFAULT_TIMEOUT_S:g})")
    q.add_argument("--max-page-size", type=float, default=MAX_PAGE_MIB, metavar="MIB",
                   help=f"the most a page's document (or a frame's) may be, decoded: a larger one fails at once, "
                        f"nothing of it kept (default {MAX_PAGE_MIB:g} MiB)")
    q.add_argument("--refresh", action="store_true",
                   help="capture every page again (the site changed); the old capture is kept in DIR/removed/, or "
                        "put back when no page could be captured; a refresh that was stopped goes on where it "
                        "stopped when run again")
    q.add_argument("--ask-again", "--retry-dead", action="store_true", dest="ask_again",
                   help="ask again for the dead links (pages answered HTTP 4xx) and the links to no page (a file, a "
                        "download, nothing to save) of the runs before, which a run again leaves as they were "
                        "(--retry-dead: its older name)")
    q.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    q.set_defaults(handler=cmd_site_capture)


def _viewport(text: str) -> tuple[int, int]:
    """`WIDTHxHEIGHT` as two sizes in px, each side within what the capture can render; else a one-line refusal."""
    written = re.fullmatch(r"([0-9]+)[xX]([0-9]+)", text.strip())
    if not written:
        raise CaptureError(f"--viewport {text!r}: write it WIDTHxHEIGHT, e.g. 1920x1080")
    size = int(written[1]), int(written[2])
    if not all(MIN_VIEWPORT_SIDE <= side <= MAX_VIEWPORT_SIDE for side in size):
        raise CaptureError(f"--viewport {text!r}: each side must be at least {MIN_VIEWPORT_SIDE} px and at most "
                           f"{MAX_VIEWPORT_SIDE:,} px, e.g. 1920x1080")
    return size


def _check_numbers(args: argparse.Namespace) -> None:
    """Name each number option given out of its range, with the value given."""
    wrong = [f"{flag} {value:g}: {rule}" for flag, value, ok, rule in (
        ("--depth", args.depth, args.depth >= 0, "give 0 or more"),
        ("--max-pages", args.max_pages, args.max_pages >= 1, "give 1 or more"),
        ("--delay", args.delay, args.delay >= 0, "give 0 seconds or more"),
        ("--timeout", args.timeout, args.timeout > 0, "give more than 0 seconds"),
        ("--max-page-size", args.max_page_size, args.max_page_size > 0, "give more than 0 MiB")) if not ok]
    if wrong:
        raise CaptureError("; ".join(wrong))


def cmd_site_capture(args: argparse.Namespace) -> int:
    _check_numbers(args)
    viewport = _viewport(args.viewport)
    rules = CaptureRules(include=tuple(args.include), exclude=tuple(args.exclude), same_host=args.same_host,
                         depth=args.depth, max_pages=args.max_pages, robots=not args.ignore_robots,
                         delay_s=args.delay)
    rules.compiled()  # a bad pattern, address or folder is refused before anything (Chromium) starts
    for url in args.urls:
        check_root(url)
    check_site_folder(args.site)
    check_not_capturing(args.site)

    def progress(done: int, total: int, text: str) -> None:
        filled = BAR * done // max(total, 1)
        # One line per URL (a log a person can read back); the bracket is what the app's progress bar reads.
        print(f"recordlens: [{done}/{total}] {text}  |{'#' * filled}{'.' * (BAR - filled)}|",
              file=sys.stderr, flush=True)

    try:
        summary = capture_runner()(args.urls, args.site, rules, viewport=viewport,
                                   scripts=not args.no_scripts, timeout_s=args.timeout, progress=progress,
                                   refresh=args.refresh, max_page_mib=args.max_page_size,
                                   ask_again=args.ask_again)
    except KeyboardInterrupt as interruption:  # the pages saved so far are kept (core's crawl indexed them)
        if isinstance(interruption, CaptureInterrupted):  # what it did until then, as a stopped capture says it
            _print_summary(interruption.summary, args)
        print(f"recordlens: the capture into {hint_path(args.site)} stopped; its saved pages are kept, and running "
              "the same command again continues it", file=sys.stderr)
        raise
    _print_summary(summary, args)
    if summary.no_site():  # "0 page(s) saved" with status 0 would read as a capture that worked
        print(f"recordlens: error: {summary.no_site()}", file=sys.stderr)
        return CAPTURE_NO_SITE
    # As extract: a page that failed is not a success. A dead link or a link to no page is the site's answer, the
    # same on every run: a status of 1 for it would be every run's, and never say that something can be done.
    return CAPTURE_SOME_FAILED if summary.failed else 0


def _print_summary(summary: CaptureSummary, args: argparse.Namespace) -> None:
    """The notes on stderr, then the summary on stdout: one JSON object with --json, else its line and a line per
    URL."""
    for note in summary.notes:
        print(f"warning: {note}", file=sys.stderr)
    if args.json:
        print_json(summary.as_dict() | {"message": summary.message()}, indent=None)
        sys.stdout.flush()
        return
    print(summary.message())  # (it names the folder as a hint names a path)
    for url in summary.saved:
        print(f"  saved    {url}")
    for url, why in summary.skipped:
        print(f"  skipped  {url}: {why}")
    for url, why in summary.failed:
        print(f"  failed   {url}: {why}")
    for url, why in summary.dead:
        print(f"  dead     {url}: {why}")
    for url, why in summary.no_page:
        print(f"  no page  {url}: {why}")
    for url, final in summary.duplicates:
        print(f"  same as  {url}: redirects to {final}, saved already (a link to it reaches that page)")
    for url, saved in summary.same_content:
        print(f"  same as  {url}: the same content as {saved}, saved already (a link to it reaches that page)")
    sys.stdout.flush()
