"""`recordlens site ...` and `recordlens agent ...`: snapshot sites, task files, agent runs and their scores.

`agent run` drives one of the browsers of core/agent/browsers.py: QtWebEngine (`qt`, added by the app's
`recordlens` command and imported only when a run uses it) by default, or core's HTML browser (`text`).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import owner_files
from ..agent.axtree import SiteTrees
from ..agent.browsers import BrowserKind, browser_kind, browser_names, default_browser, rendered_viewport
from ..agent.engine_runs import run_agent_on_engine
from ..agent.evaluate import (
    RunPlan,
    changed_tasks,
    evaluate,
    format_endings,
    format_table,
    latest_episodes,
    runs_named,
    why_it_ended,
    write_chart,
)
from ..agent.funnel import named_tasks
from ..agent.loop import (
    CUT_STOPS,
    DEFAULT_MAX_FAILURES,
    DEFAULT_STEP_BUDGET,
    LOOP_RULES,
    OBSERVATIONS,
    AgentSettings,
    ModelEndpointError,
    observes,
    run_agent,
    run_seed,
)
from ..agent.memory import Memory, parse_memory
from ..agent.model import Task, Trajectory, read_references, reference_files
from ..agent.references import (
    FileReferences,
    PasswordFields,
    Reference,
    choose_references,
    ends_with_answer,
    file_references,
    masked_reference,
    same_path,
)
from ..agent.site_digest import short, site_digest
from ..agent.sites import Site, build_site, load_site
from ..agent.task_generation import clash_said, clashing_categories
from ..agent.tasks import RULES_TEXT, load_tasks, task_digest
from ..command_hints import hint_option, hint_path
from ..errors import AgentError, RecordLensError
from ..llm import api_key_from_environment, required_api_key
from ..llm.endpoint import KEY_MARK, recorded_base_url
from ..llm.gemini import UNCOUNTED, answers_without_counts
from ..output_paths import is_chart, writable_file
from ..path_text import shown_bytes
from ..runs.engines import ClusterLostError, EngineError, LostWithWorkers
from ..runs.page_loop import Spent, spending_told
from ..runs.run_files import tokens_said
from ..store import StoreError
from ..store.agent_data import ChangedTaskError
from ..store.runs import RUNNING_MARKS
from ..wording import below_one, counted, listed
from . import capture as capture_cli
from . import task_pipeline
from .engine_options import add_engine_arguments, engine_for, engine_options
from .output import COMMAND_STOPS, print_json, warn


class _Given(argparse.Action):
    """Stores an option's value as `store` does, and notes that it was given (`args.given`): a resumed run goes on
    with its own settings, and one given that differs from them is refused rather than silently ignored."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.given = {*getattr(namespace, "given", ()), self.dest}


# The settings a run records and a resume takes from it (the options of the same names, `_Given`).
DEFAULT_MEMORY = "window:3"  # the agent sees its last three steps
KEPT_ON_RESUME = ("memory", "runs", "step_budget", "max_failures", "browser", "seed", "model", "temperature",
                  "observation")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("site", help="snapshot sites for web-agent benchmarks: crawl one from the web (capture), or "
                                    "index a folder of saved pages (build)")
    site_sub = p.add_subparsers(dest="site_command", metavar="SUBCOMMAND", required=True)
    q = site_sub.add_parser("build", help="index a folder of saved pages by URL (writes DIR/site.json)")
    q.add_argument("folder", metavar="DIR", help="a folder of saved pages (MHTML) that say the URL they were saved "
                                                 "from")
    q.set_defaults(handler=cmd_site_build)
    capture_cli.register(site_sub)

    p = sub.add_parser("agent", help="run web agents on a snapshot site (run), score them (eval), and check or make "
                                     "their tasks (tasks)")
    agent_sub = p.add_subparsers(dest="agent_command", metavar="SUBCOMMAND", required=True)

    q = agent_sub.add_parser("run", help="run an LLM agent on tasks, several times, storing every step",
                             description="Run the agent on every task RUNS times on the snapshot site; every "
                                         "step, screenshot and raw model call is stored in the project.")
    q.add_argument("--project", required=True, help="project folder (created if it does not exist)")
    q.add_argument("--site", required=True, help="snapshot site folder")
    q.add_argument("--tasks", required=True, help="tasks JSONL file")
    q.add_argument("--task", action="append", help="run only this task id (repeatable)")
    # The run's own settings (recorded with it): `_Given` notes each one given, so that a resume can refuse one that
    # differs from the run's (KEPT_ON_RESUME).
    q.add_argument("--model", default=None, action=_Given, help="Gemini model (default gemini-2.5-pro)")
    q.add_argument("--runs", type=int, default=3, action=_Given, help="independent runs of every task (default 3)")
    q.add_argument("--memory", default=DEFAULT_MEMORY, action=_Given,
                   help=f"window:N (last N steps) or dynamic[:K] (default {DEFAULT_MEMORY})")
    q.add_argument("--step-budget", type=int, default=DEFAULT_STEP_BUDGET, action=_Given,
                   help=f"steps an episode may take before it is cut (default {DEFAULT_STEP_BUDGET})")
    q.add_argument("--max-failures", type=int, default=DEFAULT_MAX_FAILURES, action=_Given,
                   help=f"failed steps in a row that end an episode (default {DEFAULT_MAX_FAILURES})")
    q.add_argument("--browser", choices=browser_names(), default=default_browser(), action=_Given,
                   help="; ".join(f"{name}: {browser_kind(name).description}" for name in browser_names())
                   + f" (default {default_browser()})")
    q.add_argument("--observation", metavar="KINDS", action=_Given,
                   help="what the agent observes besides the numbered elements, comma-separated: screenshot, "
                        "axtree (the page's stored accessibility tree, from `site capture`), text (default: the "
                        "browser's screenshot if it has one, and the page text)")
    q.add_argument("--references", help="folder of <task id>.json reference trajectories to store with the run, "
                   "for each task the project holds no reference of as it is now (what is stored or kept is said)")
    q.add_argument("--replace-tasks", action="store_true",
                   help="store tasks changed since earlier runs used them (those runs are then scored by the new)")
    q.add_argument("--base-url", help="another endpoint speaking Gemini's protocol")
    q.add_argument("--temperature", type=float, action=_Given, help="0 to 2 (default 1)")
    q.add_argument("--max-requests", type=int, help="stop after this many model requests")
    q.add_argument("--timeout-s", dest="timeout_s", type=float,
                   help="seconds to wait for one model answer before a retry (default 300)")
    # --- run integrity: independent seeded runs, and resuming an interrupted run ---
    q.add_argument("--seed", type=int, default=0, action=_Given,
                   help="seed of run 0; run r sends seed + r (recorded; default 0)")
    q.add_argument("--resume", type=int, metavar="RUN",
                   help="finish agent run RUN of the project: episodes done are kept, missing and cut ones run "
                        "(with the run's own settings and seeds: --runs, --memory, --step-budget, --max-failures, "
                        "--browser, --seed, --model, --temperature or --observation given otherwise is refused)")
    add_engine_arguments(q, unit="episode", budget=("--max-requests",))
    q.set_defaults(handler=cmd_agent_run)

    q = agent_sub.add_parser("eval", help="success per category over runs, steps, agreement with references")
    q.add_argument("--project", required=True, help="the project's folder")
    q.add_argument("--run", type=int, help="agent run id (default: the latest)")
    q.add_argument("--references", help="folder of <task id>.json references, compared with instead of the "
                   "project's (default: the project's); the tasks whose reference it gives are said, and warned of "
                   "where the project's differs")
    q.add_argument("--json", action="store_true", help="print the figures as JSON")
    q.add_argument("--chart", help="write a PNG chart here")
    q.add_argument("--include-incomplete", action="store_true",
                   help="count incomplete runs too (they are flagged either way; by default they are left out)")
    q.set_defaults(handler=cmd_agent_eval, only_reads=True)

    q = agent_sub.add_parser("tasks", help="check a tasks file; print the normalisation rules; generate, filter, "
                                           "review, export and report benchmark tasks")
    q.add_argument("--check", metavar="FILE", help="validate a tasks JSONL file (strictly: an empty category, an "
                                                   "answer that is not a string or a rule named twice is a mistake)")
    q.add_argument("--rules", action="store_true", help="print the answer normalisation rules")
    q.set_defaults(handler=cmd_agent_tasks)
    task_pipeline.register(q.add_subparsers(dest="tasks_command", metavar="SUBCOMMAND"))


