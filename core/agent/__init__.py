"""Web-agent benchmarks on snapshot sites: the data model, the action grammar, targets, sites, tasks, the agent
loop and its memory, the browsers it drives, evaluation, and the demo site.

    from recordlens.core.agent import load_site, load_tasks, run_agent
"""

from .actions import (
    ACTIONS,
    SCROLL_DIRECTIONS,
    ActionParseError,
    Step,
    format_action,
    masked_password,
    parse_action,
    said_action,
    shows_as_password,
)
from .answers import NORMALISE_RULES
from .axtree import SiteTrees, format_axtree, read_tree
from .browsers import register_browser
from .candidates import (
    STATUS_LABELS,
    STATUSES,
    Candidate,
    SiteText,
    load_candidates,
    refuse_shipped,
    save_candidates,
    writing_candidates,
)
from .capture import (
    CAPTURE_SOME_FAILED,
    CAPTURE_VIEWPORT,
    MAX_PAGE_MIB,
    PAGE_TIMEOUT_S,
    CaptureError,
    CaptureInterrupted,
    CaptureRules,
    CaptureSummary,
    PageFailed,
    RedirectCheck,
    RenderedPage,
    capture_site,
    off_the_web,
    register_capture_runner,
)
from .evaluate import latest_episodes
from .hidden_fields import as_served_live
from .loop import CUT_STOPS
from .model import ANSWER_KINDS, Browser, ModelCall, Observation, Task, Trajectory
from .references import Reference, ReferenceChoice, choose_references, ends_with_answer
from .site_files import existing_site_file, free_site_file, site_file_name
from .sites import (
    INDEX_FILE,
    NOT_IN_SNAPSHOT_TITLE,
    Site,
    SiteError,
    build_site,
    load_site,
    loose_url,
    normalise_url,
    not_in_snapshot_html,
)
from .targets import NotATextFieldError, Target, TargetNotFoundError, find_target, targets_match
from .tasks import TaskFileError, load_tasks, save_tasks, task_from_line
from .text_browser import INERT_SCHEMES

__all__ = [
    "ACTIONS", "ANSWER_KINDS", "CAPTURE_SOME_FAILED", "CAPTURE_VIEWPORT", "CUT_STOPS", "INDEX_FILE", "INERT_SCHEMES",
    "NORMALISE_RULES", "NOT_IN_SNAPSHOT_TITLE", "PAGE_TIMEOUT_S", "MAX_PAGE_MIB", "SCROLL_DIRECTIONS", "STATUSES",
    "STATUS_LABELS", "ActionParseError", "Browser", "Candidate", "CaptureError", "CaptureInterrupted", "CaptureRules",
    "CaptureSummary",
    "ModelCall", "NotATextFieldError", "Observation", "PageFailed", "RedirectCheck", "Reference", "ReferenceChoice",
    "RenderedPage", "Site",
    "SiteError", "SiteText",
    "SiteTrees", "Step",
    "Target", "TargetNotFoundError", "Task", "TaskFileError", "Trajectory", "as_served_live",
    "build_site", "capture_site",
    "choose_references", "ends_with_answer", "existing_site_file", "find_target", "format_action", "format_axtree",
    "free_site_file", "latest_episodes",
    "load_candidates", "load_site", "load_tasks", "loose_url", "masked_password", "normalise_url", "off_the_web",
    "not_in_snapshot_html", "parse_action",
    "read_tree", "refuse_shipped",
    "register_browser", "register_capture_runner", "said_action", "save_candidates", "save_tasks", "shows_as_password",
    "site_file_name", "targets_match",
    "task_from_line", "writing_candidates",
]
