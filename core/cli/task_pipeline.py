"""`recordlens agent tasks generate | filter | review | export | report`: building a benchmark's tasks.

generate  a model expands expert seed tasks per category into candidates (core/agent/task_generation.py); each
          category answered is kept in <out>.partial at once, and --resume asks only the categories a stopped
          generation did not answer (`GenerationPartial`)
filter    near-duplicates are marked `similar`, offline (core/agent/near_duplicates.py)
review    one candidate's verdict from the shell (the app's task editor has the review queue)
export    the refined (accepted) candidates as a tasks file for `agent run`
report    the funnel per category with the reference trajectories' steps, and its chart (core/agent/funnel.py)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from .. import atomic
from ..agent.candidates import (
    REASONED,
    STATUSES,
    Candidate,
    check_answers,
    load_candidates,
    refuse_shipped,
    save_candidates,
    writing_candidates,
)
from ..agent.funnel import (
    HAND_MADE,
    format_funnel,
    funnel,
    named_tasks,
    on_stored_sites,
    task_key,
    write_funnel_chart,
)
from ..agent.model import Task
from ..agent.near_duplicates import DEFAULT_THRESHOLD, filter_near_duplicates, make_embedder, wording_note
from ..agent.references import Reference
from ..agent.sites import load_site
from ..agent.tasks import load_tasks, save_tasks
from ..command_hints import hint_option, hint_path
from ..errors import AgentError, system_words
from ..file_kinds import read_regular_file, unreadable_kind
from ..output_paths import is_chart, writable_file
from ..path_text import json_text
from ..signals_held import signals_held
from ..wording import listed
from .output import Replacing, print_json, warn


def register(sub: argparse._SubParsersAction) -> None:
    q = sub.add_parser("generate", help="expand expert seed tasks per category with a model into candidates")
    q.add_argument("--site", required=True, help="the snapshot site the tasks are about")
    q.add_argument("--seeds", required=True, help="seed tasks (a tasks JSONL file)")
    q.add_argument("--per-category", type=int, default=10, help="candidates per category (default 10)")
    q.add_argument("--model", default=None, help="Gemini model (default gemini-2.5-pro)")
    q.add_argument("--out", required=True, help="the candidates JSONL file to write")
    q.add_argument("--categories", help="JSON file: category -> description (built-in ones for WebArxiv's kinds)")
    q.add_argument("--base-url", help="another endpoint speaking Gemini's protocol")
    q.add_argument("--temperature", type=float, help="0 to 2 (default 1)")
    q.add_argument("--max-requests", type=int, help="stop after this many model requests")
    q.add_argument("--timeout-s", dest="timeout_s", type=float,
                   help="seconds to wait for one model answer before a retry (default 300)")
    q.add_argument("--replace", action="store_true",
                   help="write over an existing --out file (its review verdicts are lost), and start a stopped "
                        "generation over")
    q.add_argument("--resume", action="store_true",
                   help="go on with a generation that stopped part-way: the categories it answered (kept in "
                        "<out>.partial) are not asked again, unless their seeds or description changed since (their "
                        "answers then set aside in <out>.set-aside.jsonl)")
    q.add_argument("--resume-from", dest="resume_from", metavar="STOPPED_OUT",
                   help="--resume a generation that stopped part-way writing STOPPED_OUT, into --out instead: for a "
                        "STOPPED_OUT already reviewed, whose verdicts stay as they are (its answers kept so far move "
                        "from STOPPED_OUT.partial to <out>.partial); --out gets the candidates generated now, those "
                        "of STOPPED_OUT stay in it alone")
    q.set_defaults(handler=cmd_generate)

    q = sub.add_parser("filter", help="mark near-duplicate candidates as similar (offline sentence embeddings)")
    q.add_argument("--candidates", required=True, help="the candidates JSONL file `generate` wrote")
    q.add_argument("--against", help="tasks the candidates must differ from (default: the seeds of --seeds)")
    q.add_argument("--seeds", help="the seed tasks (compared against, unless --against says otherwise)")
    q.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                   help=f"drop at this cosine similarity or above (default {DEFAULT_THRESHOLD})")
    q.add_argument("--embedder", help="a sentence-transformers model folder (default: WordLlama, shipped)")
    q.add_argument("--out", help="write here (default: the candidates file itself)")
    q.set_defaults(handler=cmd_filter)

    q = sub.add_parser("review", help="set one candidate's status (accepted, similar, unable, expired)")
    q.add_argument("--candidates", required=True, help="the candidates JSONL file")
    q.add_argument("--id", required=True, dest="task_id", help="the candidate's id, as the file gives it")
    q.add_argument("--status", required=True, choices=STATUSES, help="the candidate's new status")
    q.add_argument("--reason", default="", help="why, kept with the status (default: none)")
    q.add_argument("--instruction", help="a refined instruction")
    q.add_argument("--answer", help="a refined gold answer")
    q.set_defaults(handler=cmd_review)

    q = sub.add_parser("export", help="write the refined (accepted) candidates as a tasks file")
    q.add_argument("--candidates", required=True, help="the candidates JSONL file")
    q.add_argument("--out", required=True, help="the tasks JSONL file to write")
    q.add_argument("--replace", action="store_true",
                   help="write over an existing --out file (the tasks it holds, an expert's seeds say, are lost)")
    q.set_defaults(handler=cmd_export)

    q = sub.add_parser("report", help="the construction funnel per category (WebArxiv's Table 1) and its chart",
                       description="Without --candidates, the tasks of --tasks (else the project's) are counted as "
                                   "refined, written by hand (a benchmark made by hand has no generation funnel, "
                                   "but it has its ground-truth steps).")
    q.add_argument("--candidates", help="the candidates file (default: --tasks, else the --project's tasks)")
    q.add_argument("--tasks", help="a tasks file written by hand, every task counted (the project holds only the "
                                   "tasks recorded or run)")
    q.add_argument("--project", help="a project whose reference trajectories give the ground-truth steps")
    q.add_argument("--references", help="a folder of <task id>.json reference trajectories")
    q.add_argument("--site", help="the snapshot site: answers edited at review are checked against its pages "
                                  "before they are counted")
    q.add_argument("--json", action="store_true", help="print the funnel as JSON")
    q.add_argument("--chart", help="write the funnel chart (PNG) here")
    q.set_defaults(handler=cmd_report, only_reads=True)


def cmd_generate(args: argparse.Namespace) -> int:
    from ..agent.task_generation import asked_from, categories_without_seeds, check_seeds, generate_candidates

    refuse_shipped(args.out)
    writable_file(args.out, "the candidates")
    args.resume = args.resume or bool(args.resume_from)
    if args.resume and args.replace:
        raise AgentError("give --resume (go on with a stopped generation) or --replace (start over), not both")
    site = load_site(args.site)
    seeds = load_tasks(args.seeds)
    check_seeds(seeds, site)  # before the key is looked for: the seeds alone are wrong
    descriptions = _descriptions(args.categories) if args.categories else None
    for category in categories_without_seeds(seeds, descriptions or {}):  # said before any request
        print(f"warning: {category}: described in {hint_path(args.categories)}, but no seed of "
              f"{hint_path(args.seeds)} is of this category: not asked (a category is asked with its seeds)",
              file=sys.stderr)
    caller = _generation_caller(args)
    settings = caller.settings
    partial = GenerationPartial(args.out, {"site": site.name, "model": settings.model,
                                           "per_category": args.per_category}, asked_from(seeds, descriptions),
                                resume_from=args.resume_from)
    resumed = _resuming(args, partial) if args.resume else _starting_over(args, partial)
    generator = {"endpoint": caller.recorded_base_url, "temperature": settings.temperature}
    report = generate_candidates(seeds, site, caller, per_category=args.per_category, model=settings.model,
                                 descriptions=descriptions,
                                 progress=lambda text: print(f"recordlens: {text}", file=sys.stderr, flush=True),
                                 resumed=resumed, answered=partial.keep, generator=generator,
                                 taken=partial.taken_elsewhere)
    for why in report.dropped:
        print(f"warning: {why}", file=sys.stderr)
    # The candidates another file holds (the stopped run's, resumed into this --out) stay there alone, with their
    # verdicts: written here too, they would be reviewed twice and counted or exported twice under one id.
    elsewhere = partial.held_elsewhere(resumed)
    not_again = {c.id for category in elsewhere for c in resumed[category][0]}
    candidates = check_answers([c for c in report.candidates if c.id not in not_again], site)
    shortfall = report.shortfall()
    finish = f"; {partial.how_to_finish()}" if shortfall else ""
    if not candidates:  # every answer unusable: nothing written, an earlier file of candidates stays as it was
        if report.interrupted:  # said, then the stop goes on as an interruption (exit 130, 143)
            print(f"recordlens: no candidate task: {shortfall}; {hint_path(args.out)} not written{finish}",
                  file=sys.stderr)
            raise report.interrupted
        if shortfall and not report.items_alone_dropped:  # the exit status says why, as for a partial generation
            print(f"recordlens: error: no candidate task: {shortfall}; {hint_path(args.out)} not written{finish}",
                  file=sys.stderr)
            return report.exit_status()
        raise AgentError(f"no candidate task: none of the answers could be kept (warnings above); "
                         f"{hint_path(args.out)} not written{finish}")
    with writing_candidates(args.out) as notes:  # not in the middle of another's verdict
        for note in notes:
            warn(note)
        _refuse_what_came_meanwhile(args, partial)
        save_candidates(args.out, candidates)
    flagged = [c.id for c in candidates if c.evidence == ""]  # named: the reviewer looks at these first
    with_none = f" ({listed(report.empty)} with no task)" if report.empty else ""
    earlier = f", {len(report.resumed)} of them by the run resumed{_held_said(elsewhere, resumed)}" \
        if report.resumed else ""
    print(f"{hint_path(args.out)}: {len(candidates)} candidate(s) from {len(seeds)} seed(s), {report.answered} of "
          f"{report.categories} categories answered{earlier}{with_none}; {len(flagged)} with a gold answer found in "
          "no saved page (flagged for review" + (f": {listed(flagged)})" if flagged else ")"))
    if shortfall:  # partial work: the exit status says why (3 a budget, 4 an endpoint, 1 a refused category or an
        # answer the model did not finish or that holds no usable list; Ctrl+C, SIGTERM: 130, 143)
        print(f"warning: {shortfall}; the candidates of the categories answered are written{finish}",
              file=sys.stderr)
    else:
        partial.remove()  # every category answered: nothing left to resume
    if report.interrupted:  # the answers paid for are written: now the command stops as interrupted
        raise report.interrupted
    return report.exit_status()


def _held_said(elsewhere: dict[str, str], resumed: dict[str, tuple[list[Candidate], list[str]]]) -> str:
    """Where the resumed categories' candidates not written into --out are (", whose 4 candidate(s) are in
    cand.jsonl (lookup, rules), not written again"), "" when none is elsewhere."""
    by_file: dict[str, list[str]] = {}
    for category, path in elsewhere.items():
        by_file.setdefault(path, []).append(category)
    said = [f"{sum(len(resumed[c][0]) for c in categories)}{' candidate(s)' * (not n)} are in {hint_path(_near(path))} "
            f"({listed(categories)})" for n, (path, categories) in enumerate(by_file.items())]
    return f", whose {' and '.join(said)}, not written again" if said else ""


