"""Web-agent benchmarks on snapshot sites: the data model, the action grammar, targets, sites, tasks, the agent
loop and its memory, the browsers it drives, evaluation, and the demo site.

    from recordlens.core.agent import load_site, load_tasks, run_agent
"""

from .actions import ACTIONS, SCROLL_DIRECTIONS, ActionParseError, Step, format_action, parse_action
from .browsers import register_browser
from .model import ANSWER_KINDS, NORMALISE_RULES, Browser, ModelCall, Observation, Task, Trajectory
from .site_files import existing_site_file, free_site_file, site_file_name
from .sites import INDEX_FILE, Site, SiteError, build_site, load_site, normalise_url, not_in_snapshot_html
from .targets import Target, TargetNotFoundError, find_target, targets_match
from .tasks import TaskFileError, load_tasks, save_tasks, task_from_line

__all__ = [
    "ACTIONS", "ANSWER_KINDS", "INDEX_FILE", "NORMALISE_RULES", "SCROLL_DIRECTIONS", "ActionParseError", "Browser",
    "ModelCall", "Observation", "Site", "SiteError", "Step", "Target", "TargetNotFoundError", "Task", "TaskFileError",
    "Trajectory", "build_site", "existing_site_file", "find_target", "format_action", "free_site_file", "load_site",
    "load_tasks", "normalise_url", "not_in_snapshot_html", "parse_action", "register_browser", "save_tasks",
    "site_file_name", "targets_match", "task_from_line",
]
