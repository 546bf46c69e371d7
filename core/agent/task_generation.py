"""Generating candidate tasks from expert seed tasks with a model, one request per category (WebArxiv's step).

For each category of the seeds file, the model gets the category's description, that category's seed tasks
(instruction, answer, answer kind), the site's pages (URL and title) and an excerpt of the text of the pages
the seeds start from, and is asked for `per_category` new tasks as a JSON list of objects with `instruction`,
`answer`, `answer_kind`, `start_url` and `seeds` (the ids of the seeds it followed). Its answer is read
tolerantly (code fences, prose around the JSON); items that are not usable (no instruction or answer, an
answer given as true or false, an unknown answer kind) are dropped and counted, never a crash. An answer the
model did not finish (refused: finishReason SAFETY, RECITATION...; cut off: MAX_TOKENS; or empty) is not used at
all, as `agent run` never acts on one (`Answer.incomplete`): its category is not answered, and is named with
why; an empty list is an answer, with no task, and said so. A finished answer that holds no usable list (prose
alone, or a JSON list that is cut short or does not read as JSON) is not used either, not even the whole items
before the cut: its category is named with why and not answered (`read_items`). Ctrl+C or SIGTERM
stops the generation as a failed endpoint does: the categories answered so far are kept in the report, the one
asked when it came is not (`GenerationReport.interrupted`). A number given
as the answer is kept as its digits (0 as "0"). A candidate whose `seeds` name no seed of its
category gets all of them; its normalisation is that of the category's seeds of the same answer kind (or the
kind's usual rules). Ids are `gen-<round>-<category>-<n>`: `<round>` is the generation round's tag, five letters
and digits drawn when a generation starts (`new_round_tag`) and recorded in each candidate's `generator`, so that the
tasks of two rounds, exported and put in one file (or their reference trajectories, `<task id>.json`, in one
folder), never share an id; a resumed generation goes on with the round of the candidates it resumes
(`round_of`), so its ids are those of the stopped run; one resumed into another file numbers the candidates of a
category asked again past the ids the stopped run's file keeps (`first_free_number`). Two categories that would
give the same ids ("Lookup" and "lookup", "filtered search" and "filtered-search") are refused before any request
(`clashing_categories`), as are seeds that start on a page the snapshot does not hold or are for another site
(`seeds_off_the_site`). A field of an item of the wrong type (a `seeds` that is a number, an instruction that is a
list) drops that item, or for `seeds` and `start_url` falls back to the category's seeds and their start page, with a
warning. A category whose every item was dropped is not answered (`unusable`), as an answer with no usable list. The
categories answered are handed to `answered` one by one as they come, so that the command can keep them (a partial
file) and a later `--resume` asks only the others (`resumed`), which stay in the report whatever stops the resumed
run, those after its stop too (answered before it, they are in --out and counted as answered). That hand-over is not
cut in two by a stop: Ctrl+C or SIGTERM met while it runs (the partial file's write) is held until it is done
(`signals_held`), and then stops the generation after that category, which is answered and kept like those before it
(`GenerationReport.stopped_after`).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from urllib.parse import urljoin

from ..errors import AgentError
from ..interruption import Terminated
from ..llm.answer_json import closing_bracket
from ..llm.gemini import BudgetExceededError, GeminiError, QuotaWaitError
from ..signals_held import signals_held
from ..wording import below_one, listed
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
    quota: bool = False  # the budget stop was the server's quota (a long Retry-After), not --max-requests
    stopped_at: int = 0  # the stopping category's place among the seeds' categories (1 the first)
    stopped_category: str = ""  # its name: said with its place, so the one whose answer was awaited is named
    # The stop came once `stopped_at`'s category was answered (Ctrl+C while its answer was being kept): that one is
    # answered, those after it are not asked.
    stopped_after: bool = False
    resumed: list[str] = field(default_factory=list)  # categories answered by an earlier, stopped run (not asked)
    all_dropped: list[str] = field(default_factory=list)  # the `unusable` categories whose every item was dropped
    unasked: list[str] = field(default_factory=list)  # the categories not asked after the stop
    refused: list[str] = field(default_factory=list)  # categories whose request the endpoint refused (HTTP 400)
    # Categories whose answer the model did not finish (refused, cut off, empty: `Answer.incomplete`) -> why.
    unfinished: dict[str, str] = field(default_factory=dict)
    empty: list[str] = field(default_factory=list)  # categories the model answered with an empty list of tasks
    # Categories whose finished answer holds no usable list of tasks (prose alone, a list cut short) -> why.
    unusable: dict[str, str] = field(default_factory=dict)
    # The Ctrl+C or SIGTERM that stopped the generation (`stopped` says so too): the command keeps what was answered
    # before it, then stops as interrupted.
    interrupted: KeyboardInterrupt | None = None

    @property
    def answered(self) -> int:
        """The categories the model answered (kept candidates or not; an empty list is an answer)."""
        return (len(self.resumed) + self.requests - (1 if self.stopped and not self.stopped_after else 0)
                - len(self.refused)
                - len(self.unfinished) - len(self.unusable))

    def shortfall(self) -> str:
        """What was not done, in words ("" when every category was answered)."""
        said = []
        if self.stopped:
            unasked = f"; not asked: {listed(self.unasked)}" if self.unasked else ""
            # "at": the category then asked (its answer awaited) is named, not answered: at the last one, no other is
            where = "after" if self.stopped_after else "at"
            which = "" if self.stopped_after else f", {self.stopped_category}, not answered"
            said.append(f"stopped {where} category {self.stopped_at} of {self.categories}{which} "
                        f"({self._stop_reason()}{unasked})")
        if self.refused:
            said.append(f"the request of {listed(self.refused)} was refused")
        if self.unfinished:
            said.append("no finished answer for " + "; ".join(f"{category} ({why})"
                                                               for category, why in self.unfinished.items()))
        if self.unusable:
            said.append("no usable answer for " + "; ".join(f"{category} ({why})"
                                                             for category, why in self.unusable.items()))
        return "; ".join(said)

    @property
    def items_alone_dropped(self) -> bool:
        """Whether what was not answered is only categories whose every item was dropped (each said why above)."""
        return bool(self.all_dropped) and not (self.stopped or self.refused or self.unfinished) and \
            set(self.unusable) == set(self.all_dropped)

    def _stop_reason(self) -> str:
        if self.interrupted:
            return self.stopped
        if self.quota:  # the server's quota, not the user's --max-requests: the warning above gives its wait
            return "the server's quota ran out: it asks to wait longer than a call waits"
        return "the request budget ran out" if self.budget else "the model endpoint failed"

    def exit_status(self) -> int:
        """As `agent run`'s and `extract`'s: 3 a budget, 4 an endpoint that failed, 1 a refused category or one
        whose answer the model did not finish or that holds no usable list. An interrupted generation is not said
        by a status: the command raises `interrupted` once it has kept what was answered."""
        if self.stopped:
            return 3 if self.budget else 4
        return 1 if self.refused or self.unfinished or self.unusable else 0


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


class NoTaskList(ValueError):
    """A model's answer that holds no usable list of tasks; the message says why (none, cut short, unreadable)."""


