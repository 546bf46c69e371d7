"""Pages whose parts the browser hides, and what both browsers show of them: text made invisible by its style
(`visibility`), elements in a closed `<details>`, a password typed into a login form. What the text browser's and
the Qt browser's tests of these share."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.sites import Site, build_site
from recordlens.core.llm.gemini import Answer
from recordlens.core.page.mhtml_writer import write_mhtml

# Each: a page's body, and the text both browsers give of it (som.js `pageText` reads no text whose computed
# visibility is not `visible`; visibility is inherited, and a part made visible again shows).
INVISIBLE_TEXTS = [
    ('<p>Price <span style="visibility: hidden">secret</span> 12 EUR</p>', "Price 12 EUR"),
    ('<p>A <span style="visibility:hidden">hid <b style="visibility: visible">back</b> den</span> B</p>',
     "A back B"),
    ('<div style="visibility: collapse"><p>Gone</p><p>Also <i>gone</i></p></div><p>Kept</p>', "Kept"),
    ('<section style="visibility: hidden"><div><p>Deep <span>down</span></p></div></section><p>After</p>', "After"),
    ('<p style="VISIBILITY: Hidden !important">Shouty</p><p style="visibility: hidden; visibility: visible">Last'
     ' one wins</p>', "Last one wins"),
    ('<div style="visibility: hidden"><select><option>Red</option></select><textarea>Notes</textarea>'
     '<p style="visibility: initial">Initial shows</p></div>', "Initial shows"),
    ('<table><tr><td>One</td><td style="visibility: hidden">Two</td><td>Three</td></tr></table>', "One Three"),
]

DETAILS_HOME = "https://details.example.org/"
DETAILS_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Details</title></head><body>
<p><a href="/before">Before</a></p>
<details><summary>Shipping <a href="/rates">rates</a></summary>
  <p><a href="/inside">Inside</a> <input name="q" placeholder="Postcode"> <button>Check</button></p>
  <summary>Not the summary</summary>
  <details open><summary>Inner</summary><a href="/inner">Inner link</a></details>
</details>
<details open><summary>Returns</summary><a href="/returns">Return a parcel</a></details>
<p><a href="/after">After</a></p>
</body></html>"""
# The roles and names of the numbered elements, the first <details> closed, then opened: a summary is a button, and
# what lies inside it (a link) is left to it.
DETAILS_CLOSED = [("link", "Before"), ("button", "Shipping rates"), ("button", "Returns"),
                  ("link", "Return a parcel"), ("link", "After")]
DETAILS_OPENED = [("link", "Before"), ("button", "Shipping rates"), ("link", "Inside"), ("textbox", "Postcode"),
                  ("button", "Check"), ("button", "Not the summary"), ("button", "Inner"), ("link", "Inner link"),
                  ("button", "Returns"), ("link", "Return a parcel"), ("link", "After")]

LOGIN_HOME = "https://login.example.org/"
# Two fields and no submit button: Enter submits nothing, so the page stays and the fields can be read back.
LOGIN_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Log in</title></head><body>
<form action="/account" method="post">
  <label>User <input name="user"></label>
  <label>Password <input type="password" name="pw"></label>
</form></body></html>"""
SECRET = 'hun"ter2'  # a quote: a JSON answer writes it escaped
BULLETS = "\u2022" * len(SECRET)


def page_of(body: str) -> str:
    return f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>T</title></head><body>{body}</body></html>"


def one_page_site(folder: Path, html: str, url: str) -> Site:
    write_mhtml(folder / "home.mhtml", html, url=url)
    return build_site(folder)


class Scripted:
    """The model: its answers in turn, noting each prompt."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []

    def generate(self, prompt: str, *, system: str | None = None, images: list[bytes] | None = None,
                 about: str | None = None) -> Answer:
        self.prompts.append(prompt)
        return Answer(text=self.answers.pop(0), usage={}, attempts=1, seconds=0.0, finish_reason="STOP")
