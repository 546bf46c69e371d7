"""`recordlens site ...` and `recordlens agent ...`: snapshot sites, task files, agent runs and their scores.

`agent run` drives one of the browsers of core/agent/browsers.py: QtWebEngine (`qt`, added by the app's
`recordlens` command and imported only when a run uses it) by default, or core's HTML browser (`text`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..agent.axtree import SiteTrees
from ..agent.browsers import browser_kind, browser_names, default_browser
from ..agent.engine_runs import run_agent_on_engine
from ..agent.evaluate import evaluate, format_table, write_chart
from ..agent.loop import DEFAULT_MAX_FAILURES, DEFAULT_STEP_BUDGET, OBSERVATIONS, AgentSettings, run_agent
from ..agent.memory import parse_memory
from ..agent.model import Trajectory
from ..agent.sites import build_site, load_site
from ..agent.tasks import RULES_TEXT, load_tasks
from ..errors import AgentError, RecordLensError
from . import capture as capture_cli
from . import task_pipeline
from .engine_options import add_engine_arguments, engine_for


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("site", help="snapshot sites for web-agent benchmarks")
    site_sub = p.add_subparsers(dest="site_command", metavar="SUBCOMMAND", required=True)
    q = site_sub.add_parser("build", help="index a folder of saved pages by URL (writes DIR/site.json)")
    q.add_argument("folder", metavar="DIR")
    q.set_defaults(handler=cmd_site_build)
    capture_cli.register(site_sub)

    p = sub.add_parser("agent", help="run web agents on a snapshot site and score them")
    agent_sub = p.add_subparsers(dest="agent_command", metavar="SUBCOMMAND", required=True)

    q = agent_sub.add_parser("run", help="run an LLM agent on tasks, several times, storing every step",
                             description="Run the agent on every task RUNS times on the snapshot site; every "
                                         "step, screenshot and raw model call is stored in the project.")
    q.add_argument("--project", required=True, help="project folder (created if it does not exist)")
    q.add_argument("--site", required=True, help="snapshot site folder")
    q.add_argument("--tasks", required=True, help="tasks JSONL file")
    q.add_argument("--task", action="append", help="run only this task id (repeatable)")
    q.add_argument("--model", default=None, help="Gemini model (default gemini-2.5-pro)")
    q.add_argument("--runs", type=int, default=3)
    q.add_argument("--memory", default="window:3", help="window:N (last N steps) or dynamic[:K]")
    q.add_argument("--step-budget", type=int, default=DEFAULT_STEP_BUDGET)
    q.add_argument("--max-failures", type=int, default=DEFAULT_MAX_FAILURES,
                   help="failed steps in a row that end an episode")
    q.add_argument("--browser", choices=browser_names(), default=default_browser(),
                   help="; ".join(f"{name}: {browser_kind(name).description}" for name in browser_names()))
    q.add_argument("--observation", metavar="KINDS",
                   help="what the agent observes besides the numbered elements, comma-separated: screenshot, "
                        "axtree (the page's stored accessibility tree, from `site capture`), text (default: the "
                        "browser's screenshot if it has one, and the page text)")
    q.add_argument("--references", help="folder of <task id>.json reference trajectories to store with the run")
    q.add_argument("--base-url", help="another endpoint speaking Gemini's protocol")
    q.add_argument("--temperature", type=float)
    q.add_argument("--max-requests", type=int, help="stop after this many model requests")
    add_engine_arguments(q, unit="episode")
    q.set_defaults(handler=cmd_agent_run)

    q = agent_sub.add_parser("eval", help="success per category over runs, steps, agreement with references")
    q.add_argument("--project", required=True)
    q.add_argument("--run", type=int, help="agent run id (default: the latest)")
    q.add_argument("--references", help="folder of <task id>.json references (default: the project's)")
    q.add_argument("--json", action="store_true")
    q.add_argument("--chart", help="write a PNG chart here")
    q.set_defaults(handler=cmd_agent_eval)

    q = agent_sub.add_parser("tasks", help="check a tasks file; print the normalisation rules; generate, filter, "
                                           "review and report benchmark tasks")
    q.add_argument("--check", metavar="FILE", help="validate a tasks JSONL file")
    q.add_argument("--rules", action="store_true", help="print the answer normalisation rules")
    q.set_defaults(handler=cmd_agent_tasks)
    task_pipeline.register(q.add_subparsers(dest="tasks_command", metavar="SUBCOMMAND"))


def cmd_site_build(args: argparse.Namespace) -> int:
    site = build_site(args.folder)
    for message in site.warnings:
        print(f"warning: {message}", file=sys.stderr)
    print(f"{site.root / 'site.json'}: {len(site.pages)} pages")
    for page in site.pages:
        print(f"  {page.url}  {page.file}")
    return 0


def cmd_agent_tasks(args: argparse.Namespace) -> int:
    if args.rules:
        print(RULES_TEXT, end="")
    if args.check:
        tasks = load_tasks(args.check)
        categories: dict[str, int] = {}
        for task in tasks:
            categories[task.category or "(none)"] = categories.get(task.category or "(none)", 0) + 1
        print(f"{args.check}: {len(tasks)} tasks; " + ", ".join(f"{c} {n}" for c, n in sorted(categories.items())))
    if not args.rules and not args.check:
        raise RecordLensError("agent tasks needs --check FILE, --rules or a subcommand (generate, filter, review, "
                              "export, report)")
    return 0


def cmd_agent_run(args: argparse.Namespace) -> int:
    from ..llm.gemini import Budget, CallSettings, GeminiCaller
    from ..store.project import init_project, open_project

    site = load_site(args.site)
    tasks = load_tasks(args.tasks)
    if args.task:
        unknown = sorted(set(args.task) - {t.id for t in tasks})
        if unknown:
            raise AgentError(f"no task {', '.join(unknown)} in {args.tasks}")
        tasks = [t for t in tasks if t.id in set(args.task)]
    missing = [t.id for t in tasks if not t.start_url]
    if missing:
        raise AgentError(f"task(s) {', '.join(missing)} have no start_url")
    memory = parse_memory(args.memory)
    if args.engine != "local" and args.browser != "text":  # issue 16: QtWebEngine stays in the app's process
        raise AgentError(f"--engine {args.engine} runs core's HTML browser only: add --browser text")
    if args.runs < 1 or args.step_budget < 1:
        raise AgentError("--runs and --step-budget must be at least 1")
    settings = CallSettings(json_output=False, base_url=args.base_url)
    if args.model:
        settings.model = args.model
    if args.temperature is not None:
        settings.temperature = args.temperature
    caller = GeminiCaller(settings, budget=Budget(max_requests=args.max_requests))
    kind = browser_kind(args.browser)
    observations = _observations(args.observation, kind.screenshots, site)
    browser = kind.factory(site)
    seen = "+".join(observations) if observations is not None else ""
    agent = AgentSettings(memory=memory, step_budget=args.step_budget, max_failures=args.max_failures,
                          send_screenshot=kind.screenshots, observations=observations, axtree_for=SiteTrees(site),
                          actor=f"agent:{settings.model}/{memory.name}/{args.browser}" + (f"/{seen}" if seen else ""))
    folder = Path(args.project)
    project = open_project(folder) if (folder / "project.db").exists() else init_project(folder)
    try:
        site_id = project.agent.site_id(site.name, str(Path(args.site).resolve()))
        rows = {t.id: project.agent.save_task(site_id, t) for t in tasks}
        if args.references:
            _store_references(project, rows, Path(args.references))
        run_id = project.agent.add_run(settings.model, {
            "memory": memory.name, "runs": args.runs, "step_budget": args.step_budget, "browser": args.browser,
            "site": site.name, "tasks": str(args.tasks), "max_failures": args.max_failures,
            "observation": list(observations) if observations is not None else None})

        def keep(trajectory: Trajectory) -> None:
            project.agent.add_trajectory(rows[trajectory.task_id], trajectory, agent_run_id=run_id)
            verdict = "ok" if trajectory.success else "wrong"
            print(f"run {trajectory.run} {trajectory.task_id}: {verdict} in {len(trajectory.steps)} steps "
                  f"({trajectory.stop}); answer {trajectory.answer!r}", file=sys.stderr)

        # --- engine dispatch (issue 16): one episode per unit of work, stored here as each arrives ---
        if args.engine != "local":
            with engine_for(args) as engine:
                done = run_agent_on_engine(
                    engine, tasks, site, kind.factory, caller, runs=args.runs, settings=agent, on_trajectory=keep,
                    on_failure=lambda episode, reason: print(f"episode {episode} failed: {reason}", file=sys.stderr))
        else:
            done = run_agent(tasks, lambda task: browser, caller, runs=args.runs, settings=agent,
                             on_trajectory=keep)
        # --- end engine dispatch ---
        project.agent.finish_run(run_id, {"requests": caller.budget.requests, "tokens": caller.budget.tokens})
    finally:
        project.close()
        close = getattr(browser, "close", None)
        if callable(close):
            close()
    succeeded = sum(bool(t.success) for t in done)
    print(f"agent run {run_id}: {succeeded} of {len(done)} episodes succeeded; "
          f"score it with `recordlens agent eval --project {args.project} --run {run_id}`")
    return 0


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
    if "axtree" in kinds and not SiteTrees(site).count():
        raise AgentError(f"--observation axtree: the site {site.name} has no stored accessibility tree; capture it "
                         "with `recordlens site capture`")
    return kinds


def _store_references(project, rows: dict[str, int], folder: Path) -> None:  # noqa: ANN001 - a Project
    """Store each task's reference from the folder unless the project already has one for it."""
    have = {t.task_id for _, t in project.agent.trajectories(reference=True)}
    for task_id, row in rows.items():
        path = folder / f"{task_id}.json"
        if task_id in have or not path.is_file():
            continue
        project.agent.add_trajectory(row, Trajectory.from_json(path.read_text(encoding="utf-8"), source=str(path)))