# Where JSON of tasks begins: a list of objects (or an empty one), or an object with a key. A bracket of prose
# ("[see below]") is none.
_JSON_START = re.compile(r"\[\s*[{\]]|\{\s*\"")


def read_items(text: str) -> list[object]:
    """The JSON list in a model's answer (fences and prose around it tolerated; an empty list is the model's answer:
    no task). `NoTaskList` when there is none, or when the JSON the answer begins does not read: a list cut short
    (it never closes) or broken, whose whole items are not the list the model meant (never kept one by one)."""
    cleaned = re.sub(r"```(?:json)?", "", text)
    for start in [m.start() for m in re.finditer(r"[\[{]", cleaned)]:
        try:
            value, _ = json.JSONDecoder().raw_decode(cleaned[start:])
        except ValueError as error:
            if _JSON_START.match(cleaned, start):  # the answer's JSON: what follows is inside it, not another list
                raise NoTaskList(_unread_list(cleaned[start:], error)) from None
            continue
        if isinstance(value, dict):
            value = value.get("tasks", [value])
        if isinstance(value, list) and not _a_reference(value):
            return value
    raise NoTaskList("the answer holds no JSON list of tasks")


def _a_reference(value: list[object]) -> bool:
    """Whether a list in the answer is numbers alone: a reference in its prose ("see [1] below"), not the tasks."""
    return bool(value) and all(isinstance(item, int | float) and not isinstance(item, bool) for item in value)


def _unread_list(json_text: str, error: ValueError) -> str:
    if closing_bracket(json_text, 0, "[{", "]}") is None:  # the list or object it begins never closes
        return "its JSON list of tasks is cut short: it never closes"
    return f"its JSON list of tasks does not read as JSON: {getattr(error, 'msg', error)}"


