"""The demo snapshot site, "Paperfield", and its pages: a small preprint listing written by the project (every
paper, author and abstract is invented). `write_demo_site` saves it as MHTML, byte for byte the same each time,
under the URLs of https://papers.example.org/.

Search is a GET form (`/search?q=...`); a static snapshot can only answer the queries that were saved, so the
result pages of the demo tasks' queries are saved (with their filter pages) and any other query leads to the
"not in this snapshot" page, as does the PDF link of every paper.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from urllib.parse import urlencode

from ...page.mhtml_writer import write_mhtml

BASE = "https://papers.example.org"
HOME = BASE + "/"
SAVED_AT = "Mon, 01 Apr 2024 12:00:00 +0000"  # fixed, so the files are identical on every build
PER_PAGE = 4
CATEGORIES = {"cs.CL": "Computation and Language", "cs.LG": "Machine Learning", "cs.CV": "Computer Vision"}
QUERIES = ("graph", "speech", "lattice", "ostrava")


@dataclass(frozen=True)
class Paper:
    id: str
    title: str
    authors: tuple[str, ...]
    category: str
    submitted: date
    pages: int
    figures: int
    abstract: str


PAPERS = (
    Paper("2401.00012", "Sparse Lattice Attention for Long Documents", ("Ilse Marrow", "Tomasz Quill", "Ada Brennick"),
          "cs.CL", date(2024, 1, 3), 14, 5,
          "Attention over long documents costs time quadratic in their length. We arrange tokens on a sparse "
          "lattice whose rows follow paragraphs and whose columns follow sections, and let each token attend only "
          "along its row and column. On the LongDocQA benchmark the model reaches 91.4% accuracy while using a "
          "third of the memory of a dense baseline."),
    Paper("2402.00031", "Speech Segmentation Without Transcripts", ("Mirela Ostrava", "Jonas Feld"),
          "cs.CL", date(2024, 2, 7), 9, 3,
          "We segment untranscribed speech into word-like units by predicting the boundaries where two "
          "self-supervised encoders disagree most. The method needs no text at all and finds 71% of the word "
          "boundaries in a corpus of read Estonian."),
    Paper("2311.00457", "A Corpus of Annotated Harbour Logs", ("Ruth Okonkwo-Lind", "Ilse Marrow"),
          "cs.CL", date(2023, 11, 20), 11, 2,
          "Harbour masters have kept hand-written logs of arrivals and departures for centuries. We introduce "
          "HarbourLog-7k, a corpus of 7,000 transcribed log entries from four ports annotated with ships, "
          "cargoes and weather, and report baselines for entity tagging."),
    Paper("2403.00107", "Graph Message Passing with Learned Halting", ("Paulo Verde", "Mirela Ostrava"),
          "cs.LG", date(2024, 3, 12), 18, 7,
          "Message-passing networks use the same number of rounds for every node. We let each node learn when to "
          "stop passing messages, which saves 40% of the computation on large sparse graphs without loss of "
          "accuracy."),
    Paper("2402.00088", "Calibrated Ensembles for Tabular Drift", ("Hanne Sollie",),
          "cs.LG", date(2024, 2, 19), 12, 4,
          "Ensembles of gradient-boosted trees grow over-confident when the distribution of tabular data drifts. "
          "A per-member temperature fitted on a rolling window keeps the expected calibration error below 2% "
          "over eighteen months of loan data."),
    Paper("2401.00058", "Low-Rank Adapters that Forget Gracefully", ("Tomasz Quill", "Beatriz Lamarca"),
          "cs.LG", date(2024, 1, 15), 10, 6,
          "Low-rank adapters are cheap to train but hard to remove once merged. We add a small penalty that keeps "
          "each adapter's update orthogonal to the others, so that any one of them can be subtracted later with "
          "little effect on the rest."),
    Paper("2312.00201", "Graph Coarsening for Fast Spectral Clustering", ("Ada Brennick", "Paulo Verde"),
          "cs.LG", date(2023, 12, 4), 16, 9,
          "Spectral clustering needs the eigenvectors of a graph's Laplacian. We coarsen the graph by merging "
          "nodes with similar neighbourhoods first, which makes clustering twelve times faster on road networks."),
    Paper("2311.00390", "Curriculum Sampling for Noisy Speech Labels", ("Mirela Ostrava",),
          "cs.LG", date(2023, 11, 8), 8, 2,
          "Crowd-sourced speech labels are noisy. Sampling easy utterances first and noisy ones later lowers the "
          "word error rate of a small recogniser by 1.8 points."),
    Paper("2310.00145", "On the Stability of Optimiser Warm Restarts", ("Jonas Feld", "Hanne Sollie"),
          "cs.LG", date(2023, 10, 2), 22, 11,
          "Warm restarts of the learning rate sometimes make training diverge. We show when they do, in terms of "
          "the sharpness of the loss at the restart, and give a safe restart schedule."),
    Paper("2403.00044", "Tiled Diffusion for Satellite Mosaics", ("Beatriz Lamarca", "Kofi Mensah-Aldo"),
          "cs.CV", date(2024, 3, 5), 13, 8,
          "Diffusion models draw one tile at a time, and the seams between tiles show. Sharing noise along tile "
          "borders produces seamless satellite mosaics of 16,384 by 16,384 pixels."),
    Paper("2402.00175", "Counting Seabirds from Drone Footage", ("Kofi Mensah-Aldo", "Ruth Okonkwo-Lind"),
          "cs.CV", date(2024, 2, 26), 7, 5,
          "We count nesting seabirds in drone videos of cliffs with a detector trained on 1,200 labelled frames; "
          "counts are within 6% of those made by ornithologists on the ground."),
    Paper("2312.00066", "Graph Neural Fields for Scene Layout", ("Ada Brennick",),
          "cs.CV", date(2023, 12, 11), 15, 10,
          "A scene graph says what stands next to what. We decode a scene graph into a neural field that places "
          "every object, and lay out indoor scenes that respect 94% of the graph's relations."),
)

RULES = (
    ("Deadline", "Submissions received before 14:00 UTC on a weekday are announced the same day at 20:00 UTC; "
                 "later ones are announced on the next weekday."),
    ("Abstracts", "An abstract may be at most 1,920 characters long and must not contain references."),
    ("Files", "The files of one submission must total less than 50 MB; figures must be in PDF, PNG or JPEG."),
    ("Limits", "A submitter may make at most 5 new submissions in a week."),
    ("Replacements", "A paper may be replaced at most 9 times; every version stays available."),
    ("Withdrawal", "A withdrawn paper stays listed with a note; its files are no longer served."),
)


@dataclass(frozen=True)
class DemoPage:
    file: str
    url: str
    title: str
    html: str


# ---------------------------------------------------------------------------------------------------------------
# Pages


def demo_pages() -> list[DemoPage]:
    pages = [_home(), _about()]
    for code in CATEGORIES:
        pages.extend(_listing_pages(code))
    pages.extend(_abstract(p) for p in PAPERS)
    for query in QUERIES:
        pages.extend(_search_pages(query))
    return pages


def write_demo_site(folder: str | Path) -> list[Path]:
    """Save every page of the demo site as MHTML under `folder` (created); return the paths."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    return [write_mhtml(root / page.file, page.html, url=page.url, title=page.title, date=SAVED_AT)
            for page in demo_pages()]


