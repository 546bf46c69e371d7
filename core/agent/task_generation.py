"""Generating candidate tasks from expert seed tasks with a model, one request per category (WebArxiv's step).

For each category of the seeds file, the model gets the category's description, that category's seed tasks
(instruction, answer, answer kind), the site's pages (URL and title) and an excerpt of the text of the pages
the seeds start from, and is asked for `per_category` new tasks as a JSON list of objects with `instruction`,
`answer`, `answer_kind`, `start_url` and `seeds` (the ids of the seeds it followed). Its answer is read
tolerantly (code fences, prose around the JSON); items that are not usable (no instruction or answer, an
answer given as true or false, an unknown answer kind) are dropped and counted, never a crash. An answer the
model did not finish (refused: finishReason SAFETY, RECITATION...; cut off: MAX_TOKENS; or empty) is not used at
all, as `agent run` never acts on one (`Answer.incomplete`): its category is not answered, and is named with
why; an empty list is an answer, with no task, and said so. A number given
as the answer is kept as its digits (0 as "0"). A candidate whose `seeds` name no seed of its
category gets all of them; its normalisation is that of the category's seeds of the same answer kind (or the
kind's usual rules). Ids are `gen-<category>-<n>`, stable for the same answers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ..errors import AgentError
from ..llm.gemini import BudgetExceededError, GeminiError
from ..wording import listed
from .candidates import Candidate, SiteText
from .loop import Caller
from .model import ANSWER_KINDS, Task
from .sites import Site

MAX_SITE_PAGES = 60      # pages listed in the prompt (URL and title)
MAX_EXCERPT = 3000       # characters of page text per start page
# WebArxiv's kinds of task, described for the model; a seeds file can use other categories (then given with
# --categories, or described by their seeds alone).
CATEGORY_DESCRIPTIONS = {
    "lookup": "find one fact stated on a specific page (an author, a number, a date) by navigating to it",
    "rules": "answer from the site's own rules or policies (its about or help pages)",
    "retrieval": "find the item (paper, product, post) that matches a description and give its title",
    "filtered search": "use the site's search or filters and count or name what the filtered listing shows",
    "content extraction": "read a detail out of an item's content (its abstract, comments, body)",
    "comparison": "compare two or more items on the site and answer which one has a property",
}
_DEFAULT_RULES = {
    "number": ("case", "numbers", "units", "punctuation", "whitespace"),
    "title": ("case", "punctuation", "whitespace"), "name": ("case", "punctuation", "whitespace"),
    "date": ("case", "punctuation", "whitespace"), "text": ("case", "whitespace"),
}
SYSTEM = ("You write tasks for a web-agent benchmark on a saved website. Every task is a natural-language "
          "instruction with one exact, short answer that can be found on the site. Answer with JSON only.")


@dataclass
class GenerationReport:
    candidates: list[Candidate] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)   # why items of the model's answers were not kept
    requests: int = 0   # categories asked (each one call, with its retries)
    categories: int = 0  # categories the seeds have
    # The call that stopped the generation (the endpoint failed for good, or the budget ran out): later
    # categories are not asked, since they would fail the same way after as many retries.
    stopped: str = ""
    budget: bool = False
    unasked: list[str] = field(default_factory=list)  # the categories not asked after the stop
    refused: list[str] = field(default_factory=list)  # categories whose request the endpoint refused (HTTP 400)
    # Categories whose answer the model did not finish (refused, cut off, empty: `Answer.incomplete`) -> why.
    unfinished: dict[str, str] = field(default_factory=dict)
    empty: list[str] = field(default_factory=list)  # categories the model answered with an empty list of tasks

    @property
    def answered(self) -> int:
        """The categories the model answered (kept candidates or not; an empty list is an answer)."""
        return self.requests - (1 if self.stopped else 0) - len(self.refused) - len(self.unfinished)

    def shortfall(self) -> str:
        """What was not done, in words ("" when every category was answered)."""
        said = []
        if self.stopped:
            why = "the request budget ran out" if self.budget else "the model endpoint failed"
            unasked = f"; not asked: {listed(self.unasked)}" if self.unasked else ""
            said.append(f"stopped at category {self.requests} of {self.categories} ({why}{unasked})")
        if self.refused:
            said.append(f"the request of {listed(self.refused)} was refused")
        if self.unfinished:
            said.append("no finished answer for " + "; ".join(f"{category} ({why})"
                                                               for category, why in self.unfinished.items()))
        return "; ".join(said)

    def exit_status(self) -> int:
        """As `agent run`'s and `extract`'s: 3 a budget, 4 an endpoint that failed, 1 a refused category or one
        whose answer the model did not finish."""
        return (3 if self.budget else 4) if self.stopped else 1 if self.refused or self.unfinished else 0


def build_prompt(category: str, description: str, seeds: Sequence[Task], site: Site, excerpts: Mapping[str, str],
                 count: int) -> str:
    pages = "\n".join(f"- {p.url} — {p.title}" for p in site.pages[:MAX_SITE_PAGES])
    if len(site.pages) > MAX_SITE_PAGES:
        pages += f"\n- … and {len(site.pages) - MAX_SITE_PAGES} more pages"
    seed_lines = "\n".join(json.dumps({"id": s.id, "instruction": s.instruction, "answer": s.answer,
                                       "answer_kind": s.answer_kind, "start_url": s.start_url},
                                      ensure_ascii=False) for s in seeds)
    text = "\n\n".join(f"Text of {url}:\n{excerpt}" for url, excerpt in excerpts.items())
    return (f"Category: {category}\nWhat tasks of this category ask: {description or '(see the seed tasks)'}\n\n"
            f"Seed tasks written by experts for this category (JSON lines):\n{seed_lines}\n\n"
            f"Pages of the site (URL — title):\n{pages}\n\n{text}\n\n"
            f"Write {count} new tasks of the category \"{category}\" for this site, different from the seeds and "
            "from each other, each answerable from the saved pages with one exact answer. Answer with a JSON "
            "list of objects with the keys instruction, answer, answer_kind (one of "
            f"{', '.join(ANSWER_KINDS)}), start_url (a page URL from the list) and seeds (the ids of the seed "
            "tasks it follows).")


def read_items(text: str) -> list[object] | None:
    """The JSON list in a model's answer (fences and prose around it tolerated); None when there is none (an empty
    list is the model's answer: no task)."""
    cleaned = re.sub(r"```(?:json)?", "", text)
    for start in [m.start() for m in re.finditer(r"[\[{]", cleaned)]:
        try:
            value, _ = json.JSONDecoder().raw_decode(cleaned[start:])
        except ValueError:
            continue
        if isinstance(value, dict):
            value = value.get("tasks", [value])
        if isinstance(value, list):
            return value
    return None