def category_slug(category: str) -> str:
    """The category as candidate ids write it (`gen-<round>-<slug>-<n>`): lower case, runs of other characters one
    "-"."""
    return re.sub(r"[^a-z0-9]+", "-", category.lower()).strip("-") or "task"


# A round's tag: lower-case letters and digits that are not read one for another (no i, l, o, 0, 1); five of them,
# so that two rounds draw the same tag about once in 29 million.
ROUND_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
ROUND_LENGTH = 5


def new_round_tag() -> str:
    """A new generation round's tag (module notes): drawn, not counted, since no file knows how many rounds were
    generated before, nor where their tasks went."""
    return "".join(secrets.choice(ROUND_ALPHABET) for _ in range(ROUND_LENGTH))


def round_of(resumed: Mapping[str, tuple[Sequence[Candidate], Sequence[str]]]) -> str:
    """The round of the candidates a generation resumes (recorded in their `generator`), "" when none records one
    (none kept, or kept by a generation made before rounds were)."""
    for candidates, _ in resumed.values():
        for candidate in candidates:
            tag = (candidate.generator or {}).get("round")
            if isinstance(tag, str) and tag:
                return tag
    return ""


def candidate_id(round_tag: str, category: str, number: int) -> str:
    """The id of the round's `number`th candidate of `category`."""
    return f"gen-{round_tag}-{category_slug(category)}-{number}" if round_tag else \
        f"gen-{category_slug(category)}-{number}"


def first_free_number(taken: Collection[str], round_tag: str, category: str) -> int:
    """The number a category's first new candidate gets: past those of its ids (this round's) `taken` by another
    file, so that a category asked again into another file does not give its new candidates the old ones' ids."""
    prefix = candidate_id(round_tag, category, 0)[:-1]  # "gen-<round>-<slug>-"
    numbers = [int(rest) for rest in (i[len(prefix):] for i in taken if i.startswith(prefix)) if rest.isdigit()]
    return max(numbers, default=0) + 1


def clashing_categories(seeds: Sequence[Task]) -> list[list[str]]:
    """Groups of the seeds' categories that give the same candidate ids ("Lookup" and "lookup"): a typo, most often,
    which would make generated ids collide after the requests were paid for."""
    by_slug: dict[str, list[str]] = {}
    for category in _by_category(seeds):
        by_slug.setdefault(category_slug(category), []).append(category)
    return [names for names in by_slug.values() if len(names) > 1]


def clash_said(groups: Sequence[Sequence[str]]) -> str:
    """The clashing categories in words, with the remedy."""
    pairs = "; ".join(" and ".join(repr(c) for c in group) + f" (gen-<round>-{category_slug(group[0])}-<n>)"
                      for group in groups)
    return (f"the categories {pairs} would give the same candidate ids: write each category one way in the seeds "
            "file (they differ only in case or separators)")


def seeds_off_the_site(seeds: Sequence[Task], site: Site) -> list[str]:
    """What makes seeds unusable on `site`, one line a problem: a start page the snapshot does not hold (a task
    starting there ends at once, and `agent run` refuses it), a site name that is not this site's."""
    problems = []
    unstarted = [s.id for s in seeds if not s.start_url]
    if unstarted:  # as `agent run`, which needs a start page for every task
        problems.append(f"seed(s) {listed(unstarted)} give no start_url")
    outside = [s.id for s in seeds if s.start_url and site.page(s.start_url) is None]
    if outside:
        problems.append(f"seed(s) {listed(outside)} start on a page the site {site.name!r} does not hold "
                        "(`recordlens site build` lists its pages)")
    others = sorted({s.site for s in seeds if s.site and s.site not in (site.name, site.root.name)})
    if others:
        named = [s.id for s in seeds if s.site in others]
        problems.append(f"seed(s) {listed(named)} are for the site(s) {', '.join(map(repr, others))}, not "
                        f"{site.name!r}")
    return problems


def categories_without_seeds(seeds: Sequence[Task], descriptions: Mapping[str, str]) -> list[str]:
    """Categories described (--categories) that no seed is of: generation asks a category from its seeds, so these
    are not asked."""
    seeded = _by_category(seeds)
    return [category for category in descriptions if category not in seeded]


def check_seeds(seeds: Sequence[Task], site: Site) -> None:
    """Refuse seeds generation cannot use, before any request: categories whose candidates' ids would collide (nothing
    could be saved), seeds off the snapshot (every candidate would inherit the seed's start page or site)."""
    clashes = clashing_categories(seeds)
    if clashes:
        raise AgentError(clash_said(clashes))
    off = seeds_off_the_site(seeds, site)
    if off:
        raise AgentError("; ".join(off) + ": fix the seeds, or give --site the folder they were written for")