def _near(path: str) -> str:
    """A path recorded absolute, as relative to the working folder when it is under it (as the user likely gave it)."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _generation_caller(args: argparse.Namespace):  # noqa: ANN202 - a GeminiCaller
    from .extraction import gemini_caller

    return gemini_caller(args, json_output=True)


def _resuming(args: argparse.Namespace, partial: GenerationPartial) -> dict:
    """The stopped generation's answered categories; its --out, written at the stop, is written again with them and
    the others, unless a reviewer has judged some of it (those verdicts would be lost). What it answered that is not
    used (a category whose seeds or description changed, or that no seed has now) is said, before any request."""
    reviewed = _reviewed(args.out)
    if reviewed:
        stopped = args.resume_from or args.out
        raise AgentError(f"{hint_path(args.out)} exists{reviewed}: give {hint_option('--resume-from', stopped)} "
                         "--out OTHER.jsonl (in place of --resume) to resume into another file, leaving "
                         f"{hint_path(args.out)} and its verdicts as they are, or --replace to start over")
    resumed = partial.resumed()
    for said in partial.set_aside_said:
        print(f"warning: {said}", file=sys.stderr)
    return resumed


def _refuse_what_came_meanwhile(args: argparse.Namespace, partial: GenerationPartial) -> None:
    """The start's look at --out (`_resuming`, `_starting_over`) made again under its lock, just before --out is
    written whole: a verdict given while the model was asked (minutes), or a file another command wrote there
    meanwhile, is not written over. The answers paid for stay in the partial file, from which another --out is
    written without asking the model again."""
    if args.resume:
        held = _reviewed(args.out)
        if not held:
            return
    elif args.replace or not Path(args.out).exists():
        return
    else:
        held = _reviewed(args.out)
    raise AgentError(f"{hint_path(args.out)} was written by another command while this generation ran (it now "
                     f"exists{held}): not written over; the answers of this generation are kept in "
                     f"{hint_path(partial.path)}: give {hint_option('--resume-from', args.out)} --out OTHER.jsonl to "
                     "write them into another file, asking the model only for the categories not answered, and "
                     f"leaving {hint_path(args.out)} as it is")


def _starting_over(args: argparse.Namespace, partial: GenerationPartial) -> dict:
    """A generation from the first category: refused over an existing --out or a stopped generation's answers unless
    --replace (which drops them). Said before any model request."""
    if partial.path.exists() and not args.replace:
        raise AgentError(f"a generation into {hint_path(args.out)} stopped part-way ({hint_path(partial.path)} keeps "
                         "the categories it answered): --resume asks only the others, --replace starts over and asks "
                         "every category again")
    _refuse_to_write_over(args.out, args.replace, _reviewed(args.out))
    partial.remove()
    return {}


class GenerationPartial:
    """The categories a generation has answered so far (`<out>.partial`, JSON), written as each is answered, so
    that the answers paid for survive a stop of any kind and `--resume` asks only the other categories. Removed once
    every category is answered. `--resume-from STOPPED_OUT` resumes the generation into STOPPED_OUT into another --out
    (STOPPED_OUT reviewed meanwhile): its answers are read from `STOPPED_OUT.partial` and moved to `<out>.partial`,
    so that a stop of this run is resumed with --resume, and STOPPED_OUT is left to its verdicts: each category moved
    records STOPPED_OUT as the file that holds its candidates (`held_in`), which are then not written into --out
    (`held_elsewhere`), and whose ids the categories asked since do not take (`taken_elsewhere`). It records the
    site, model and --per-category: a resume with others is refused. With each category it records what its request
    was made from (`asked_from`: digests of its seeds and description): a category whose seeds or description
    changed since is asked again. The stopped run's answers that a resume does not
    use (such a category's, or a category's that no seed has now) are not lost: before any request they are added
    to `<out>.set-aside.jsonl` (one line a category: why, its candidates and warnings), which nothing removes."""

    def __init__(self, out: str, settings: dict[str, object], asked_from: dict[str, dict[str, str]], *,
                 resume_from: str | None = None) -> None:
        self.out = out
        # Recorded in the partial file as the file holding the candidates moved from it: absolute, so that a later
        # --resume from another folder finds it.
        self.stopped_out = os.path.abspath(resume_from) if resume_from else None
        self.path = Path(f"{out}.partial")
        self.source = Path(f"{resume_from}.partial") if resume_from else self.path  # what --resume reads
        self.set_aside_path = Path(f"{out}.set-aside.jsonl")
        self.settings = settings
        self.asked_from = asked_from  # this run's categories: what each is asked from (digests)
        self.categories: dict[str, dict[str, object]] = {}
        self.set_aside_said: list[str] = []  # what `resumed` did not use, in words
        self.taken_elsewhere: set[str] = set()  # the ids of the candidates files the resumed categories are held in

    def resumed(self) -> dict[str, tuple[list[Candidate], list[str]]]:
        """The categories answered by the stopped run that this run asks from the same seeds and description (refused
        when there is none, or it was made otherwise); the others set aside, and said (`set_aside_said`)."""
        self._refuse_two_stopped()
        if not self.source.exists():
            raise AgentError(f"no stopped generation to resume: {hint_path(self.source)} is not there (a generation "
                             "that answered every category leaves none)")
        try:
            data = json.loads(self.source.read_text(encoding="utf-8"))
            recorded, categories = data["settings"], dict(data["categories"])
            kept = {category: ([Candidate.from_dict(c) for c in part["candidates"]], [str(w) for w in part["dropped"]])
                    for category, part in categories.items()}
        except (OSError, ValueError, KeyError, TypeError, AgentError) as error:
            raise AgentError(f"cannot read {hint_path(self.source)} to resume: {error}") from None
        changed = [f"{key} {recorded.get(key)!r} (now {value!r})" for key, value in self.settings.items()
                   if recorded.get(key) != value]
        if changed:
            raise AgentError(f"{hint_path(self.source)} was made with another " + ", ".join(changed) +
                             ": give the same options to resume, or --replace to start over")
        moving = self.source != self.path
        if moving:  # written into STOPPED_OUT at its stop (unless held in a file before it: a resume of a resume)
            categories = {category: {"held_in": self.stopped_out, **part} for category, part in categories.items()}
        self.taken_elsewhere = {i for where in self._files_held_in(categories) for i in _candidate_ids(where)}
        unused = {category: why for category, part in categories.items()
                  if (why := self._not_used_because(category, part))}
        self.categories = {category: part for category, part in categories.items() if category not in unused}
        if unused or moving:  # moved, not copied (a stop waits for every write): a later resume does not set them
            with signals_held():  # aside again, nor finds them in two partial files
                self._set_aside({category: (why, kept[category]) for category, why in unused.items()})
                self._write()
                if moving:
                    self.source.unlink(missing_ok=True)
        return {category: kept[category] for category in self.categories}

    def _files_held_in(self, categories: dict[str, dict]) -> set[str]:
        """The other candidates files that hold categories of the partial file (not --out, which is written now)."""
        named = {part.get("held_in") for part in categories.values()}
        return {where for where in named if isinstance(where, str) and not _same_file(where, self.out)}

    def held_elsewhere(self, resumed: dict[str, tuple[list[Candidate], list[str]]]) -> dict[str, str]:
        """The resumed categories whose candidates another file holds (category -> that file), not to be written into
        --out. One whose file holds none of them (removed since, or written over by another generation) is not: its
        candidates, kept in the partial file alone, go into --out rather than be lost."""
        ids = {where: _candidate_ids(where) for where in self._files_held_in(self.categories)}
        held = {}
        for category, (candidates, _) in resumed.items():
            where = self.categories.get(category, {}).get("held_in")
            if isinstance(where, str) and any(c.id in ids.get(where, ()) for c in candidates):
                held[category] = where
        return held

    def _refuse_two_stopped(self) -> None:
        """--resume-from into an --out that has a stopped generation of its own: which one to go on with is not
        known, and moving the other's answers there would lose its own."""
        if self.source != self.path and self.path.exists():
            raise AgentError(f"a generation into this --out stopped part-way too ({hint_path(self.path)} keeps its "
                             "answers): --resume (without --resume-from) goes on with it, or give another --out")

    def _not_used_because(self, category: str, part: dict) -> str:
        """Why the stopped run's answer of `category` is not used now ("" when it is): no seed is of the category now,
        or what it was asked from is not what this run would ask from."""
        now = self.asked_from.get(category)
        if now is None:
            return "no seed is of this category now: dropped from the generation"
        then = {key: part.get(key) for key in now}
        if None in then.values():  # a partial file written before they were recorded: what it was asked from is
            return "asked again: the partial file does not record its seeds"  # not known
        differ = [what for what in ("seeds", "description") if then[what] != now[what]]
        return f"asked again: its {' and '.join(differ)} changed" if differ else ""

    def _set_aside(self, unused: dict[str, tuple[str, tuple[list[Candidate], list[str]]]]) -> None:
        """Add the answers not used to the set-aside file (before the partial file is written without them), and say
        where they are."""
        if not unused:
            return
        lines = [json_text(json.dumps({"category": category, "why": why, "settings": self.settings,
                                       "candidates": [c.as_dict() for c in candidates], "dropped": dropped},
                                      ensure_ascii=False)) + "\n"
                 for category, (why, (candidates, dropped)) in unused.items()]
        earlier = self.set_aside_path.read_text(encoding="utf-8") if self.set_aside_path.exists() else ""
        atomic.write_text(self.set_aside_path, earlier + "".join(lines))
        self.set_aside_said = [f"{category}: answered by the stopped generation, {why}; its {len(candidates)} "
                               f"candidate(s) are kept in {hint_path(self.set_aside_path)}, not in the candidates "
                               "written"
                               for category, (why, (candidates, _)) in unused.items()]

    def keep(self, category: str, candidates: list[Candidate], dropped: list[str]) -> None:
        self.categories[category] = {"candidates": [c.as_dict() for c in candidates], "dropped": list(dropped),
                                     **self.asked_from.get(category, {})}
        self._write()

    def _write(self) -> None:
        # json_text: the file the candidates are held in (`held_in`) may be named in bytes that are not UTF-8
        atomic.write_text(self.path, json_text(json.dumps({"settings": self.settings, "categories": self.categories},
                                                          ensure_ascii=False)) + "\n")

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)

    def how_to_finish(self) -> str:
        """The command that asks only the categories not answered."""
        if not self.path.exists():
            return "run the same command again to ask every category"
        again = "with --resume in place of --resume-from" if self.source != self.path else "with --resume"
        return (f"the categories answered are kept in {hint_path(self.path)}: the same command {again} asks only "
                "the others")


