"""The code that writes the shipped demo site, "Paperfield" (`site`), and its tasks with their reference
trajectories (`tasks`); what it writes lives in `resources/agent/demo-site/` and `resources/agent/demo-tasks.jsonl`.

    from recordlens.core.agent.demo import DEMO_TASKS, write_demo_resources
"""

from .site import HOME, demo_pages, listing_url, search_url, write_demo_site
from .tasks import DEMO_TASKS, SITE_NAME, record_path, write_demo_resources

__all__ = [
    "DEMO_TASKS", "HOME", "SITE_NAME",
    "demo_pages", "listing_url", "record_path", "search_url", "write_demo_resources", "write_demo_site",
]