def cmd_site_build(args: argparse.Namespace) -> int:
    site = build_site(args.folder)
    for message in site.warnings:
        print(f"warning: {message}", file=sys.stderr)
    print(f"{hint_path(site.root / 'site.json')}: {len(site.pages)} pages")
    for page in site.pages:
        print(f"  {page.url}  {page.file}")
    return 0


def cmd_agent_tasks(args: argparse.Namespace) -> int:
    if args.rules:
        print(RULES_TEXT, end="")
    if args.check:
        tasks = load_tasks(args.check, strict=True)
        categories: dict[str, int] = {}
        for task in tasks:
            categories[task.category or "(none)"] = categories.get(task.category or "(none)", 0) + 1
        print(f"{hint_path(args.check)}: {len(tasks)} tasks; "
              + ", ".join(f"{c} {n}" for c, n in sorted(categories.items())))
        clashes = clashing_categories(tasks)
        if clashes:  # a valid tasks file, but not seeds `agent tasks generate` can use: said before any request
            print(f"warning: {clash_said(clashes)}; `agent tasks generate` refuses these seeds", file=sys.stderr)
    if not args.rules and not args.check:
        raise RecordLensError("agent tasks needs --check FILE, --rules or a subcommand (generate, filter, review, "
                              "export, report)")
    return 0


def _run_settings(args: argparse.Namespace, site: Site) -> tuple[Memory, BrowserKind, tuple[str, ...] | None]:
    """The run's memory, browser kind and observations, read from the options; a wrong one is refused."""
    memory = parse_memory(args.memory)
    if args.engine != "local" and args.browser != "text":  # issue 16: QtWebEngine stays in the app's process
        raise AgentError(f"--engine {args.engine} runs core's HTML browser only: add --browser text")
    wrong = below_one({"--runs": args.runs, "--step-budget": args.step_budget})  # only what is wrong named
    if wrong:
        raise AgentError(wrong)
    if args.max_failures < 1:  # 0 would end every episode after its first step, a success included, as "failures"
        if args.resume is not None:  # a run stored before the option was checked: its own setting, not the user's
            raise AgentError(f"agent run {args.resume} records --max-failures {args.max_failures} (made before values "
                             "below 1 were refused: its episodes ended after their first step): start a new run")
        raise AgentError(f"--max-failures must be at least 1, as --runs and --step-budget must (got "
                         f"{args.max_failures}): it is how many failed steps in a row end an episode")
    kind = browser_kind(args.browser)
    return memory, kind, _observations(args.observation, kind.screenshots, site)


def cmd_agent_run(args: argparse.Namespace) -> int:
    from ..store.project import init_project, open_project
    from .extraction import gemini_caller

    # The engine options as extract, score and bench check them, before anything is made: a Ray-only option under
    # --engine local (whose episodes run here, without the engine) would be ignored without a word
    engine_options(args)
    site = load_site(args.site)
    in_file = load_tasks(args.tasks)
    tasks = _chosen_tasks(args, in_file)
    references = _run_references(args.references, in_file, args.tasks, site) if args.references else {}
    checked = None
    if args.resume is None:  # what the command line says is checked before the key is asked for (a resumed
        # run's own settings and tasks are read from the project, below)
        others = sorted({t.site for t in tasks if t.site and t.site not in (site.name, Path(args.site).name)})
        if others:
            named = [t.id for t in tasks if t.site in others]
            raise AgentError(f"task(s) {listed(named)} are for the site(s) {', '.join(map(repr, others))}, not "
                             f"{site.name!r}: give --site the folder they were written for")
        outside = [t.id for t in tasks if site.page(t.start_url) is None]
        if outside:
            raise AgentError(f"task(s) {', '.join(outside)} start on a page the site {site.name!r} does not hold "
                             "(`recordlens site build` lists its pages)")
        checked = _run_settings(args, site)
        key = required_api_key(args.base_url)  # before a project is made for a run that could not start
    digest = site_digest(site)  # the snapshot the run is made on (recorded; a resume is checked against it)
    folder = Path(args.project)
    if args.resume is not None and not (folder / "project.db").exists():  # nothing made for a run not there
        named = hint_path(args.project)
        raise AgentError(f"no agent run {args.resume} in {named} to resume: {named} is not a project")
    running = contextlib.ExitStack()  # the engine, and the run's lock from before its episodes are read: to the end
    # The engine started (Ray joined, or its local instance started) before anything is written, as extract starts
    # it: Ray missing, or out of reach, leaves no project made and no run without an end behind
    engine = running.enter_context(engine_for(args))
    project = browser = None
    try:
        project = open_project(folder) if (folder / "project.db").exists() else init_project(folder)
        resumed = _resumed_run(project, args, tasks) if args.resume is not None else None
        kept: dict[tuple[str, int], bool] = {}
        if resumed is not None:
            running.enter_context(_running_the_agent_run(folder, args.resume))
            tasks = [t for t in tasks if t.id in resumed["task_ids"]]
            _take_resumed_settings(args, resumed, digest, site)
            # Asked for once the run's own --base-url is known: the resume command a keyless endpoint's run prints
            # leaves --base-url out (the run records it), and such an endpoint needs no key.
            key = required_api_key(args.base_url)
            kept = _finished_episodes(project, args.resume)
            if {(t.id, r) for t in tasks for r in range(args.runs)} <= kept.keys():  # before a task is stored
                raise AgentError(f"agent run {args.resume} is complete: nothing to resume")
            _refuse_mixed_versions(project, args, resumed, tasks, kept, site)
        memory, kind, observations = checked or _run_settings(args, site)
        if resumed is not None:
            _refuse_other_rules(args, resumed, tasks, kept)
        caller = gemini_caller(args, json_output=False)
        settings = caller.settings
        browser = kind.factory(site)
        if resumed is not None:
            _check_viewport(resumed, browser, args.resume)
        seen = "/" + "+".join(observations) if observations is not None else ""
        agent = AgentSettings(memory=memory, step_budget=args.step_budget, max_failures=args.max_failures,
                              send_screenshot=kind.screenshots, observations=observations,
                              axtree_for=SiteTrees(site),
                              actor=f"agent:{settings.model}/{memory.name}/{args.browser}{seen}")
        site_id = project.agent.site_id(site.name, str(Path(args.site).resolve()))
        rows = _save_tasks(project, site_id, tasks, args)
        if references:  # read from --references
            _store_references(project, site.name, rows, references, hint_path(args.references))
        earlier: dict[str, object] = {}
        if resumed is not None:
            run_id = args.resume
            if args.replace_tasks:  # a replaced task's finished episodes were judged again: the closing line counts
                kept = _finished_episodes(project, run_id)  # them as agent eval does
            earlier = project.agent.run(run_id).cost
            project.agent.reopen_run(run_id)
        else:
            run_id = project.agent.add_run(settings.model, {
                "memory": memory.name, "runs": args.runs, "step_budget": args.step_budget, "browser": args.browser,
                "site": site.name, "site_folder": str(Path(args.site).resolve()), "site_digest": digest,
                "tasks": str(Path(args.tasks).resolve()), "max_failures": args.max_failures, **LOOP_RULES,
                "task_ids": [t.id for t in tasks], "task_digests": {t.id: task_digest(t) for t in tasks},
                "seed": args.seed,
                "seeds": [run_seed(args.seed, r) for r in range(args.runs)], "temperature": settings.temperature,
                "model": settings.model, "base_url": recorded_base_url(args.base_url, key),
                "observes": observes(kind.screenshots, observations),
                "observation": list(observations) if observations is not None else None,
                "viewport": rendered_viewport(browser)})
            running.enter_context(_running_the_agent_run(folder, run_id))

        spent = _SessionCost(caller, earlier)
        stored = _StoredAsTheyGo(project, rows, run_id, spent)

        def keep(trajectory: Trajectory) -> None:
            stored.finished(trajectory)
            # A cut episode (model budget, failing endpoint) says nothing about the agent: not "wrong".
            verdict = "cut" if trajectory.stop in CUT_STOPS else "ok" if trajectory.success else "wrong"
            print(f"run {trajectory.run} {trajectory.task_id}: {verdict} in {counted(len(trajectory.steps), 'step')} "
                  f"({trajectory.stop}); {_answer_said(trajectory.answer)}{_why(trajectory)}", file=sys.stderr)

        try:
            # --- engine dispatch (issue 16): one episode per unit of work, stored here as each arrives ---
            if args.engine != "local":
                done = run_agent_on_engine(
                    engine, tasks, site, kind.factory, caller, runs=args.runs, settings=agent,
                    on_trajectory=keep, seed=args.seed, done_already=lambda t, r: (t.id, r) in kept,
                    on_failure=lambda episode, reason: print(f"episode {episode} failed: {reason}", file=sys.stderr),
                    lost=spent.lost)
            else:  # each request and each answer written as it goes: a process killed (SIGKILL) keeps them
                with spent.written_as_the_budget_counts(project, run_id):
                    done = run_agent(tasks, lambda task: browser, caller, runs=args.runs, settings=agent,
                                     on_trajectory=keep, seed=args.seed, done_already=lambda t, r: (t.id, r) in kept,
                                     on_call=stored.so_far)
            # --- end engine dispatch ---
        except COMMAND_STOPS:  # Ctrl+C, SIGTERM, stdout gone (`| head`): the run stays without an end time
            # (incomplete): say how to finish it. The calls of the episode cut short were paid for too.
            spent.record(project, run_id)
            print(f"recordlens: agent run {run_id} interrupted; its finished episodes are kept: finish it with "
                  f"{_resume_command(args, run_id, key)}", file=sys.stderr)
            raise
        except ClusterLostError as error:  # the run stays without an end time, as interrupted: resumed later
            spent.record(project, run_id)  # the cost last written: the lost cluster kept the episodes in flight's
            print(f"recordlens: error: agent run {run_id} stopped: the Ray cluster at {error.address} was lost "
                  f"({error.stopped}); its finished episodes are kept (its recorded cost counts their model "
                  f"calls, not those of the episodes cut short): once the cluster is back, finish it with "
                  f"{_resume_command(args, run_id, key)}", file=sys.stderr)
            return error.exit_status
        except ModelEndpointError as error:
            project.agent.finish_run(run_id, spent.now(), error=str(error))
            print(f"recordlens: error: agent run {run_id} failed: {error}. Its finished episodes are kept; "
                  f"finish it with {_resume_command(args, run_id, key)}", file=sys.stderr)
            return 4
        project.agent.finish_run(run_id, spent.now())
    finally:
        if project is not None:
            project.close()
        close = getattr(browser, "close", None)
        if callable(close):
            close()
        running.close()
    cut = [t for t in done if t.stop in CUT_STOPS]
    score = f"recordlens agent eval {hint_option('--project', args.project)} --run {run_id}"
    print(shown_bytes(f"agent run {run_id}: {_succeeded(done, kept, len(tasks) * args.runs)}; score it with `{score}`"))
    if cut:
        print(f"recordlens: agent run {run_id} stopped early ({cut[-1].stop}); finish it with "
              f"{_resume_command(args, run_id, key)}", file=sys.stderr)
        return 3
    return 0