def _described(descriptions: Mapping[str, str] | None) -> dict[str, str]:
    """Each category's description for the model: the built-in ones, and those given (--categories) over them."""
    return {**CATEGORY_DESCRIPTIONS, **(descriptions or {})}


def _by_category(seeds: Sequence[Task]) -> dict[str, list[Task]]:
    """The seeds by category, in the order the seeds first name each (a seed of none: "(none)")."""
    groups: dict[str, list[Task]] = {}
    for seed in seeds:
        groups.setdefault(seed.category or "(none)", []).append(seed)
    return groups


def asked_from(seeds: Sequence[Task], descriptions: Mapping[str, str] | None = None) -> dict[str, dict[str, str]]:
    """Each category's digests of what its request and candidates are made from: `seeds`, every field of each of its
    seeds in order (ids, instructions, answers, kinds, rules, start pages, site: the prompt quotes them, the candidates
    take their rules and site), and `description`, the one the model is given. A partial file records them with the
    category's answer, so that a resume tells a category whose seeds or description changed since it was answered,
    and asks it again rather than keep candidates made from seeds that are no more."""
    described = _described(descriptions)
    return {category: {"seeds": _digest([seed.as_dict() for seed in group]),
                       "description": _digest(described.get(category, ""))}
            for category, group in _by_category(seeds).items()}


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False).encode("utf-8")).hexdigest()[:16]


# A category answered: its candidates and the warnings its answer gave, as the command keeps them to resume.
Answered = Callable[[str, list[Candidate], list[str]], None]


def generate_candidates(seeds: Sequence[Task], site: Site, caller: Caller, *, per_category: int, model: str,
                        descriptions: Mapping[str, str] | None = None,
                        progress: Callable[[str], None] | None = None,
                        resumed: Mapping[str, tuple[Sequence[Candidate], Sequence[str]]] | None = None,
                        answered: Answered | None = None,
                        generator: Mapping[str, object] | None = None,
                        round_tag: str | None = None, taken: Collection[str] = ()) -> GenerationReport:
    """Candidates for every category of the seeds (module notes), in the seeds' category order. The categories in
    `resumed` (candidates, warnings) were answered by an earlier run and are not asked again; each category answered
    now is handed to `answered`. `generator` is recorded in every candidate (the endpoint, the temperature), with
    the `round` whose tag its id carries: `round_tag`, else the round of the candidates resumed, else a new one.
    `taken`: ids another file holds (the stopped run's, resumed into another file), which new candidates skip."""
    if (wrong := below_one({"--per-category": per_category})) is not None:
        raise AgentError(wrong)
    if not seeds:
        raise AgentError("no seed tasks to generate from")
    check_seeds(seeds, site)
    described = _described(descriptions)
    report = GenerationReport()
    text = SiteText(site)
    by_category = _by_category(seeds)
    report.categories = len(by_category)
    names = list(by_category)
    earlier = resumed or {}
    generator = {**(generator or {}), "round": round_tag or round_of(earlier) or new_round_tag()}
    for category, group in by_category.items():
        if category in earlier:  # paid for by the stopped run: kept as it answered, after a stop of this run too
            report.candidates.extend(earlier[category][0])
            report.dropped.extend(earlier[category][1])
            report.resumed.append(category)
            continue
        if report.stopped_at:  # the endpoint, the budget or Ctrl+C stopped this run: the others are not asked
            continue
        report.requests += 1
        kept_before, said_before = len(report.candidates), len(report.dropped)
        ask = partial(_asked, category, group, site, text, caller, report, per_category=per_category, model=model,
                      description=described.get(category, ""), progress=progress, generator=generator,
                      first=first_free_number(taken, str(generator["round"]), category))
        if not _unless_interrupted(ask, category, report):  # the endpoint, the budget or Ctrl+C stopped it
            _stopped(report, names, category, earlier)
            continue
        if answered is None or not _was_answered(report, category):
            continue
        keep = partial(answered, category, report.candidates[kept_before:], report.dropped[said_before:])
        if not _kept_whole(keep, report):  # Ctrl+C or SIGTERM while it was kept: the stop comes after it
            _stopped(report, names, category, earlier, after=True)
    return report


