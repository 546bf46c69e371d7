"""The project database: one entry point, `Project`, with pages, labels and their history, runs and agent data.

    from recordlens.core.store import Project, Provenance, open_project
    project = open_project("work/shop")
"""

from .adjudication import Adjudication, Kept, disagreement, is_merge
from .agreement import classed_only_theirs, label_set, project_agreement
from .as_shown import ChangedElsewhere, judge_as_shown, mark_as_shown
from .db import Provenance, StoreError, database_problem
from .exporter import FORMATS as EXPORT_FORMATS
from .exporter import ExportSummary, export_project
from .files import content_hash
from .import_marks import stopped_imports_said
from .importer import (
    ImportProblem,
    ImportReport,
    PageSource,
    find_sources,
    import_page,
    import_paths,
    import_run_folder,
)
from .label_sets import PROJECT_SET, Annotators
from .learnt_model import (
    forget_project_model,
    model_freshness,
    project_model,
    project_model_path,
    train_on_project,
    unusable_said,
)
from .page_removal import REMOVED, RemovedPage, RestoredPage, check_removable, remove_page, removed_copy, restore_page
from .project import (
    APP_OPEN_MARK,
    PROJECT_DB,
    Change,
    Label,
    PageInfo,
    Project,
    SchemaUpgrade,
    follow_change,
    history_actions,
    history_numbers,
    history_records,
    history_steps,
    init_project,
    open_project,
    project_holding,
    status_moved,
    take_upgrades,
)
from .propose_marks import (
    ProposeMark,
    forget_stopped_proposes,
    mark_propose,
    stopped_proposes_said,
    unmark_propose,
)
from .runs import RunInfo, StoredScore, method_settings, run_folder, run_origin, run_settings
from .schema import (
    LABEL_STATUSES,
    PAGE_STATUS_WORDS,
    PAGE_STATUSES,
    REJECTED,
    TRUE_LABEL_STATUSES,
    TRUE_PAGE_STATUSES,
    SchemaError,
)
from .scoring import labelled_page_names, score_stored_run

__all__ = [
    "PROJECT_SET", "Annotators", "label_set", "project_agreement", "Adjudication", "Kept", "disagreement",
    "classed_only_theirs", "is_merge", "ChangedElsewhere", "judge_as_shown", "mark_as_shown",
    "EXPORT_FORMATS", "LABEL_STATUSES", "PAGE_STATUS_WORDS", "PAGE_STATUSES", "REJECTED", "TRUE_LABEL_STATUSES",
    "TRUE_PAGE_STATUSES", "Change",
    "ExportSummary", "ImportProblem", "ImportReport", "Label", "PageInfo", "PageSource", "Project", "Provenance",
    "RunInfo", "method_settings", "run_folder", "run_origin", "run_settings",
    "SchemaError", "StoreError", "StoredScore", "database_problem", "export_project", "find_sources", "import_page",
    "follow_change", "history_actions", "history_numbers", "history_records", "history_steps", "import_paths",
    "import_run_folder", "init_project", "open_project", "project_holding", "APP_OPEN_MARK", "PROJECT_DB",
    "labelled_page_names", "score_stored_run", "status_moved",
    "SchemaUpgrade", "take_upgrades", "stopped_imports_said", "ProposeMark", "forget_stopped_proposes",
    "mark_propose", "stopped_proposes_said", "unmark_propose",
    "REMOVED", "RemovedPage", "RestoredPage", "check_removable", "remove_page", "removed_copy", "restore_page",
    "forget_project_model", "model_freshness", "project_model", "project_model_path", "train_on_project",
    "unusable_said", "content_hash",
]