def _candidate_ids(path: str) -> set[str]:
    """The ids of a candidates file (none when it is not there or cannot be read)."""
    try:
        return {c.id for c in load_candidates(path)}
    except AgentError:
        return set()


def _same_file(path: str | Path, other: str | Path) -> bool:
    """Whether two paths name one file (through links, or another spelling of the path)."""
    try:
        return os.path.samefile(path, other)
    except OSError:  # one is not there: the load that follows says so
        return Path(path).resolve() == Path(other).resolve()


def _refuse_to_write_over(out: str, replace: bool, holding: str = "") -> None:
    """An existing --out file is not written over unasked: a candidates file holds the review's verdicts, a tasks
    file perhaps the experts' seeds. Said before any work (for generate, before any model request)."""
    if replace or not Path(out).exists():
        return
    raise AgentError(f"{hint_path(out)} exists{holding}: give another --out, or --replace to write over it")


def _holding(out: str, held: Callable[[str], str]) -> str:
    """What a file about to be written over holds that would be lost (" with 3 task(s)"): `held` said of it,
    nothing said for a file that is not there, cannot be read, or holds none."""
    if not Path(out).is_file():
        return ""
    try:
        said = held(out)
    except AgentError:
        said = ""
    return f" with {said}" if said else ""


def _reviewed(out: str) -> str:
    """A candidates file's reviewers' verdicts and the near-duplicate filter's marks, counted apart: a mark is the
    filter's figure, made again by running it, not a person's work."""
    return _holding(out, _judged)