@contextlib.contextmanager
def _running_the_agent_run(project_dir: Path, run_id: int) -> Iterator[None]:
    """Hold agent run `run_id`'s lock (`owner_files`, in the project's hidden `.running/`, beside the marks of the
    extraction runs it carries out) while this process runs it, begun or resumed: two sessions of one run at once
    would each run, and pay for, its missing episodes, store them twice, and each write the run's cost as what it
    read before plus its own. The second is refused at once, naming who runs it. A lock whose holder was killed is
    taken over, and said; where none can be taken (a file system without locks), the run goes on, and that is said."""
    path = project_dir / RUNNING_MARKS / f"agent-run-{run_id}"
    try:
        path.parent.mkdir(exist_ok=True)
        lock = owner_files.take(path)
    except owner_files.Held as held:
        raise AgentError(f"agent run {run_id} of {hint_path(project_dir)} is being run by "
                         f"{owner_files.owner_named(held.owner)} right now ({hint_path(path)}): wait for it to end (or "
                         "stop it), then resume it if it did not finish; two sessions of one run at once would each "
                         "run, and pay for, its missing episodes and store them twice") from None
    except OSError as error:
        warn(f"the lock of agent run {run_id} cannot be taken ({error.strerror or error}): a second `agent run "
             f"--resume {run_id}` started while this one runs would not be refused")
        yield
        return
    for line in owner_files.taken_over(lock, f"a session of agent run {run_id} of {hint_path(project_dir)}"):
        warn(line)
    try:
        yield
    finally:
        owner_files.release(lock)


def _answer_said(answer: str | None) -> str:
    """An episode's answer as its line says it: quoted, or "no answer" when the episode gave none (not Python's
    None)."""
    return "no answer" if answer is None else f"answer {answer!r}"


def _why(trajectory: Trajectory) -> str:
    """Why an episode that did not succeed ended (`why_it_ended`), after its line; nothing for a success, or for a
    wrong answer given with no failed step (the line says it all)."""
    if trajectory.success or (trajectory.stop == "answer" and not any(s.failed for s in trajectory.steps)):
        return ""
    return f" — {why_it_ended(trajectory, bool(trajectory.success))}"


def _succeeded(done: list[Trajectory], kept: dict[tuple[str, int], bool], planned: int) -> str:
    """How many scored episodes of the whole run succeeded, as `agent eval` counts them: a cut episode is not
    scored, and the line says how many were cut and how many of the `planned` were not run; a resumed run counts
    the episodes it kept too (and says how many run now), so that its line does not read as its resumed part's."""
    scored = [t for t in done if t.stop not in CUT_STOPS]
    now = sum(bool(t.success) for t in scored)
    cut, not_run = len(done) - len(scored), planned - len(kept) - len(done)
    total = len(scored) + len(kept)
    whole = f"{now + sum(kept.values())} of {total} {'scored ' if cut or not_run else ''}" \
            f"{'episode' if total == 1 else 'episodes'} succeeded"
    notes = [f"{cut} cut"] * bool(cut) + [f"{not_run} not run"] * bool(not_run > 0)
    if kept:
        notes.append(f"{sum(bool(t.success) for t in scored)} of {len(scored)} run now")
    return f"{whole} ({', '.join(notes)})" if notes else whole


# A run's cost's keys (and each session's) for the model requests, among its requests, paid for on episodes whose
# Ray worker died (their answers lost with it): a session's by episode (`LostWithWorkers.as_dict`), the run's their
# sum, when there were some, and the episodes whose count is unknown, when there were some
LOST_REQUESTS, LOST_UNKNOWN, LOST_WITH_WORKERS = "lost_requests", "lost_unknown", "lost_with_workers"


def _run_cost(earlier: dict[str, object], requests: int, tokens: int, lost: LostWithWorkers | None = None, *,
              uncounted: int = 0) -> dict[str, object]:
    """A run's cost: this session's model requests and tokens added to what the run had cost before (a resumed
    run), with each session's own in `sessions`, so that the stored figures cover the whole run. `uncounted`: of
    the session's requests, those whose tokens are unknown (`UNCOUNTED`, as an extraction keeps them: an answer
    without token counts, one given up, a request whose answer was not read yet), kept apart from its tokens,
    never as 0, and summed into the run's, when there were some. The requests of `lost` (paid for on episodes whose
    Ray worker died, among `requests`: the shared budget counted them) are said apart, by episode, in the session's,
    and counted in the run's (`LOST_REQUESTS`, when there were some), with the episodes whose count could not be had
    (`LOST_UNKNOWN`)."""
    sessions = earlier.get("sessions")
    if not isinstance(sessions, list):  # a run stored before sessions were kept: its one figure is its first
        sessions = [{"requests": earlier.get("requests", 0), "tokens": earlier.get("tokens", 0)}] \
            if "requests" in earlier or "tokens" in earlier else []
    sessions = [*sessions, {"requests": requests, "tokens": tokens, **({UNCOUNTED: uncounted} if uncounted else {}),
                            **({LOST_WITH_WORKERS: lost.as_dict()} if lost else {})}]
    unknown = sum(answers_without_counts(s) for s in sessions)
    cost: dict[str, object] = {"requests": sum(int(s.get("requests") or 0) for s in sessions),
                               "tokens": sum(int(s.get("tokens") or 0) for s in sessions),
                               **({UNCOUNTED: unknown} if unknown else {}), "sessions": sessions}
    lost_all = LostWithWorkers.summed(LostWithWorkers.from_dict(s[LOST_WITH_WORKERS]) for s in sessions
                                      if isinstance(s.get(LOST_WITH_WORKERS), dict))
    if lost_all.total:
        cost[LOST_REQUESTS] = lost_all.total
    if lost_all.unknown:
        cost[LOST_UNKNOWN] = lost_all.unknown
    return cost