def generate_candidates(seeds: Sequence[Task], site: Site, caller: Caller, *, per_category: int, model: str,
                        descriptions: Mapping[str, str] | None = None,
                        progress: Callable[[str], None] | None = None) -> GenerationReport:
    """Candidates for every category of the seeds (module notes), in the seeds' category order."""
    if per_category < 1:
        raise AgentError("--per-category must be at least 1")
    if not seeds:
        raise AgentError("no seed tasks to generate from")
    described = {**CATEGORY_DESCRIPTIONS, **(descriptions or {})}
    report = GenerationReport()
    text = SiteText(site)
    by_category: dict[str, list[Task]] = {}
    for seed in seeds:
        by_category.setdefault(seed.category or "(none)", []).append(seed)
    report.categories = len(by_category)
    for category, group in by_category.items():
        starts = list(dict.fromkeys(s.start_url for s in group if s.start_url))
        excerpts = {url: text.written().get(_page_url(site, url), "")[:MAX_EXCERPT] for url in starts}
        prompt = build_prompt(category, described.get(category, ""), group, site, excerpts, per_category)
        if progress:
            progress(f"asking for {per_category} {category} task(s)")
        report.requests += 1
        try:
            answer = caller.generate(prompt, system=SYSTEM)
        except GeminiError as error:
            report.dropped.append(f"{category}: the model call failed: {error}")
            if isinstance(error, BudgetExceededError) or error.endpoint_failed:
                report.stopped, report.budget = str(error), isinstance(error, BudgetExceededError)
                names = list(by_category)
                report.unasked = names[names.index(category) + 1:]
                break
            report.refused.append(category)
            continue  # this one request was refused (HTTP 400: its prompt, say): the next category may pass
        unfinished = answer.incomplete
        if unfinished:  # a refusal or a list cut short is not what the model meant: none of it is used
            report.unfinished[category] = unfinished
            hint = "; fewer tasks (--per-category) make a shorter answer" if answer.finish_reason == "MAX_TOKENS" \
                else ""
            report.dropped.append(f"{category}: {unfinished}: its answer is not used{hint}")
            continue
        items = read_items(answer.text)
        if items is None:
            report.dropped.append(f"{category}: the answer holds no JSON list of tasks")
        elif not items:
            report.empty.append(category)
            report.dropped.append(f"{category}: the model answered with no task (an empty list)")
        kept = extra = 0
        for item in items or ():
            candidate, why = _candidate(item, category, group, site, model, kept + 1)
            if candidate is None:
                report.dropped.append(f"{category}: {why}")
            elif kept >= per_category:
                extra += 1
            else:
                report.candidates.append(candidate)
                kept += 1
                if why:  # kept, with a change the reviewer should know of
                    report.dropped.append(f"{category}: {why}")
        if extra:
            report.dropped.append(f"{category}: {extra} task(s) beyond the {per_category} asked for, left out")
    return report