def _judged(path: str) -> str:
    candidates = load_candidates(path)
    verdicts = sum(c.status != "candidate" and c.filter is None for c in candidates)
    marks = sum(c.filter is not None for c in candidates)
    marked = f"{marks} {'' if verdicts else 'candidate(s) '}marked similar by the near-duplicate filter"
    return " and ".join([f"{verdicts} reviewed candidate(s)"] * bool(verdicts) + [marked] * bool(marks))


def _tasks_held(out: str) -> str:
    """A tasks file's tasks (an expert's seeds, perhaps)."""
    return _holding(out, lambda path: f"{held} task(s)" if (held := len(load_tasks(path))) else "")


def _descriptions(path: str) -> dict[str, str]:
    try:
        # through the guarded reader: a FIFO is not waited on, a file of an open project's database not opened
        data = json.loads(read_regular_file(path).decode("utf-8"))
    except OSError as error:
        said = unreadable_kind(path, error, "categories file") or system_words(error)
        raise AgentError(f"cannot read the categories file {hint_path(path)}: {said}") from None
    except ValueError as error:
        raise AgentError(f"cannot read the categories file {hint_path(path)}: {error}") from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise AgentError(f"{hint_path(path)} must be a JSON object: category -> description")
    return {str(k): v for k, v in data.items()}