class _SessionCost:
    """This session's model calls, as the run's stored cost counts them (`_run_cost`): the last reading of the
    budget that counts them (its requests, tokens, and answers whose tokens are unknown), held with that budget
    (`_take`). A local run's budget is the caller's own, which has the cost written each time its counts change
    (`written_as_the_budget_counts`), with the request whose answer is awaited then; a Ray run's is one every worker
    shares, read once per episode stored (one question), which the engine swaps in for the run and the caller's own
    back after it. A budget that cannot be read (its Ray actor is gone) is said once, and the figures last read are
    kept."""

    def __init__(self, caller: object, earlier: dict[str, object]) -> None:
        self._caller, self._earlier = caller, earlier
        self.lost = LostWithWorkers()  # told by the engine as its workers die (`run_agent_on_engine`)
        self._counts = (0, 0, 0)
        self._awaited = 0  # a request sent whose answer is not read yet, as the budget told it last
        self._read_of: object | None = None  # the budget `_counts` are a reading of
        self._unreadable = False
        self._written: dict[str, object] | None = None

    def now(self) -> dict[str, object]:
        self._read()
        requests, tokens, uncounted = self._counts
        return _run_cost(self._earlier, requests, tokens, self.lost, uncounted=uncounted + self._awaited)

    def record(self, project, run_id: int) -> None:  # noqa: ANN001 - a Project
        """Store the run's cost, when it differs from what was stored last."""
        cost = self.now()
        if cost != self._written:
            project.agent.record_cost(run_id, cost)
            self._written = cost

    @contextlib.contextmanager
    def written_as_the_budget_counts(self, project, run_id: int) -> Iterator[None]:  # noqa: ANN001 - a Project
        """Within it, the run's cost stored each time the caller's budget counts (`spending_told`): each request
        before it is sent, as awaited, since it is paid for once sent and a process killed (SIGKILL) while it waits
        for the answer can write nothing after: its tokens unknown, not 0 (SIGTERM and Ctrl+C write the cost on
        their way out, that request so counted); again without it when it is given back unsent (its connection
        refused: neither sent nor paid for); each answer's tokens as they are counted, before anything else is done
        with the answer; and an attempt answered with an error (a 429, a 5xx), no longer awaited."""
        def told(spent: Spent) -> None:
            self._awaited = spent.awaited
            self.record(project, run_id)

        with spending_told(self._caller.budget, told, attempts=self._caller):  # type: ignore[attr-defined]
            yield

    def _read(self) -> None:
        if self._unreadable:  # a budget's actor does not come back: not asked again
            return
        budget = self._caller.budget  # type: ignore[attr-defined]
        try:
            counts = budget.counts()
        except EngineError as error:
            self._unreadable = True
            requests, tokens, _ = self._counts
            warn(f"{error}; the run's recorded cost stays at the figures last read ({counted(requests, 'request')} "
                 f"and {tokens:,} tokens this session)")
            return
        # a shared budget's counts hold its answers without token counts; a run's own budget keeps them beside
        uncounted = counts[2] if len(counts) > 2 else getattr(budget, "uncounted", 0)
        self._take(budget, (int(counts[0]), int(counts[1]), int(uncounted)))

    def _take(self, budget: object, counts: tuple[int, int, int]) -> None:
        """A reading of the budget the figures were read of is taken as it is (a request given back lowers it); one
        of another budget only when it holds as much, figure by figure. The other budget is the caller's own after a
        Ray run: it holds the shared budget's counts copied back, or, when they could not be had (a lost cluster),
        those from before the run, which would write over the cost stored as the episodes went."""
        if budget is self._read_of or all(now >= held for now, held in zip(counts, self._counts, strict=True)):
            self._counts, self._read_of = counts, budget


class _StoredAsTheyGo:
    """The run's episodes, stored as they go: the one in flight after each of its model calls (cut, as
    `loop.stopped_now` hands it), with the run's cost, so that a process killed (SIGKILL) keeps every answer it read
    and its raw call; then the finished episode in the place of what was stored of it. A resume runs an episode
    stored cut again and keeps both (`_finished_episodes`): both were paid for, and the cost counts both."""

    def __init__(self, project, rows: dict[str, int], run_id: int,  # noqa: ANN001 - a Project
                 spent: _SessionCost) -> None:
        self._project, self._rows, self._run_id, self._spent = project, rows, run_id, spent
        self._in_flight: int | None = None  # the row of the episode in flight, once one of its calls is stored

    def so_far(self, trajectory: Trajectory) -> None:
        self._in_flight = self._store(trajectory)

    def finished(self, trajectory: Trajectory) -> None:
        self._store(trajectory)
        self._in_flight = None

    def _store(self, trajectory: Trajectory) -> int:
        row = self._project.agent.add_trajectory(self._rows[trajectory.task_id], trajectory,
                                                 agent_run_id=self._run_id, replacing=self._in_flight)
        self._spent.record(self._project, self._run_id)
        return row


def _resume_command(args: argparse.Namespace, run_id: int, key: str) -> str:
    """The command that finishes the run, with the options it needs again, as given now (the run records its
    settings, seeds and base URL, which a resume takes from it, but not a --base-url's key)."""
    command = _agent_run_resumed(args.project, args.site, args.tasks, run_id)
    if args.base_url and KEY_MARK in (recorded_base_url(args.base_url, key) or ""):
        return f"`{command} --base-url URL` (the --base-url given now: the run does not record its key)"
    return f"`{command}`"


def _agent_run_resumed(project: object, site: object, tasks: object, run_id: int) -> str:
    """`recordlens agent run --project P --site S --tasks T --resume N`, each value quoted for the shell."""
    return " ".join(["recordlens agent run", hint_option("--project", project), hint_option("--site", site),
                     hint_option("--tasks", tasks), f"--resume {run_id}"])


def _eval_finish_command(project: str, run_id: int, parameters: Mapping[str, object]) -> tuple[str, str | None]:
    """The command `agent eval` hands out to finish a run, and a note on a placeholder it holds: the project
    evaluated, and the site folder and tasks file the run recorded (SITE, TASKS to fill in for a run that recorded
    none, or whose tasks file is not found); a --base-url holding a key, which the run does not record, as URL."""
    tasks, note = _recorded_tasks_file(parameters, project)
    command = _agent_run_resumed(project, parameters.get("site_folder") or "SITE", tasks, run_id)
    base_url = parameters.get("base_url")
    return (f"{command} --base-url URL" if isinstance(base_url, str) and KEY_MARK in base_url else command), note


def _recorded_tasks_file(parameters: Mapping[str, object], project: str) -> tuple[str, str | None]:
    """The tasks file a run recorded, by its whole path (TASKS: none recorded, or not found, with a note saying
    why). A run begun before RecordLens recorded the whole path holds the path as given to `agent run`, relative to
    the folder that command was run in, which the run does not record: that folder is looked for where a run is
    likely begun, and a file there taken only if it holds the run's tasks (not another file of the same name)."""
    recorded = parameters.get("tasks")
    if not recorded:
        return "TASKS", None
    path = Path(str(recorded))
    if path.is_absolute():
        return str(path), None
    files = [folder / path for folder in _folders_runs_are_begun_in(parameters, project)]
    # One holding the run's tasks as it ran them first; else one holding them changed since (the resume says so)
    found = next((f for f in files if _holds_the_runs_tasks(f, parameters, as_run=True)),
                 next((f for f in files if _holds_the_runs_tasks(f, parameters, as_run=False)), None))
    if found is not None:
        return str(found.resolve()), None  # as a run records it now
    return "TASKS", (f"TASKS: the run recorded its tasks file as {hint_path(path)}, relative to the folder it was "
                     "begun in, which runs made before RecordLens recorded whole paths do not record; no file of that "
                     "name holding the run's tasks is in this folder, the project's or the site folder's, or a "
                     "folder above them")


