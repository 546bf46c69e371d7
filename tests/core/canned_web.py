"""A web of canned pages for the tests of `site capture`'s crawl without a browser: a renderer of pages by full URL,
the date their archives say they were saved on, and a site that has no robots.txt."""

from __future__ import annotations

from urllib.parse import urljoin

from recordlens.core.agent.capture import PageFailed, RedirectCheck, RenderedPage, Robots
from recordlens.core.page.mhtml_writer import mhtml_bytes

# one Date header for every canned page: a page rendered twice must give the same bytes, whatever second it is
SAVED_ON = "Sat, 05 Dec 2026 12:00:00 -0000"
NO_ROBOTS = Robots(lambda _: (404, ""))  # a site without a robots.txt: every path allowed


class Web:
    """A renderer of canned pages by full URL: `pages` URL -> (title, links as the HTML writes them, relative or
    not, resolved against the page's URL as a browser does); `redirects` URL -> URL, each hop put to
    `refuse_redirect` first as the app's renderer does."""

    def __init__(self, pages: dict[str, tuple[str, list[str]]], redirects: dict[str, str] | None = None,
                 interrupt_after: int | None = None) -> None:
        self.pages, self.redirects = pages, redirects or {}
        self.interrupt_after = interrupt_after
        self.requested: list[str] = []

    def render(self, requested: str, refuse_redirect: RedirectCheck | None = None) -> RenderedPage:
        if self.interrupt_after is not None and len(self.requested) >= self.interrupt_after:
            raise KeyboardInterrupt  # Ctrl+C while a page loads
        self.requested.append(requested)
        final, hops = requested, []
        while final in self.redirects:
            target = self.redirects[final]
            why = refuse_redirect(target) if refuse_redirect else None
            if why is not None:
                raise PageFailed(why, redirected_to=target)
            hops.append({"url": final, "status": 302, "location": target})
            final = target
            self.requested.append(final)
        if final not in self.pages:
            raise PageFailed("HTTP 404 Not Found")
        title, links = self.pages[final]
        anchors = "".join(f'<a href="{link}">{link}</a>' for link in links)
        html = f"<html><head><title>{title}</title></head><body><h1>{title}</h1>{anchors}</body></html>"
        return RenderedPage(requested_url=requested, final_url=final, status=200, redirects=hops,
                            content_type="text/html", title=title,
                            mhtml=mhtml_bytes(html, url=final, title=title, date=SAVED_ON),
                            ax_nodes=[{"nodeId": "1", "role": {"value": "RootWebArea"}, "name": {"value": title},
                                       "childIds": [], "backendDOMNodeId": 1}], dom=None,
                            screenshot=b"\x89PNG\r\n\x1a\n" + b"\0" * 16, screenshot_size=(1920, 900),
                            links=[urljoin(final, link) for link in links], engine="canned",
                            viewport=(1920, 1080), page_height=900)


def capture_through(monkeypatch, web: Web) -> None:  # noqa: ANN001 (pytest's MonkeyPatch)
    """`recordlens site capture` crawls the canned `web` in place of the app's Chromium (robots.txt none), with the
    command's `--ask-again` passed on."""
    from recordlens.core.agent import capture

    def canned(roots, folder, rules, *, ask_again=False, **_options):  # noqa: ANN001, ANN202
        return capture.capture_site(roots, folder, web, rules, robots=NO_ROBOTS, ask_again=ask_again)

    monkeypatch.setattr(capture, "_RUNNERS", {"chromium": canned})