def cmd_filter(args: argparse.Namespace) -> int:
    out = args.out or args.candidates
    refuse_shipped(out)
    writable_file(out, "the candidates")
    against_file = args.against or args.seeds
    if against_file and _same_file(against_file, args.candidates):
        option = "--against" if args.against else "--seeds"
        raise AgentError(f"{hint_option(option, against_file)} is the candidates file itself: each task would be found "
                         f"a near-duplicate of itself. Leave {option} out to compare the candidates with one another, "
                         "or give the seeds in a file of their own")
    against = load_tasks(against_file) if against_file else []
    embedder = make_embedder(args.embedder)  # (its model loaded before the file is held)
    # Held from the read to the write: a verdict given meanwhile would be written over by the filter's copy
    with writing_candidates(out) as notes:
        for note in notes:
            warn(note)
        candidates = load_candidates(args.candidates)
        earlier = {c.id: c.filter for c in candidates if c.filter is not None}  # the filter's marks: made again
        filtered = filter_near_duplicates(candidates, embedder, kept=against, threshold=args.threshold)
        save_candidates(out, filtered)
    marked = [c for c in filtered if c.filter is not None]
    for c in marked:
        print(f"  similar  {c.id} -> {c.similar_to} ({c.similarity:.3f}): {c.task.instruction}")
    kept = sum(c.status == "candidate" for c in filtered)
    said = [f"{hint_path(out)}: {len(marked)} near-duplicate(s) marked similar at threshold {args.threshold:g} with "
            f"{embedder.name}"]
    if earlier:  # marks of an earlier run are not verdicts: said what became of them
        lifted = [i for i in earlier if i not in {c.id for c in marked}]  # in the file's order
        at = " and ".join(sorted({f"{mark.threshold:g}" for mark in earlier.values()}, key=float))
        said[0] += (f" (the {len(earlier)} mark(s) of an earlier run at threshold {at} were made again: "
                    f"{len(earlier) - len(lifted)} still similar, {len(lifted)} lifted"
                    + (f": {listed(lifted)}" if lifted else "") + ")")
    verdicts = sum(c.status == "similar" and c.filter is None for c in filtered)
    if verdicts:
        said.append(f"{verdicts} similar verdict(s) of reviewers kept as given")
    print("; ".join([*said, f"{kept} candidate(s) left to review"]))
    compared = [*against, *(c.task for c in filtered  # the tasks compared: those judged, and the accepted
                            if c.status in ("candidate", "accepted") or c.filter is not None)]
    if note := wording_note(embedder, compared):  # texts the embedder does not read: judged by their wording
        print(f"note: {note}")
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    if args.status in REASONED and not args.reason.strip():  # said in the option's name, before the file is read
        raise AgentError(f"--status {args.status} needs --reason: why, for the report and the next reviewer")
    refuse_shipped(args.candidates)
    with writing_candidates(args.candidates) as notes:  # a verdict written meanwhile elsewhere is kept
        for note in notes:
            warn(note)
        candidates = load_candidates(args.candidates)
        index = next((i for i, c in enumerate(candidates) if c.id == args.task_id), None)
        if index is None:
            raise AgentError(f"no candidate {args.task_id} in {hint_path(args.candidates)}")
        candidates[index] = candidates[index].reviewed(args.status, args.reason, instruction=args.instruction,
                                                       answer=args.answer)
        save_candidates(args.candidates, candidates)
    print(f"{args.task_id}: {args.status}" + (f" ({args.reason})" if args.reason else ""))
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    refuse_shipped(args.out)
    writable_file(args.out, "the tasks")
    _refuse_to_write_over(args.out, args.replace, _tasks_held(args.out))
    tasks = [c.task for c in load_candidates(args.candidates) if c.status == "accepted"]
    if not tasks:
        raise AgentError(f"{hint_path(args.candidates)} has no accepted candidate yet: review them first")
    replacing = Replacing(args.out)
    save_tasks(args.out, tasks)
    print(f"{hint_path(args.out)}: {len(tasks)} task(s)")
    replacing.said()
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    if not args.candidates and not args.project and not args.tasks:
        raise AgentError("agent tasks report needs --candidates FILE, --tasks FILE, --project P, or a combination")
    if args.candidates and args.tasks:
        raise AgentError("give --candidates (a generated benchmark) or --tasks (one made by hand), not both")
    if args.chart:
        writable_file(args.chart, "a chart", replaces=is_chart)
    candidates = _checked_candidates(args) if args.candidates else []
    if args.tasks:
        candidates = _hand_made(load_tasks(args.tasks))
    references: list[Reference] = []  # every reference of the tasks counted, oldest first
    current: dict[tuple[str, str], Task] = {}  # (site, task id) -> the project's copy, which references are judged by
    if args.project:
        from ..store.project import open_project

        with open_project(args.project) as project:
            if not candidates and not args.candidates:
                candidates = _hand_made(project.agent.tasks())
                print(f"counting the {len(candidates)} task(s) of project {hint_path(args.project)} (it holds the "
                      "tasks recorded or run on); --tasks FILE counts every task of a tasks file", file=sys.stderr)
            candidates = _on_the_sites_they_ran_on(project, candidates, args)
            references, current = _project_references(project, candidates)
    if args.references:  # a file's reference is its task's newest; its version is not known
        from ..agent.model import read_references

        references += [Reference(t) for t in read_references(Path(args.references)).values()]
    if not candidates:  # a table of zeros alone reads as a benchmark whose every task was dropped
        given = args.candidates or args.tasks
        where = hint_path(given) if given else f"project {hint_path(args.project)}"
        print(f"{where} holds no task: every count below is zero (candidates come from `agent tasks generate`; a "
              "project's tasks from the agent window's Tasks tab, or `agent run --tasks`)", file=sys.stderr)
    table = funnel(candidates, references, current=current)
    if args.chart:
        write_funnel_chart(table, args.chart)
        print(f"wrote {hint_path(args.chart)}", file=sys.stderr)
    if args.json:
        print_json(table.as_dict())
    else:
        print(format_funnel(table))
    return 0