def _folders_runs_are_begun_in(parameters: Mapping[str, object], project: str) -> list[Path]:
    """Where an older run was likely begun, most likely first: the folder this command runs in; the project's folder
    and those above it, and the site folder's (`agent run` was given them relative to that folder, or below it)."""
    places = [Path.cwd(), *_with_parents(Path(project).resolve())]
    site_folder = parameters.get("site_folder")  # a whole path: recorded so since runs recorded their site folder
    if isinstance(site_folder, str):
        places += _with_parents(Path(site_folder))
    return list(dict.fromkeys(places))


def _with_parents(folder: Path) -> list[Path]:
    return [folder, *folder.parents]


def _holds_the_runs_tasks(path: Path, parameters: Mapping[str, object], *, as_run: bool) -> bool:
    """Whether `path` is a tasks file holding every task the run recorded, `as_run` as the run ran it too (its
    digest, where it recorded one: a file that finishes the run as it began)."""
    try:
        held = {task.id: task for task in load_tasks(path)}
    except AgentError:  # no such file, or not one of tasks
        return False
    task_ids, digests = parameters.get("task_ids"), parameters.get("task_digests")
    recorded = digests if isinstance(digests, dict) and as_run else {}
    return isinstance(task_ids, list) and all(
        task_id in held and recorded.get(task_id) in (None, task_digest(held[task_id])) for task_id in task_ids)


def _chosen_tasks(args: argparse.Namespace, tasks: list) -> list:  # noqa: ANN001 - Tasks
    """The tasks file's tasks that --task names (all without it), each with a start URL."""
    if args.task:
        unknown = sorted(set(args.task) - {t.id for t in tasks})
        if unknown:
            raise AgentError(f"no task {', '.join(unknown)} in {args.tasks}")
        tasks = [t for t in tasks if t.id in set(args.task)]
    missing = [t.id for t in tasks if not t.start_url]
    if missing:
        raise AgentError(f"task(s) {', '.join(missing)} have no start_url")
    return tasks


def _run_references(folder: str, tasks: list[Task], tasks_file: str, site: Site) -> dict[str, Trajectory]:
    """--references read before any work (a mistyped folder is refused, not ignored); a reference for a task the
    tasks file does not hold is named, since it would never be stored or compared. Each is stored with its passwords
    masked (`_passwords_masked`)."""
    found = reference_files(Path(folder))
    held = {t.id for t in tasks}
    strays = [hint_path(path) for task_id, (path, _) in found.items() if task_id not in held]
    if strays:
        warn(f"{counted(len(strays), 'reference')} for a task id {hint_path(tasks_file)} does not hold, not used: "
             f"{listed(strays)}")
    fields = PasswordFields(site)
    return {t.id: _passwords_masked(found[t.id][0], _with_screenshots(*found[t.id]), fields)
            for t in tasks if t.id in found}  # in the tasks file's order


def _passwords_masked(path: Path, trajectory: Trajectory, fields: PasswordFields) -> Trajectory:
    """A reference file recorded before passwords were masked holds a password typed in clear: masked before it is
    stored, as the recorder masks one, and said; a Type whose field cannot be told on the snapshot is stored as typed,
    and said with how to have it masked (references.masked_reference)."""
    found = masked_reference(trajectory, fields)
    if found.masked:
        warn(f"{hint_path(path)}: {_steps_said(found.masked)} typed a password in clear into a password field "
             "(recorded before passwords were masked): stored masked, a bullet for each character, as a recording "
             "keeps it; the file itself still holds it in clear")
    if found.unknown:
        warn(f"{hint_path(path)}: whether {_steps_said(found.unknown)} typed into a password field cannot be told "
             "(the site does not hold its page, or its saved page lacks the field): stored as typed. A reference "
             "recorded before passwords were masked may hold a password in clear: record it again (the app's Agent → "
             "Agent benchmarks…, ● Record, then Save trajectory…) to have it masked")
    return found.trajectory


def _steps_said(numbers: list[int]) -> str:
    """"the Type of step 2", "the Types of steps 2, 5"."""
    one = len(numbers) == 1
    return f"the Type{'' if one else 's'} of step{'' if one else 's'} {listed([str(n) for n in numbers], total=True)}"


# The folder of PNGs beside a trajectory file, `NAME.screenshots/HASH.png`, as the agent window saves one
# (annotator/agent/window.py: save_trajectory_file)
SCREENSHOTS_SUFFIX = ".screenshots"


def _with_screenshots(path: Path, trajectory: Trajectory) -> Trajectory:
    """The reference read from `path` with the screenshots its steps name from the folder beside it, so that the
    project stores them with its steps. A PNG whose content is not its name's hash is left out, and said: stored,
    a step would show another picture than the one it names."""
    folder = path.with_name(path.stem + SCREENSHOTS_SUFFIX)
    named = {h for s in trajectory.steps for h in (s.screenshot_before, s.screenshot_after) if h}
    if not folder.is_dir() or not named:
        return trajectory
    wrong = []
    for digest in sorted(named):
        png = folder / f"{digest}.png"
        if not png.is_file():
            continue
        data = png.read_bytes()
        if hashlib.sha256(data).hexdigest() == digest:
            trajectory.screenshots[digest] = data
        else:
            wrong.append(png.name)
    if wrong:
        warn(f"{hint_path(folder)}: {counted(len(wrong), 'screenshot')} whose content is not the hash in its name, not "
             f"stored: {listed(wrong)}")
    return trajectory


def _check_viewport(settings: dict[str, object], browser: object, run_id: int) -> None:
    """A run is resumed at the size its pages were laid out at: boxes, screenshots and what is in view change with
    it (runs made before 1920x1080 became the agent's view were laid out at 1280x800)."""
    now = rendered_viewport(browser)
    recorded = settings.get("viewport")
    if now is None:
        return
    if recorded is None:
        warn(f"agent run {run_id} does not record the size its pages were laid out at (made by an older "
             f"RecordLens, perhaps at 1280x800); its remaining episodes are laid out at {now[0]}x{now[1]}")
    elif list(recorded) != now:  # type: ignore[call-overload]
        raise AgentError(f"agent run {run_id} was laid out at {recorded[0]}x{recorded[1]}, this browser at "  # type: ignore[index]
                         f"{now[0]}x{now[1]}: episodes of one run are laid out alike; start a new run")


def _resumed_base_url(given: str | None, settings: dict[str, object], key: str | None, run_id: int) -> str | None:
    """The endpoint a resumed run goes on: the run's own. Left out, it is taken from the run; another one is
    refused, since the rest of the run would quietly come from another model server."""
    if "base_url" not in settings:  # a run made before base URLs were recorded: nothing to check against
        return given
    recorded = settings["base_url"]
    if given is None:
        if isinstance(recorded, str) and KEY_MARK in recorded:
            raise AgentError(f"agent run {run_id} was made on a --base-url holding a key, which is not recorded "
                             f"({recorded}): give that --base-url again to resume it")
        return str(recorded) if recorded is not None else None
    if recorded_base_url(given, key) != recorded:
        made_on = f"--base-url {recorded}" if recorded is not None else "Google's endpoint (no --base-url)"
        raise AgentError(f"agent run {run_id} was made on {made_on}, not --base-url "
                         f"{recorded_base_url(given, key)}: a run's episodes come from one endpoint; leave "
                         "--base-url out to resume it on the run's own")
    return given


def _take_resumed_settings(args: argparse.Namespace, resumed: dict[str, object], digest: str, site: Site) -> None:
    """A resumed run goes on with its own settings, seeds and endpoint, on the snapshot it was made on. Read before
    the key is asked for: the endpoint taken from the run may need none."""
    _check_snapshot(resumed, digest, args, site)
    args.base_url = _resumed_base_url(args.base_url, resumed, api_key_from_environment(), args.resume)
    _refuse_other_settings(args, resumed)
    for name in KEPT_ON_RESUME:
        if name in resumed:
            setattr(args, name, resumed[name])
    if isinstance(args.observation, list):  # stored as a list, read as --observation's text
        args.observation = ",".join(args.observation)


def _refuse_other_settings(args: argparse.Namespace, settings: dict[str, object]) -> None:
    """A resumed run goes on with its own settings and seeds (one run, one setting): an option given with --resume
    that differs from the run's is refused, each named with what the run keeps, before any request; one given the
    same as the run's is no conflict. (A setting the run does not record, made by an older RecordLens, is taken from
    the command line as before.)"""
    given = getattr(args, "given", set())
    differing = [f"--{name.replace('_', '-')} {_setting_text(name, getattr(args, name))} (the run keeps "
                 f"{_setting_text(name, settings[name])})"
                 for name in KEPT_ON_RESUME if name in given and name in settings
                 and _setting(name, getattr(args, name)) != _setting(name, settings[name])]
    if differing:
        one = len(differing) == 1
        raise AgentError(f"agent run {args.resume} is resumed with its own settings and seeds, and "
                         f"{'this option differs' if one else 'these options differ'} from them: "
                         f"{'; '.join(differing)}. Leave {'it' if one else 'them'} out to finish run {args.resume} "
                         f"as it began, or start a new run with {'it' if one else 'them'} (`agent run` without "
                         "--resume)")


