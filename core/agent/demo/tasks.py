"""The 12 demo tasks on the demo site (two of each kind WebArxiv uses) and their reference trajectories.

A reference is written as a short path over what a person sees (click the link "Machine Learning", type
"graph" into "Search papers", answer) and played on the Qt-free browser, which records each step with every
identity of its target (XPath, text, role, name, label) and its page URL: what the app's recorder records.
`write_demo_resources` regenerates `resources/agent/` byte for byte (a test checks the shipped files), into a folder
of its own: RecordLens writes nothing inside the files it ships, so the result is copied there by hand.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from ...errors import AgentError
from ...resource_files import is_shipped, never_changed
from ..actions import Step
from ..model import Task, Trajectory
from ..sites import build_site
from ..tasks import save_tasks
from ..text_browser import HtmlSiteBrowser
from .site import HOME, write_demo_site

SITE_NAME = "demo-site"
NAME_RULES = ("case", "punctuation", "whitespace")
NUMBER_RULES = ("case", "numbers", "units", "punctuation", "whitespace")
REFERENCE_ACTOR = "person:recordlens-demo"


def _task(ident: str, category: str, instruction: str, answer: str, kind: str, rules: tuple[str, ...]) -> Task:
    return Task(id=ident, category=category, instruction=instruction, answer=answer, answer_kind=kind,
                normalise=rules, start_url=HOME, site=SITE_NAME)


DEMO_TASKS = (
    _task("lookup-1", "lookup", "Who is the first author of the paper \"Sparse Lattice Attention for Long "
          "Documents\"?", "Ilse Marrow", "name", NAME_RULES),
    _task("lookup-2", "lookup", "How many pages does paper 2402.00088 have, according to its comments?", "12",
          "number", NUMBER_RULES),
    _task("rules-1", "rules", "According to Paperfield's submission rules, how many characters may an abstract "
          "have at most?", "1920", "number", NUMBER_RULES),
    _task("rules-2", "rules", "According to Paperfield's submission rules, what is the limit on the total size of "
          "the files of one submission?", "50 MB", "number", NUMBER_RULES),
    _task("retrieval-1", "retrieval", "What is the title of the most recent paper in the Computer Vision "
          "category?", "Tiled Diffusion for Satellite Mosaics", "title", NAME_RULES),
    _task("retrieval-2", "retrieval", "What is the title of the last paper on page 2 of the Machine Learning "
          "listing?", "On the Stability of Optimiser Warm Restarts", "title", NAME_RULES),
    _task("filtered-1", "filtered search", "Search Paperfield for \"graph\" and keep only the Machine Learning "
          "results. How many papers are left?", "2", "number", NUMBER_RULES),
    _task("filtered-2", "filtered search", "Search Paperfield for \"speech\" and keep only the results from 2024. "
          "What is the identifier of the paper that is left?", "2402.00031", "text", ("whitespace",)),
    _task("extraction-1", "content extraction", "Search Paperfield for \"lattice\". What accuracy does the paper "
          "you find report on LongDocQA, according to its abstract?", "91.4%", "number", NUMBER_RULES),
    _task("extraction-2", "content extraction", "What is the name of the corpus introduced by paper 2311.00457?",
          "HarbourLog-7k", "name", NAME_RULES),
    _task("comparison-1", "comparison", "Search Paperfield for \"graph\". Of \"Graph Message Passing with Learned "
          "Halting\" and \"Graph Coarsening for Fast Spectral Clustering\", which paper has more pages? Give its "
          "title.", "Graph Message Passing with Learned Halting", "title", NAME_RULES),
    _task("comparison-2", "comparison", "Search Paperfield for \"ostrava\". Which of Mirela Ostrava's papers was "
          "submitted first? Give its identifier.", "2311.00390", "text", ("whitespace",)),
)

# What a person does, by what they see: ("click", link or button text), ("type", field name, text),
# ("go_back",), ("scroll", "down"), ("answer", text).
REFERENCE_PATHS: dict[str, list[tuple[str, ...]]] = {
    "lookup-1": [("click", "Computation and Language"), ("click", "Sparse Lattice Attention for Long Documents"),
                 ("answer", "Ilse Marrow")],
    "lookup-2": [("click", "Machine Learning"), ("click", "Calibrated Ensembles for Tabular Drift"),
                 ("answer", "12")],
    "rules-1": [("click", "About"), ("answer", "1,920")],
    "rules-2": [("click", "About"), ("answer", "50 MB")],
    "retrieval-1": [("click", "Computer Vision"), ("answer", "Tiled Diffusion for Satellite Mosaics")],
    # Page 2 fits the agent's 1920x1080 view: a Scroll there moves nothing, and an agent's is a failed step (the
    # loop's rule), so a reference holding one could never be repeated step for step.
    "retrieval-2": [("click", "Machine Learning"), ("click", "Next page"),
                    ("answer", "On the Stability of Optimiser Warm Restarts")],
    "filtered-1": [("type", "Search papers", "graph"), ("click", "Machine Learning (2)"), ("answer", "2")],
    "filtered-2": [("type", "Search papers", "speech"), ("click", "2024 (1)"), ("answer", "2402.00031")],
    "extraction-1": [("type", "Search papers", "lattice"), ("click", "Sparse Lattice Attention for Long Documents"),
                     ("answer", "91.4%")],
    "extraction-2": [("click", "Computation and Language"), ("click", "A Corpus of Annotated Harbour Logs"),
                     ("answer", "HarbourLog-7k")],
    "comparison-1": [("type", "Search papers", "graph"), ("click", "Graph Message Passing with Learned Halting"),
                     ("go_back",), ("click", "Graph Coarsening for Fast Spectral Clustering"),
                     ("answer", "Graph Message Passing with Learned Halting")],
    "comparison-2": [("type", "Search papers", "ostrava"), ("answer", "2311.00390")],
}


def record_path(browser: HtmlSiteBrowser, task: Task, path: list[tuple[str, ...]]) -> Trajectory:
    """Play a path on the browser and record it as a person's trajectory with full target identities. A Scroll or
    GoBack that moves nothing is refused: the recorder does not record one, and an agent's is a failed step, so a
    reference holding one could not be repeated (an agent copying it would agree less than 1.0)."""
    browser.open(task.start_url)
    steps: list[Step] = []
    for move in path:
        observation = browser.observe()
        kind = move[0]
        if kind in ("click", "type"):
            wanted = move[1]
            field = "text" if kind == "click" else "name"
            target = next((e for e in observation.elements if getattr(e, field) == wanted), None)
            if target is None:
                raise AgentError(f"task {task.id}: no element with {field} {wanted!r} on {observation.url}")
            step = Step(kind, target, move[2] if kind == "type" else None)
        elif kind in ("answer", "scroll"):
            step = Step(kind, None, move[1])
        else:
            step = Step(kind)
        browser.perform(step)
        if kind in ("scroll", "go_back") and browser.observe().moved_since(observation) is False:
            raise AgentError(f"task {task.id}: {kind.replace('_', ' ')} on {observation.url} moves nothing (the page "
                             "fits the view, or is at its end): an agent could not repeat it")
        steps.append(replace(step, url=observation.url))
    answer = steps[-1].value if steps and steps[-1].action == "answer" else None
    return Trajectory(task_id=task.id, actor=REFERENCE_ACTOR, steps=steps, answer=answer)


def write_demo_resources(folder: str | Path) -> None:
    """Write `folder/demo-site/` (pages and site.json), `folder/demo-tasks.jsonl` and
    `folder/reference/<task id>.json`; refused, before anything is written, inside the files RecordLens ships."""
    root = Path(folder)
    if is_shipped(root):  # as `build_site` refuses to index it: refused here before the pages are written
        raise AgentError(f"{never_changed(root)}: write the demo into another folder and copy it there")
    write_demo_site(root / SITE_NAME)
    site = build_site(root / SITE_NAME)
    save_tasks(root / "demo-tasks.jsonl", DEMO_TASKS)
    (root / "reference").mkdir(exist_ok=True)
    browser = HtmlSiteBrowser(site)
    for task in DEMO_TASKS:
        trajectory = record_path(browser, task, REFERENCE_PATHS[task.id])
        (root / "reference" / f"{task.id}.json").write_text(trajectory.to_json(), encoding="utf-8")