def _stopped(report: GenerationReport, names: list[str], category: str, earlier: Mapping[str, object], *,
             after: bool = False) -> None:
    """Where the generation stopped: at `category` (not answered), or just `after` it; the categories left."""
    at = names.index(category)
    report.stopped_at, report.stopped_after, report.stopped_category = at + 1, after, category
    report.unasked = [c for c in names[at + 1:] if c not in earlier]


def _was_answered(report: GenerationReport, category: str) -> bool:
    return not (category in report.refused or category in report.unfinished or category in report.unusable)


def _unless_interrupted(ask: Callable[[], bool], category: str, report: GenerationReport) -> bool:
    """`ask()`; on Ctrl+C or SIGTERM, False with the interruption in `report` and nothing of this category kept:
    what it got so far is not its answer (the categories answered before stay, to be written)."""
    kept_before, said_before = len(report.candidates), len(report.dropped)
    try:
        return ask()
    except KeyboardInterrupt as stop:
        del report.candidates[kept_before:], report.dropped[said_before:]
        _forget(report, category)
        _interrupted(report, stop)
        return False


def _kept_whole(keep: Callable[[], None], report: GenerationReport) -> bool:
    """`keep()` (the command's write of a category just answered, paid for) with Ctrl+C and SIGTERM held until it
    is done; False, with the interruption in `report`, when one came meanwhile: raised once the write is done, it
    stops the generation after this category, which stays answered (in the report, so in --out, and in the file
    written)."""
    try:
        with signals_held():
            keep()
    except KeyboardInterrupt as stop:
        _interrupted(report, stop)
        return False
    return True


def _interrupted(report: GenerationReport, stop: KeyboardInterrupt) -> None:
    report.stopped = f"interrupted by {'SIGTERM' if isinstance(stop, Terminated) else 'Ctrl+C'}"
    report.interrupted = stop


def _forget(report: GenerationReport, category: str) -> None:
    """Whatever the category's answer was said to be, unsaid."""
    report.unfinished.pop(category, None)
    report.unusable.pop(category, None)
    report.all_dropped[:] = [c for c in report.all_dropped if c != category]
    report.refused[:] = [c for c in report.refused if c != category]
    report.empty[:] = [c for c in report.empty if c != category]


def _asked(category: str, group: Sequence[Task], site: Site, text: SiteText, caller: Caller,
           report: GenerationReport, *, per_category: int, model: str, description: str,
           progress: Callable[[str], None] | None, generator: Mapping[str, object] | None = None,
           first: int = 1) -> bool:
    """Ask the model for one category's candidates and add its answer to `report`; False when the call failed so
    that the generation stops (the endpoint, the budget)."""
    starts = list(dict.fromkeys(s.start_url for s in group if s.start_url))
    excerpts = {url: text.written().get(_page_url(site, url), "")[:MAX_EXCERPT] for url in starts}
    prompt = build_prompt(category, description, group, site, excerpts, per_category)
    if progress:
        progress(f"asking for {per_category} {category} task(s)")
    try:
        answer = caller.generate(prompt, system=SYSTEM)
    except GeminiError as error:
        report.dropped.append(f"{category}: the model call failed: {error}")
        if isinstance(error, BudgetExceededError) or error.endpoint_failed:
            report.stopped, report.budget = str(error), isinstance(error, BudgetExceededError)
            report.quota = isinstance(error, QuotaWaitError)
            return False
        report.refused.append(category)
        return True  # this one request was refused (HTTP 400: its prompt, say): the next category may pass
    unfinished = answer.incomplete
    if unfinished:  # a refusal or a list cut short is not what the model meant: none of it is used
        report.unfinished[category] = unfinished
        hint = "; fewer tasks (--per-category) make a shorter answer" if answer.finish_reason == "MAX_TOKENS" \
            else ""
        report.dropped.append(f"{category}: {unfinished}: its answer is not used{hint}")
        return True
    try:
        items = read_items(answer.text)
    except NoTaskList as why:  # prose, or a list cut short though the model said it finished: none of it is used
        report.unusable[category] = str(why)
        report.dropped.append(f"{category}: {why}: its answer is not used")
        return True
    if not items:
        report.empty.append(category)
        report.dropped.append(f"{category}: the model answered with no task (an empty list)")
    _keep(items, category, group, site, report, per_category=per_category, model=model, generator=generator,
          first=first)
    return True