def _setting(name: str, value: object) -> object:
    """A setting as it is compared: --memory as its name (window:3), --observation as its kinds, numbers as numbers."""
    if value is None:
        return None
    if name == "memory":
        return parse_memory(str(value)).name
    if name == "observation":
        kinds = value if isinstance(value, list) else str(value).split(",")
        return tuple(dict.fromkeys(str(k).strip().lower() for k in kinds if str(k).strip()))
    if name == "temperature":
        return float(value)  # type: ignore[arg-type]
    return value


def _setting_text(name: str, value: object) -> str:
    if value is None:  # not set when the run began
        return "the browser's default (no --observation)" if name == "observation" else "the model's default"
    setting = _setting(name, value)
    return ",".join(setting) if isinstance(setting, tuple) else str(setting)  # type: ignore[arg-type]


def _check_snapshot(settings: dict[str, object], digest: str, args: argparse.Namespace, site: Site) -> None:
    """A run is resumed on the snapshot it was made on: episodes on changed pages would not be one benchmark."""
    recorded = settings.get("site_digest")
    if recorded is None:
        warn(f"agent run {args.resume} does not record the digest of its snapshot (made by an older RecordLens): "
             f"{hint_path(args.site)} cannot be checked against it")
        return
    if recorded != digest:
        made_in = site_folder_said(settings)
        made_on = str(settings.get("site") or site.name)
        # The run's site and the folder given, each named as what it is: a folder holding a site of another name is
        # not "another snapshot" of the run's site (the name given would be taken for the run's)
        same = made_on == site.name
        was = f"another snapshot of the site {made_on!r}" if same else f"the site {made_on!r}"
        holds = "different contents" if same else f"the site {site.name!r}"
        raise AgentError(f"agent run {args.resume} was made on {was} ({made_in}, digest {short(str(recorded))}); "
                         f"{hint_path(args.site)} holds {holds} (digest {short(digest)}): resume it on the snapshot it "
                         "was made on, or start a new run")


def _observations(text: str | None, screenshots: bool, site) -> tuple[str, ...] | None:  # noqa: ANN001 - a Site
    """--observation read and checked against what the browser and the site can give."""
    if text is None:
        return None
    kinds = tuple(dict.fromkeys(k.strip().lower() for k in text.split(",") if k.strip()))
    unknown = [k for k in kinds if k not in OBSERVATIONS]
    if unknown or not kinds:
        raise AgentError(f"--observation {text!r}: choose from {', '.join(OBSERVATIONS)} (comma-separated)")
    if "screenshot" in kinds and not screenshots:
        raise AgentError("--observation screenshot needs a browser with screenshots (--browser qt)")
    if "axtree" in kinds:
        trees = SiteTrees(site)
        if not trees.count():
            raise AgentError(f"--observation axtree: the site {site.name} has no stored accessibility tree; capture "
                             "it with `recordlens site capture`")
        for url, why in trees.unreadable():  # said once per page, before the run: its prompts there show none
            warn(f"--observation axtree: {url}: {why}, so the agent is shown no tree on that page (its prompt says "
                 "none is stored); run the same `site capture` again to capture it again")
    return kinds


def _resumed_run(project, args: argparse.Namespace, tasks) -> dict[str, object]:  # noqa: ANN001
    """The settings of the run to resume (its own, so that the finished run is one run), checked."""
    try:
        run = project.agent.run(args.resume)
    except StoreError:
        raise AgentError(f"no agent run {args.resume} in {hint_path(args.project)} to resume") from None
    settings = dict(run.parameters)
    task_ids = settings.get("task_ids")
    if not isinstance(task_ids, list):
        raise AgentError(f"agent run {args.resume} does not record its tasks (made by an older RecordLens); "
                         "it cannot be resumed")
    missing = sorted(set(task_ids) - {t.id for t in tasks})
    if missing:
        raise AgentError(f"agent run {args.resume} ran task(s) {', '.join(missing)}, not in {hint_path(args.tasks)}")
    settings["task_ids"] = task_ids
    return settings


def _refuse_mixed_versions(project, args: argparse.Namespace, settings: dict[str, object], tasks: list,  # noqa: ANN001
                           kept: dict[tuple[str, int], bool], site: Site) -> None:
    """A resumed run runs its tasks as it began them: a task changed since (another digest than the run recorded)
    with episodes left to run would have its finished episodes on one version and the rest on another, one run
    measuring two questions; the run's record would still name the first. Refused, before any task is stored or
    any request made; a changed task whose episodes are all finished runs nothing more, and is allowed (`agent eval`
    names it, as after any --replace-tasks)."""
    run_id = args.resume
    recorded = settings.get("task_digests")
    if not isinstance(recorded, dict):  # a run made before digests were recorded: its tasks are the project's
        recorded = {t.id: task_digest(t) for t in project.agent.tasks(site=site.name)}
    left = {t.id: sum((t.id, r) not in kept for r in range(args.runs)) for t in tasks}
    mixed = [task_id for task_id in changed_tasks(tasks, recorded) if left[task_id]]
    if not mixed:
        return
    stored = {t.id: task_digest(t) for t in project.agent.tasks(site=site.name)}
    replaced = [task_id for task_id in mixed if task_id in stored and stored[task_id] != recorded.get(task_id)]
    finish = (f"the project's copy of {listed(replaced)} was replaced since (--replace-tasks): finishing run {run_id} "
              "as it began would replace it back and re-score the runs made since" if replaced else
              f"or finish run {run_id} as it began: --resume with a tasks file holding them as they were")
    raise AgentError(f"agent run {run_id} began task(s) {listed(mixed)} as they were then, and "
                     f"{hint_path(args.tasks)} holds them changed: resuming it would run the "
                     f"{counted(sum(left[t] for t in mixed), 'episode')} left of them on the new version beside those "
                     "finished on the old (one run, two versions of a task). Start a new run for the tasks as they "
                     "are now (`agent run` without --resume, with the run's settings; "
                     f"--seed {settings.get('seed', 0)} sends the same seeds); {finish}")


def _refuse_other_rules(args: argparse.Namespace, settings: dict[str, object], tasks: list,
                        kept: dict[tuple[str, int], bool]) -> None:
    """A resumed run goes on under the rules of the agent's loop it began under: a run made before a rule came
    (its settings lack the rule's key, `LOOP_RULES`) would run the episodes left under it beside those finished
    without it, one run measuring two prompts or two ways of naming elements, while its record named none. Refused,
    naming the rules, before any task is stored or any request made; a new run with the run's seed is the way on."""
    predates = [name for name, value in LOOP_RULES.items() if settings.get(name) != value]
    if not predates:
        return
    planned = [(t.id, r) for t in tasks for r in range(args.runs)]
    finished = sum(episode in kept for episode in planned)
    one = len(predates) == 1
    them = "it" if one else "them"
    raise AgentError(f"agent run {args.resume} was made before {'this rule' if one else 'these rules'} of the "
                     f"agent's loop, which its settings do not record: {', '.join(predates)} (the README's agent "
                     "section says what each does). Resuming it would run the "
                     f"{counted(len(planned) - finished, 'episode')} left under {them} beside the "
                     f"{counted(finished, 'episode')} finished without {them} (one run, two sets of rules). Start a "
                     "new run (`agent run` without --resume, with the run's settings; "
                     f"--seed {settings.get('seed', 0)} sends the same seeds)")


