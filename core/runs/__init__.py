"""Running an extractor over pages, scoring runs, the paper's bench tables and charts, progress on stderr."""

from .evaluate import SeedScores, score_run, score_seeds, seed_runs
from .page_loop import (
    ENDPOINT_FAILURES_IN_A_ROW,
    Spent,
    check_the_endpoint,
    failed_for_the_endpoint,
    run_pages,
    spending_told,
)
from .progress import progress
from .run_files import (
    DONE,
    FAILED,
    META_DIR,
    NOT_FINISHED,
    STOPPED,
    RunSummary,
    failed_pages,
    model_calls,
    read_page_costs,
    spent_record,
    summed_cost,
)
from .runner import run_extractor, seed_dir

__all__ = [
    "DONE", "ENDPOINT_FAILURES_IN_A_ROW", "FAILED", "NOT_FINISHED", "STOPPED", "check_the_endpoint",
    "failed_for_the_endpoint", "META_DIR", "RunSummary", "SeedScores", "failed_pages", "model_calls", "progress",
    "read_page_costs", "run_extractor", "run_pages",
    "score_run", "score_seeds", "seed_dir", "seed_runs", "Spent", "spending_told", "spent_record", "summed_cost",
]