def _on_the_sites_they_ran_on(project, candidates: list[Candidate],  # noqa: ANN001 - a Project
                              args: argparse.Namespace) -> list[Candidate]:
    """The tasks counted, each that names no site on the site the project ran it on (`on_stored_sites`); those that
    stay of no site are said, with why."""
    placed = on_stored_sites(candidates, project.agent.tasks())
    source, folder = hint_path(args.tasks or args.candidates), hint_path(args.project)
    counted = f"task(s) of {source} name no site and project {folder}"
    if placed.not_in_project:
        print(f"note: {len(placed.not_in_project)} {counted} holds none of that id (never run nor recorded there): "
              f"counted as of no site: {listed(placed.not_in_project)}", file=sys.stderr)
    if placed.on_several:
        several = [f"{task_id} ({', '.join(sites)})" for task_id, sites in placed.on_several.items()]
        print(f"note: {len(several)} {counted} holds that id on several sites, which cannot be told apart: counted as "
              f"of no site, with the references of every site: {listed(several)}", file=sys.stderr)
    return placed.candidates


def _project_references(project, candidates: list[Candidate]  # noqa: ANN001
                        ) -> tuple[list[Reference], dict[tuple[str, str], Task]]:
    """The `project`'s references of the tasks counted, oldest first, each from its task's own site (a task id is a
    site's own, so site A's reference of t1 does not count for site B's t1), with the version of the task each was
    recorded for; and the project's copy of each task counted, which `funnel` judges a reference's version by, as
    `agent eval` does (a candidates file may hold a version of the task the project has changed since). A task
    naming no site of the project (one it never ran, or holds on several sites: `_on_the_sites_they_ran_on`; or
    naming the site's folder) takes its id's references and copy from any site, as before."""
    sites = {task.site for task in project.agent.tasks()}
    versions = project.agent.recorded_versions()
    references: dict[tuple[int, str], Reference] = {}  # by row and the site counted: oldest first once sorted
    current: dict[tuple[str, str], Task] = {}  # by the site counted and task id: a task id is a site's own
    for site in sorted({c.task.site for c in candidates}):
        where = site if site in sites else None
        ids = {c.id for c in candidates if c.task.site == site}
        references.update({(row, site): Reference(t, versions[row], row, site=site) for row, t in
                           project.agent.trajectories(reference=True, site=where) if t.task_id in ids})
        current.update({(site, t.id): t for t in project.agent.tasks(site=where) if t.id in ids})
    return [references[key] for key in sorted(references)], current