def _save_tasks(project, site_id: int, tasks: list, args: argparse.Namespace) -> dict[str, int]:  # noqa: ANN001
    """Store the run's tasks (task id -> row). A task changed since agent runs were scored on it is refused without
    --replace-tasks (`AgentData.save_task`): every such task is named in one refusal, as `agent tasks --check` names
    every bad line, so that the tasks file is not mended one task per attempt; the others are stored by then, and
    the refusal says so."""
    rows: dict[str, int] = {}
    refused: list[ChangedTaskError] = []
    for task in tasks:
        try:
            rows[task.id] = project.agent.save_task(site_id, task, replace=args.replace_tasks)
        except ChangedTaskError as error:
            refused.append(error)
    if not refused:
        return rows
    if rows:
        one = len(rows) == 1
        done = (f"no episode was run; the run's other {'task' if one else 'tasks'}, {listed(list(rows))}, "
                f"{'is' if one else 'are'} stored in the project as {args.tasks} gives {'it' if one else 'them'}")
    else:
        done = "no episode was run, and no task stored"
    if len(refused) == 1:
        raise AgentError(f"{refused[0]} ({done})")
    raise AgentError(f"{len(refused)} tasks of {hint_path(args.tasks)} differ from the ones agent runs were scored on "
                     f"({done}):"
                     "\n  " + "\n  ".join(error.changed for error in refused) + f"\n{ChangedTaskError.advice}")


def _finished_episodes(project, run_id: int) -> dict[tuple[str, int], bool]:  # noqa: ANN001
    """(task, run index) -> success of the run's episodes that count (`latest_episodes`: the last uncut one); a
    cut episode is run again, and kept with its model calls (they were made and paid for): `agent eval` counts
    the episode run after it."""
    episodes = latest_episodes([t for _, t in project.agent.trajectories(agent_run_id=run_id)])
    return {(t.task_id, t.run or 0): bool(t.success) for t in episodes if t.stop not in CUT_STOPS}


def _store_references(project, site: str, rows: dict[str, int],  # noqa: ANN001 - a Project
                      references: dict[str, Trajectory], origin: str = "the references folder") -> None:
    """Store each task's reference (read by _run_references from `origin`) unless the project already has one for it
    on this site that counts (a task id is a site's own: site A's reference of t1 is not site B's). The one that
    counts is `choose_references`' (as agent eval, the tasks report and the viewer take it): the newest of the task
    as it is now that ends with an answer. A file's reference without an answer never counts: it is not stored
    (else each run would store one more copy), and said. A task whose references are all of an earlier version, or
    recorded without an answer, takes the file's; each case is said, so that a file's reference left out is never a
    surprise. One with the very path of the one that counts (the folder given again) is already there: said in a
    quiet line, only one that differs is warned of. A file's reference of a task the run does not run (--task chose
    others) is not stored either (the run stores no such task), and said."""
    if not references:
        return
    versions = project.agent.recorded_versions()
    held = [Reference(t, versions[row], row) for row, t in project.agent.trajectories(reference=True, site=site)]
    choice = choose_references(project.agent.tasks(site=site), held)
    had = {r.task_id for r in held}
    fresh, replacing, unanswered, kept, already, no_answer = [], [], [], [], [], []
    for task_id, row in rows.items():
        if task_id not in references:
            continue
        if not ends_with_answer(references[task_id]):  # never counts: stored, it would be one more copy each run
            no_answer.append(task_id)
            continue
        if task_id in choice.counting:
            (already if same_path(choice.counting[task_id].trajectory, references[task_id]) else kept).append(task_id)
            continue
        project.agent.add_trajectory(row, references[task_id])
        (fresh if task_id not in had else unanswered if task_id in choice.unanswered else replacing).append(task_id)
    if fresh:
        print(f"stored {counted(len(fresh), 'reference')} from {origin}: {listed(fresh, total=True)}", file=sys.stderr)
    if replacing:
        one = len(replacing) == 1
        print(f"stored the reference{'' if one else 's'} of {listed(replacing, total=True)} from {origin} for the "
              f"task{'' if one else 's'} as {'it is' if one else 'they are'} now: the project's reference"
              f"{'' if one else 's'} of {'it was' if one else 'them were'} recorded for an earlier version of the "
              f"task{'' if one else 's'} (changed since), and {'is' if one else 'are'} no longer used",
              file=sys.stderr)
    if unanswered:
        one = len(unanswered) == 1
        print(f"stored the reference{'' if one else 's'} of {listed(unanswered, total=True)} from {origin}: the "
              f"project's reference{'' if one else 's'} of {'it was' if one else 'them were'} recorded without an "
              f"answer (kept, not used)", file=sys.stderr)
    if already:
        print(f"the project already holds the reference{'' if len(already) == 1 else 's'} of "
              f"{listed(already, total=True)} in {origin}", file=sys.stderr)
    if no_answer:
        one = len(no_answer) == 1
        warn(f"the reference{'' if one else 's'} of {listed(no_answer, total=True)} in {origin} "
             f"{'is' if one else 'are'} not stored: {'it ends' if one else 'they end'} without an answer (stopped "
             "before ANSWER), and a reference without one never counts; record "
             f"{'it' if one else 'them'} to the answer to store {'it' if one else 'them'}")
    not_run = [task_id for task_id in references if task_id not in rows]
    if not_run:  # the file's other tasks (--task chose some, or the run resumed holds fewer): not stored, said
        one = len(not_run) == 1
        print(f"the reference{'' if one else 's'} of {listed(not_run, total=True)} in {origin} {'is' if one else 'are'}"
              f" not stored: {'its task is' if one else 'their tasks are'} not in this run (a run of "
              f"{'it' if one else 'them'} with --references stores {'it' if one else 'them'})", file=sys.stderr)
    if kept:
        one = len(kept) == 1
        warn(f"the reference{'' if one else 's'} of {listed(kept, total=True)} in {origin} "
             f"{'is' if one else 'are'} not stored: the project holds one of {'the' if one else 'each'} task as it "
             "is now, the one agent eval compares with (`agent eval --references` compares with the file's instead; "
             "deleting the project's, Agent → Open stored trajectory… in the app, lets the next run store the "
             "file's)")


def cmd_agent_eval(args: argparse.Namespace) -> int:
    from ..store.project import open_project

    if args.chart:
        writable_file(args.chart, "a chart", replaces=is_chart)

    with open_project(args.project) as project:
        runs = project.agent.runs()
        if not runs:
            raise AgentError(f"the project {hint_path(args.project)} has no agent run yet; start one with "
                             "`recordlens agent run`")
        run_id = args.run if args.run is not None else runs[-1].id
        if run_id not in {r.id for r in runs}:
            raise AgentError(f"no agent run {run_id} in the project (runs: {', '.join(str(r.id) for r in runs)})")
        run = project.agent.run(run_id)
        stored = project.agent.trajectories(agent_run_id=run_id)
        episodes = [t for _, t in stored]
        # The run's own site's tasks and references: a task id on two sites is two tasks. A run stored without its
        # site (an older RecordLens) is scored by the sites of its episodes' tasks, each episode by its own's.
        site = run.parameters.get("site")
        site = str(site) if site is not None else None
        on_sites = None if site is not None else _episode_sites(project, run_id, [row for row, _ in stored])
        tasks = project.agent.tasks(site=site)
        # Every reference with the task version it was recorded for and its site, oldest first: `evaluate` takes
        # the one that counts (`choose_references`, as the tasks report and the app do).
        versions = project.agent.recorded_versions()
        references = [Reference(t, versions[row], row, site=of) for of in sorted({t.site for t in tasks})
                      for row, t in project.agent.trajectories(reference=True, site=of)]
        references.sort(key=lambda r: r.row or 0)
    files = [Reference(t) for t in read_references(Path(args.references)).values()] if args.references else []
    # a file's reference is its task's newest (it counts over the project's); its version is not known
    from_files = file_references(_run_tasks(tasks, run, episodes, on_sites), references, files)
    references += files
    task_ids = run.parameters.get("task_ids")
    runs_planned = run.parameters.get("runs")
    digests = run.parameters.get("task_digests")
    ended = run.ended_at is not None and run.status != "failed"
    # Only a run not finished is told how to finish it: its tasks file is looked for then, not for every run
    finish, finish_note = _eval_finish_command(args.project, run_id, run.parameters) if not ended else (None, None)
    plan = RunPlan(task_ids=tuple(task_ids) if isinstance(task_ids, list) else None,
                   runs=int(runs_planned) if isinstance(runs_planned, int) else None,
                   ended=ended, run_id=run_id,
                   error=(run.error or "no reason recorded") if run.status == "failed" else None,
                   task_digests=digests if isinstance(digests, dict) else None,
                   finish_command=finish, finish_note=finish_note)
    result = evaluate(tasks, episodes, references, plan=plan, include_incomplete=args.include_incomplete,
                      sites=on_sites)
    scored_on = [site] if site is not None else sorted(set(on_sites or ()))
    other_snapshots = _other_snapshots(runs, run)
    if other_snapshots:
        result.warnings.append(other_snapshots)
    taken_said = _file_references_said(from_files, args.references, tasks)
    if taken_said.over:
        result.warnings.append(taken_said.over)
    if taken_said.taken:
        print(taken_said.taken, file=sys.stderr)
    for message in result.warnings:
        print(f"warning: {message}", file=sys.stderr)
    if args.chart:
        write_chart(result, args.chart)
        print(f"wrote {hint_path(args.chart)}", file=sys.stderr)
    if args.json:
        snapshot = {k: run.parameters.get(k) for k in ("site", "site_folder", "site_digest")}
        print_json({"run": run_id, "snapshot": snapshot, "sites": scored_on, "cost": _cost_figures(run.cost),
                    **result.as_dict(), "file_references": taken_said.taken_names,
                    "file_references_over_project": taken_said.over_names})
    else:
        # the site named: the task ids of the table and of the warnings above are that site's own
        on_site = f" on site{'s' if len(scored_on) > 1 else ''} {', '.join(scored_on)}" if scored_on else ""
        if scored_on and site is None:
            on_site += " (the sites of its episodes' tasks: the run recorded none)" if len(scored_on) > 1 else \
                " (the site of its episodes' tasks: the run recorded none)"
        print(f"agent run {run_id}{on_site}: {counted(result.overall.episodes, 'episode')} over "
              f"{counted(result.overall.runs, 'run')}"
              + ("" if result.complete else f" (INCOMPLETE: {_incomplete_summary(result, run.status)})"))
        print(_cost_line(run.cost))
        print(format_table(result))
        for line in format_endings(result):
            print(line)
    return 0


