"""A page of fields inside their labels, and the names Chromium gives them: what the text browser's and the Qt
browser's tests of label names share."""

from __future__ import annotations

from pathlib import Path

from recordlens.core.agent.sites import Site, build_site
from recordlens.core.page.mhtml_writer import write_mhtml

HOME = "https://labels.example.org/"
PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Labels</title></head><body>
<p><label>Colour <select name="c"><option>Red</option><option selected>Blue</option></select></label></p>
<p><label>Name <input name="n" value="Ann"></label></p>
<p><label>Notes <textarea name="t">hello notes</textarea></label></p>
<p><label for="s2">Shade <select id="s2" name="s2"><option>Dark</option><option selected>Light</option></select>
</label></p>
<p><label>Size <input name="z" value="5"> cm</label></p>
<p><label>Col<b>our</b> two <select name="c2"><option>Red</option><option selected>Green</option></select></label></p>
<p><label><input type="checkbox" name="r"> Remember me</label></p>
<p><label>Qty <input name="q" value="3"> <select name="u"><option>kg</option><option selected>lb</option></select>
</label></p>
<p><label>Pick <select name="m" multiple size="3"><option>One</option><option selected>Two</option></select></label></p>
<p><label>Hidden <span hidden>secret</span> word <input name="h"></label></p>
</body></html>"""
# The roles and names of its elements, in order, as Chromium's accessibility tree of this page (captured by
# `recordlens site capture`) names them: a label names the field it wraps by its own text, without the field's
# content (a list's options, a text area's text); another field inside it gives its value ("Qty lb"); hidden text
# and inline markup add no words ("Col<b>our</b>" is "Colour"). The second list of "Qty" is labelled by nothing.
NAMES = [("combobox", "Colour"), ("textbox", "Name"), ("textbox", "Notes"), ("combobox", "Shade"),
         ("textbox", "Size cm"), ("combobox", "Colour two"), ("checkbox", "Remember me"), ("textbox", "Qty lb"),
         ("combobox", ""), ("listbox", "Pick"), ("textbox", "Hidden word")]


def labels_site(folder: Path) -> Site:
    write_mhtml(folder / "home.mhtml", PAGE, url=HOME)
    return build_site(folder)