def read_references(folder: Path) -> dict[str, Trajectory]:
    if not folder.is_dir():
        raise AgentError(f"no references folder at {folder}")
    references = {}
    for path in sorted(folder.glob("*.json")):
        trajectory = Trajectory.from_json(path.read_text(encoding="utf-8"), source=str(path))
        references[trajectory.task_id] = trajectory
    return references


def cmd_agent_eval(args: argparse.Namespace) -> int:
    from ..store.project import open_project

    with open_project(args.project) as project:
        runs = project.agent.runs()
        if not runs:
            raise AgentError(f"the project {args.project} has no agent run yet; start one with `recordlens agent run`")
        run_id = args.run if args.run is not None else runs[-1].id
        if run_id not in {r.id for r in runs}:
            raise AgentError(f"no agent run {run_id} in the project (runs: {', '.join(str(r.id) for r in runs)})")
        episodes = [t for _, t in project.agent.trajectories(agent_run_id=run_id)]
        tasks = project.agent.tasks()
        references = {t.task_id: t for _, t in project.agent.trajectories(reference=True)}
    if args.references:
        references.update(read_references(Path(args.references)))
    result = evaluate(tasks, episodes, references)
    for message in result.warnings:
        print(f"warning: {message}", file=sys.stderr)
    if args.chart:
        write_chart(result, args.chart)
        print(f"wrote {args.chart}", file=sys.stderr)
    if args.json:
        print(json.dumps({"run": run_id, **result.as_dict()}, ensure_ascii=False, indent=2))
    else:
        print(f"agent run {run_id}: {result.overall.episodes} episodes over {result.overall.runs} run(s)")
        print(format_table(result))
    return 0