def _hand_made(tasks: list[Task]) -> list[Candidate]:
    """Tasks a person wrote, as the funnel counts them: refined, under "by hand"."""
    return [Candidate(task=t, model=HAND_MADE, status="accepted") for t in tasks]


def _checked_candidates(args: argparse.Namespace) -> list[Candidate]:
    """The candidates, their unchecked answers looked for on --site; without it, a note names them: those a
    reviewer edited apart from those nobody looked for (the note once called every one of them edited)."""
    candidates = load_candidates(args.candidates)
    unchecked = [c for c in candidates if c.evidence is None]
    if unchecked and args.site:
        # by site and id: site A's t1 and site B's t1 are two tasks, each keeps its own answer's evidence
        checked = {task_key(c): c for c in check_answers(unchecked, load_site(args.site))}
        return [checked.get(task_key(c), c) if c.evidence is None else c for c in candidates]
    if unchecked:
        sites = {c.task.site for c in unchecked}  # over several, each task named with its site
        edited = named_tasks([task_key(c) for c in unchecked if c.edited], sites)
        other = named_tasks([task_key(c) for c in unchecked if not c.edited], sites)
        which = "; ".join(part for part in (f"edited at review: {listed(edited)}" if edited else "",
                                            f"never checked: {listed(other)}" if other else "") if part)
        print(f"{len(unchecked)} candidate(s) of {hint_path(args.candidates)} have an answer no one has looked for on "
              f"the site ({which}); they are not counted as not found. --site DIR looks for them", file=sys.stderr)
    return candidates