def _run_tasks(tasks: Sequence[Task], run, episodes: Sequence[Trajectory],  # noqa: ANN001 - an AgentRun
               on_sites: Sequence[str] | None) -> list[Task]:
    """The tasks `agent eval` scores a run by: its own (the ids it records, else its episodes'), of its episodes'
    sites when it recorded none (`on_sites`)."""
    task_ids = run.parameters.get("task_ids")
    ids = set(task_ids) if isinstance(task_ids, list) else {t.task_id for t in episodes}
    return [t for t in tasks if t.id in ids and (on_sites is None or t.site in on_sites)]


@dataclass
class _FileReferencesSaid:
    taken: str | None = None  # said on stderr: the tasks compared with a file's reference, the project holding none
    over: str | None = None   # a warning: those compared with a file's instead of the project's, which differs
    taken_names: list[str] = field(default_factory=list)  # every task compared with a file's reference
    over_names: list[str] = field(default_factory=list)


def _file_references_said(found: FileReferences, folder: str | None, tasks: Sequence[Task]) -> _FileReferencesSaid:
    """What `agent eval --references` says of the references it took from the folder, as `agent run --references`
    says what it stores and leaves out: a file's reference is compared with instead of the project's (it is the
    newest), and one that differs from the project's is warned of, since agreement then differs from the run's
    figures without --references."""
    sites = {t.site for t in tasks}

    def names(of: Sequence[Task]) -> list[str]:
        return named_tasks([(t.site, t.id) for t in of], sites)

    said = _FileReferencesSaid(taken_names=names(found.taken), over_names=names(found.over_project))
    fresh = names(found.project_has_none)  # a file's identical to the project's is not said: nothing changes
    if said.over_names:
        one = len(said.over_names) == 1
        said.over = (f"the reference{'' if one else 's'} of {listed(said.over_names, total=True)} in "
                     f"{hint_path(folder)} differ{'s' if one else ''} from the project's: agreement is measured "
                     f"against the file{'' if one else 's'} here, not against the project's reference"
                     f"{'' if one else 's'} (which agent eval compares with without --references)")
    if fresh:
        one = len(fresh) == 1
        said.taken = (f"agreement of {listed(fresh, total=True)} is measured against the reference"
                      f"{'' if one else 's'} in {hint_path(folder)} (the project holds none of "
                      f"{'the task' if one else 'them'} as {'it is' if one else 'they are'} now)")
    return said


def _episode_sites(project, run_id: int, rows: Sequence[int]) -> list[str]:  # noqa: ANN001 - a Project
    """The site of each of a run's episodes (by row id, in `rows`' order): its task's in the project, which a run
    stored without its site (an older RecordLens) leaves to be worked out."""
    site_of = project.agent.trajectory_sites(run_id)
    return [site_of[row] for row in rows]


def _cost_figures(cost: dict[str, object]) -> dict[str, object]:
    """The model requests and tokens a run has cost (all its sessions; None: not recorded, an older run), its
    requests whose tokens are unknown, where some were (`UNCOUNTED`: not in its tokens), and of the requests those
    lost with Ray workers that died, where some were (`LOST_REQUESTS`; a run stored with a 0 there says none), and
    the episodes whose lost count is unknown, where some were (`LOST_UNKNOWN`)."""
    lost = {key: cost[key] for key in (UNCOUNTED, LOST_REQUESTS, LOST_UNKNOWN) if cost.get(key)}
    return {"requests": cost.get("requests"), "tokens": cost.get("tokens"), "sessions": len(cost.get("sessions") or
                                                                                          ([cost] if cost else [])),
            **lost}


def _cost_line(cost: dict[str, object]) -> str:
    figures = _cost_figures(cost)
    if figures["requests"] is None:
        return "cost: not recorded (a run stored by an older RecordLens, or one stopped before its first episode)"
    sessions = int(figures["sessions"])  # type: ignore[call-overload]
    requests, tokens = int(figures["requests"]), int(figures["tokens"] or 0)  # type: ignore[call-overload]
    # its answers whose tokens are unknown said beside the tokens counted, as an extraction's are
    said = tokens_said({"total": tokens, UNCOUNTED: answers_without_counts(figures)})
    return (f"cost: {counted(requests, 'model request')}{_lost_said(figures)}{said}"
            + (f" (over {sessions} sessions: resumed)" if sessions > 1 else ""))


def _lost_said(figures: dict[str, object]) -> str:
    """The requests lost with Ray workers that died, as the cost line says them after the requests: how many, and
    on how many episodes their count is unknown; "" when none were lost."""
    lost = int(figures.get(LOST_REQUESTS) or 0)  # type: ignore[call-overload]
    unknown = len(figures.get(LOST_UNKNOWN) or ())  # type: ignore[arg-type]
    if lost and unknown:
        which = f"{lost} of them, and an unknown number on {counted(unknown, 'episode')},"
    elif lost:
        which = f"{lost} of them"
    elif unknown:
        which = f"an unknown number of them, on {counted(unknown, 'episode')},"
    else:
        return ""
    return f" ({which} paid for on episodes whose Ray worker died, their answers lost with it)"


def site_folder_said(parameters: Mapping[str, object]) -> str:
    """The site folder an agent run recorded it was made on (`site_folder`), as a hint names a path."""
    folder = parameters.get("site_folder")
    return hint_path(folder) if folder else "folder not recorded"


def _other_snapshots(runs, run) -> str | None:  # noqa: ANN001 - AgentRuns
    """Said when other runs on the run's site were made on another snapshot of it (its pages changed, re-captured
    under the same name): their figures are not those of the same benchmark."""
    site, digest = run.parameters.get("site"), run.parameters.get("site_digest")
    if digest is None:
        return None
    others = {r.id: str(r.parameters["site_digest"]) for r in runs
              if r.id != run.id and r.parameters.get("site") == site and r.parameters.get("site_digest") not in
              (None, digest)}
    if not others:
        return None
    named = listed([f"{i} (digest {short(d)})" for i, d in others.items()], sep="; ")
    return (f"agent run(s) {named} were made on another snapshot of the site {site!r} than run {run.id} (digest "
            f"{short(str(digest))}, {site_folder_said(run.parameters)}): their figures are not comparable with "
            "this run's")


def _incomplete_summary(result, status: str) -> str:  # noqa: ANN001 - an Evaluation
    parts = []
    if status == "failed":
        parts.append("the run failed")
    elif not result.ended:
        parts.append("no end time")
    if result.incomplete:
        parts.append(f"{runs_named(list(result.incomplete))} incomplete"
                     + ("" if result.included_incomplete else ", left out"))
    return "; ".join(parts)
