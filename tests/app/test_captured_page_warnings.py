"""The Site tab's stored parts of a captured page say the warnings its capture kept in its meta.json (a request
still pending when --timeout ran out, a page that kept changing), as the capture's log said them."""

from __future__ import annotations

from pathlib import Path

import pytest

from recordlens.core.agent.capture import CaptureRules, RenderedPage, capture_site
from recordlens.core.agent.sites import load_site
from tests.core.canned_web import NO_ROBOTS, Web

pytestmark = pytest.mark.app

ROOT = "http://site.example/"
PENDING = "it was saved as it was when its --timeout of 6 s ran out: 1 request(s) (http://ads.example/x.png) …"


class Warned(Web):
    def render(self, requested: str, refuse_redirect=None) -> RenderedPage:  # noqa: ANN001
        page = super().render(requested, refuse_redirect)
        page.warnings = [PENDING]
        return page


def test_the_site_tab_says_a_captured_pages_warnings(qapp, tmp_path: Path) -> None:
    from recordlens.annotator.agent.capture_panel import CapturedPageView

    capture_site([ROOT], tmp_path, Warned({ROOT: ("Home", [])}), CaptureRules(depth=0), robots=NO_ROBOTS)
    view = CapturedPageView()
    assert view.show_page(load_site(tmp_path), ROOT)
    assert f"⚠ {PENDING}" in view.note.text()
    view.deleteLater()