def search_url(query: str, **filters: str) -> str:
    """The URL the search form makes for `query` (as a browser submits a GET form), plus filter parameters."""
    return f"{BASE}/search?" + urlencode({"q": query, **filters})


def listing_url(code: str, page: int = 1) -> str:
    return f"{BASE}/list/{code}" + (f"?page={page}" if page > 1 else "")


def _abs_path(paper: Paper) -> str:
    return f"/abs/{paper.id}"


def _when(day: date) -> str:
    return f"{day.day} {day:%b %Y}"


def _newest_first(papers: Iterable[Paper]) -> list[Paper]:
    return sorted(papers, key=lambda p: p.submitted, reverse=True)


def _home() -> DemoPage:
    recent = _newest_first(PAPERS)[:5]
    categories = "".join(f'<li><a href="/list/{code}">{html.escape(name)}</a> ({code}) — '
                         f'{sum(p.category == code for p in PAPERS)} papers</li>' for code, name in CATEGORIES.items())
    body = (f"<section><h1>Paperfield</h1><p>Open preprints in computing, announced every weekday.</p>"
            f"{_search_form('')}</section>"
            f"<section><h2>Browse by category</h2><ul class=\"cats\">{categories}</ul></section>"
            f"<section><h2>Recent submissions</h2>{_paper_list(recent)}</section>")
    return _page("home.mhtml", HOME, "Paperfield — open preprints in computing", body)


