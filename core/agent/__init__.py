"""Web-agent benchmarks on snapshot sites: the data model, the action grammar, targets, sites, tasks, the agent
loop and its memory, the browsers it drives, evaluation, and the demo site.

    from recordlens.core.agent import load_site, load_tasks, run_agent
"""

from .actions import ACTIONS, SCROLL_DIRECTIONS, ActionParseError, Step, format_action, parse_action
from .axtree import SiteTrees, format_axtree, read_tree
from .browsers import register_browser
from .candidates import STATUS_LABELS, STATUSES, Candidate, SiteText, load_candidates, save_candidates
from .capture import (
    CAPTURE_VIEWPORT,
    CaptureError,
    CaptureRules,
    CaptureSummary,
    PageFailed,
    RenderedPage,
    capture_site,
    register_capture_runner,
)
from .model import ANSWER_KINDS, NORMALISE_RULES, Browser, ModelCall, Observation, Task, Trajectory
from .sites import INDEX_FILE, Site, SiteError, build_site, load_site, normalise_url, not_in_snapshot_html
from .targets import Target, TargetNotFoundError, find_target, targets_match
from .tasks import TaskFileError, load_tasks, save_tasks, task_from_line

__all__ = [
    "CaptureError",
    "Candidate", "STATUSES", "STATUS_LABELS", "SiteText", "load_candidates", "save_candidates",
    "SiteTrees", "format_axtree", "read_tree",
    "ACTIONS", "ANSWER_KINDS", "ActionParseError", "Browser", "CAPTURE_VIEWPORT", "CaptureRules", "CaptureSummary",
    "INDEX_FILE", "ModelCall", "NORMALISE_RULES", "Observation", "PageFailed", "RenderedPage", "SCROLL_DIRECTIONS",
    "Site", "SiteError", "Step", "Target", "TargetNotFoundError", "Task", "TaskFileError", "Trajectory", "build_site",
    "capture_site", "find_target", "format_action", "load_site", "load_tasks", "normalise_url",
    "not_in_snapshot_html", "parse_action", "register_browser", "register_capture_runner", "save_tasks",
    "targets_match", "task_from_line",
]