def _keep(items: Sequence[object], category: str, group: Sequence[Task], site: Site, report: GenerationReport, *,
          per_category: int, model: str, generator: Mapping[str, object] | None = None, first: int = 1) -> None:
    """The usable items of a category's answer as candidates, up to `per_category`, numbered from `first`; the others
    said why. A list none of whose items is usable leaves the category unanswered (`unusable`)."""
    kept = extra = 0
    for item in items:
        candidate, why = _candidate(item, category, group, site, model, first + kept, generator)
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
    if items and not kept:  # as empty as an empty list, but not what the model meant: said, and asked again
        report.unusable[category] = f"none of its {len(items)} task(s) could be kept"
        report.all_dropped.append(category)


def _page_url(site: Site, url: str) -> str:
    page = site.page(url)
    return page.url if page is not None else url


def _text_field(item: dict, key: str) -> str | None:
    """An item's text field, spacing collapsed ("" when absent or null); None when it is of another type (a list, an
    object, a number: not words the model meant)."""
    value = item.get(key)
    if value is None:
        return ""
    return " ".join(value.split()) if isinstance(value, str) else None


def _followed(item: dict, seeds: Sequence[Task]) -> tuple[tuple[str, ...], str]:
    """The ids of the category's seeds the item names it followed (all of them when it names none), and a note when
    its `seeds` is not a list (a number, true): read as naming none."""
    given = item.get("seeds")
    ids = {s.id for s in seeds}
    every = tuple(s.id for s in seeds)
    if given is None:
        return every, ""
    if not isinstance(given, list):
        return every, f"its seeds {json.dumps(given)[:40]} are not a list of seed ids: all the category's seeds instead"
    named = [str(s) for s in given if isinstance(s, str | int) and not isinstance(s, bool) and str(s) in ids]
    return tuple(dict.fromkeys(named)) or every, ""


def _start(given: str, seed: Task, site: Site) -> tuple[str, str]:
    """The candidate's start page: the item's `start_url` when the site holds it (one relative to the seed's start
    page resolved against it), else the seed's (a page of the site: `seeds_off_the_site`), with a note."""
    for url in (given, urljoin(seed.start_url, given)) if given else ():
        page = site.page(url)
        if page is not None:
            return page.url, ""
    # A start page the site does not hold would end every episode at once: the seed's instead, and said.
    note = f"start_url {given!r} is no page of the site; the seed's {seed.start_url} instead" if given else ""
    return seed.start_url, note


def _candidate(item: object, category: str, seeds: Sequence[Task], site: Site, model: str,
               number: int, generator: Mapping[str, object] | None = None) -> tuple[Candidate | None, str]:
    if not isinstance(item, dict):
        return None, f"an item that is not an object ({str(item)[:60]!r})"
    instruction, kind_given, start_given = (_text_field(item, key) for key in ("instruction", "answer_kind",
                                                                                 "start_url"))
    wrong = [key for key, value in (("instruction", instruction), ("answer_kind", kind_given)) if value is None]
    if wrong:
        return None, f"an item whose {' and '.join(wrong)} {'is' if len(wrong) == 1 else 'are'} not text"
    given = item.get("answer")
    if isinstance(given, bool):  # JSON true/false: a yes/no question whose answer's words are unknown
        return None, "an item whose answer is true or false, not the answer's words"
    # A number is its digits, 0 included (a falsy answer is still an answer); null, a list or an object is none.
    answer = " ".join((str(given) if isinstance(given, str | int | float) else "").split())
    if not instruction or not answer:
        return None, "an item without an instruction or an answer"
    kind = (kind_given or "text").lower()
    if kind not in ANSWER_KINDS:
        return None, f"answer kind {kind!r} is not one of {', '.join(ANSWER_KINDS)}"
    followed, seeds_note = _followed(item, seeds)
    same_kind = [s for s in seeds if s.answer_kind == kind]
    rules = same_kind[0].normalise if same_kind else _DEFAULT_RULES[kind]
    start, start_note = _start(start_given or "", seeds[0], site)
    if start_given is None:
        start_note = f"its start_url is not text; the seed's {seeds[0].start_url} instead"
    task = Task(id=candidate_id(str((generator or {}).get("round") or ""), category, number),
                instruction=instruction, answer=answer,
                category=category, answer_kind=kind, normalise=tuple(rules), start_url=start,
                site=seeds[0].site or site.name)
    notes = [note for note in (start_note, seeds_note) if note]
    said = f"{task.id} {instruction[:50]!r}: " + "; ".join(notes) if notes else ""
    return Candidate(task=task, seeds=followed, model=model, generator=dict(generator) if generator else None), said