def _about() -> DemoPage:
    rules = "".join(f"<li><strong>{html.escape(name)}.</strong> {html.escape(text)}</li>" for name, text in RULES)
    body = ("<h1>About Paperfield</h1><p>Paperfield is a demonstration preprint server made for the RecordLens "
            "web-agent benchmark. Its papers, authors and abstracts are invented.</p>"
            f"<h2>Submission rules</h2><ol class=\"rules\">{rules}</ol>"
            "<h2>Contact</h2><p>Write to the <a href=\"https://status.example.net/paperfield\">status page</a> "
            "for questions about the service.</p>")
    return _page("about.mhtml", f"{BASE}/about", "About Paperfield", body)


def _listing_pages(code: str) -> list[DemoPage]:
    papers = _newest_first(p for p in PAPERS if p.category == code)
    chunks = [papers[i:i + PER_PAGE] for i in range(0, len(papers), PER_PAGE)]
    pages = []
    for number, chunk in enumerate(chunks, 1):
        nav = []
        if number > 1:
            nav.append(f'<a href="{_path_of(listing_url(code, number - 1))}">Previous page</a>')
        if number < len(chunks):
            nav.append(f'<a href="{_path_of(listing_url(code, number + 1))}">Next page</a>')
        first = (number - 1) * PER_PAGE + 1
        body = (f"<h1>{html.escape(CATEGORIES[code])} ({code})</h1>"
                f"<p class=\"count\">Showing papers {first}–{first + len(chunk) - 1} of {len(papers)}, "
                f"newest first (page {number} of {len(chunks)}).</p>"
                f"{_paper_list(chunk)}<nav class=\"pager\">{' · '.join(nav)}</nav>")
        suffix = f"-page{number}" if number > 1 else ""
        title = f"{CATEGORIES[code]} — Paperfield" + (f" (page {number})" if number > 1 else "")
        pages.append(_page(f"list-{code}{suffix}.mhtml", listing_url(code, number), title, body))
    return pages


def _abstract(paper: Paper) -> DemoPage:
    authors = ", ".join(html.escape(a) for a in paper.authors)
    body = (f"<p class=\"crumbs\"><a href=\"/list/{paper.category}\">{html.escape(CATEGORIES[paper.category])}</a>"
            f" › {paper.id}</p>"
            f"<h1 class=\"title\">{html.escape(paper.title)}</h1>"
            f"<p class=\"authors\">Authors: {authors}</p>"
            f"<table class=\"meta\"><tr><th>Identifier</th><td>{paper.id}</td></tr>"
            f"<tr><th>Submitted</th><td>{_when(paper.submitted)}</td></tr>"
            f"<tr><th>Subject</th><td>{html.escape(CATEGORIES[paper.category])} ({paper.category})</td></tr>"
            f"<tr><th>Comments</th><td>{paper.pages} pages, {paper.figures} figures</td></tr></table>"
            f"<h2>Abstract</h2><blockquote class=\"abstract\">{html.escape(paper.abstract)}</blockquote>"
            f"<p><a href=\"/pdf/{paper.id}\">Download PDF</a></p>")
    return _page(f"abs-{paper.id}.mhtml", f"{BASE}{_abs_path(paper)}", f"{paper.title} — Paperfield", body)


def _matches(paper: Paper, query: str) -> bool:
    # Words starting with the query, as a search engine would: "graph" finds "graphs" but not "paragraphs".
    haystack = " ".join((paper.title, " ".join(paper.authors), paper.abstract))
    return re.search(r"\b" + re.escape(query), haystack, re.IGNORECASE) is not None


def _search_pages(query: str) -> list[DemoPage]:
    found = _newest_first(p for p in PAPERS if _matches(p, query))
    views: list[tuple[dict[str, str], list[Paper]]] = [({}, found)]
    for code in sorted({p.category for p in found}):
        views.append(({"cat": code}, [p for p in found if p.category == code]))
    for year in sorted({p.submitted.year for p in found}, reverse=True):
        views.append(({"year": str(year)}, [p for p in found if p.submitted.year == year]))
    pages = []
    for filters, papers in views:
        url = search_url(query, **filters)
        name = "-".join(["search", query, *(f"{k}-{v}" for k, v in filters.items())])
        pages.append(_page(f"{name}.mhtml", url, f"Search: {query} — Paperfield",
                           _results_body(query, found, filters, papers)))
    return pages