def _page_url(site: Site, url: str) -> str:
    page = site.page(url)
    return page.url if page is not None else url


def _candidate(item: object, category: str, seeds: Sequence[Task], site: Site, model: str,
               number: int) -> tuple[Candidate | None, str]:
    if not isinstance(item, dict):
        return None, f"an item that is not an object ({str(item)[:60]!r})"
    instruction = " ".join(str(item.get("instruction") or "").split())
    given = item.get("answer")
    if isinstance(given, bool):  # JSON true/false: a yes/no question whose answer's words are unknown
        return None, "an item whose answer is true or false, not the answer's words"
    # A number is its digits, 0 included (a falsy answer is still an answer); null, a list or an object is none.
    answer = " ".join((str(given) if isinstance(given, str | int | float) else "").split())
    if not instruction or not answer:
        return None, "an item without an instruction or an answer"
    kind = str(item.get("answer_kind") or "text").strip().lower()
    if kind not in ANSWER_KINDS:
        return None, f"answer kind {kind!r} is not one of {', '.join(ANSWER_KINDS)}"
    ids = {s.id for s in seeds}
    named = [str(s) for s in item.get("seeds") or () if str(s) in ids]
    followed = tuple(named) or tuple(s.id for s in seeds)
    same_kind = [s for s in seeds if s.answer_kind == kind]
    rules = same_kind[0].normalise if same_kind else _DEFAULT_RULES[kind]
    start = str(item.get("start_url") or "")
    note = ""
    if not start or site.page(start) is None:
        # A start page the site does not hold would end every episode at once: the seed's instead, and said.
        note = (f"gen-... {instruction[:50]!r}: start_url {start!r} is no page of the site; the seed's "
                f"{seeds[0].start_url} instead") if start else ""
        start = seeds[0].start_url
    slug = re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-") or "task"
    task = Task(id=f"gen-{slug}-{number}", instruction=instruction, answer=answer, category=category,
                answer_kind=kind, normalise=tuple(rules), start_url=start, site=seeds[0].site or site.name)
    return Candidate(task=task, seeds=followed, model=model), note.replace("gen-...", task.id)