def _results_body(query: str, found: list[Paper], filters: dict[str, str], papers: list[Paper]) -> str:
    facets = []
    for code in sorted({p.category for p in found}):
        count = sum(p.category == code for p in found)
        facets.append(_facet(f"{CATEGORIES[code]} ({count})", search_url(query, cat=code), filters == {"cat": code}))
    years = []
    for year in sorted({p.submitted.year for p in found}, reverse=True):
        count = sum(p.submitted.year == year for p in found)
        years.append(_facet(f"{year} ({count})", search_url(query, year=str(year)), filters == {"year": str(year)}))
    clear = f'<a href="{_path_of(search_url(query))}">All results</a>' if filters else ""
    shown = "; ".join(f"{k} = {v}" for k, v in filters.items())
    heading = f"{len(papers)} result{'s' if len(papers) != 1 else ''} for “{html.escape(query)}”"
    return (f"{_search_form(query)}<h1>{heading}{f' ({html.escape(shown)})' if shown else ''}</h1>"
            f"<div class=\"results\"><aside><h2>Category</h2><ul>{''.join(facets)}</ul>"
            f"<h2>Year</h2><ul>{''.join(years)}</ul>{clear}</aside>"
            f"<div>{_paper_list(papers)}</div></div>")


def _facet(text: str, url: str, current: bool) -> str:
    if current:
        return f"<li><strong>{html.escape(text)}</strong></li>"
    return f'<li><a href="{html.escape(_path_of(url))}">{html.escape(text)}</a></li>'


def _path_of(url: str) -> str:
    return url[len(BASE):] if url.startswith(BASE) else url


def _search_form(query: str) -> str:
    value = f' value="{html.escape(query)}"' if query else ""
    return ('<form class="search" action="/search" method="get" role="search">'
            '<label for="q">Search papers</label> '
            f'<input id="q" type="search" name="q" placeholder="Title, author or words of the abstract"{value}> '
            '<button type="submit">Search</button></form>')


def _paper_list(papers: list[Paper]) -> str:
    items = []
    for paper in papers:
        items.append(f"<li><span class=\"id\">[{paper.id}]</span> "
                     f"<a href=\"{_abs_path(paper)}\">{html.escape(paper.title)}</a>"
                     f"<div class=\"by\">{', '.join(html.escape(a) for a in paper.authors)}</div>"
                     f"<div class=\"when\">Submitted {_when(paper.submitted)} · {paper.category}</div></li>")
    return f"<ol class=\"papers\">{''.join(items)}</ol>" if items else "<p>No papers.</p>"


_STYLE = """
body { font: 15px/1.45 "DejaVu Sans", Arial, sans-serif; margin: 0; color: #1d2430; background: #fbfaf7; }
header { background: #24324a; padding: 10px 24px; }
header a { color: #f2f5fa; margin-right: 18px; text-decoration: none; }
header a.brand { font-weight: bold; font-size: 17px; }
main { max-width: 880px; margin: 0 auto; padding: 12px 24px 40px; }
h1 { font-size: 24px; margin: 14px 0 8px; } h2 { font-size: 17px; margin: 18px 0 6px; }
a { color: #1f5fa8; }
form.search { margin: 10px 0 14px; } form.search input { width: 340px; padding: 5px; }
ol.papers { padding-left: 22px; } ol.papers li { margin: 0 0 12px; }
.id { color: #6b7385; font-family: "DejaVu Sans Mono", monospace; } .by, .when { color: #4a5263; font-size: 13px; }
table.meta th { text-align: left; padding-right: 16px; color: #4a5263; font-weight: normal; }
blockquote.abstract { margin: 6px 0 14px; padding: 8px 14px; background: #fff; border-left: 4px solid #9db3d3; }
.results { display: flex; gap: 28px; } .results aside { min-width: 180px; } aside ul { padding-left: 18px; }
footer { color: #6b7385; font-size: 12px; text-align: center; padding: 16px; }
"""


def _page(file: str, url: str, title: str, body: str) -> DemoPage:
    links = "".join(f'<a href="/list/{code}">{html.escape(name)}</a>' for code, name in CATEGORIES.items())
    document = (f"<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
                f"<style>{_STYLE}</style></head><body>"
                f"<header><a class=\"brand\" href=\"/\">Paperfield</a>{links}<a href=\"/about\">About</a></header>"
                f"<main>{body}</main>"
                "<footer>Paperfield is a demonstration site of RecordLens; every paper on it is invented.</footer>"
                "</body></html>")
    return DemoPage(file=file, url=url, title=title, html=document)
