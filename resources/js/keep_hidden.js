// Keep a page's hidden form fields and `hidden` elements in the MHTML Chromium writes of it (run in the
// ApplicationWorld of each frame, just before the page is saved: site_capture.py, site_saver.py, the site
// browser's "Save this page to the site").
//
// Blink's MHTML writer leaves out every <input type=hidden> and every element with the `hidden` attribute
// (FrameSerializer's ShouldIgnoreHiddenElement). They are form data: without them a saved form sends what the
// live one never sent, and the pages the capture reached by submitting it cannot be reached offline. So each is
// turned into something the writer keeps that still renders nothing and is sent as it was:
//
// - an <input type=hidden> becomes a checked checkbox (a checkbox's value is sent as written: no line break is
//   taken out, no `required` or `pattern` stops the form) holding the value the live form sends (for `_charset_`,
//   the charset, as the capture's own submission sent it), with inline `display: none !important` and
//   `data-recordlens-type="hidden"`: core/agent/hidden_fields.py reads it back as the hidden field it was;
// - an element with `hidden` loses the attribute, keeps its value in `data-recordlens-hidden`, and is kept out of
//   the rendering inline as the attribute kept it out (`display: none`, or `content-visibility: hidden` for
//   `hidden=until-found`), unless the page's own style showed it anyway.
//
// No element is added, moved or removed: every element keeps its XPath. Answers the number of elements changed.
//
// Any element may hold `hidden`, a <form> too, whose named controls shadow its own properties (in <form hidden>
// <input name="getAttribute"> made this throw, and nothing was kept): elements are read through dom_rules.js's
// `__recordlens.dom`, which every runner of this script runs first in its world (site_browser.py in every frame,
// site_saver.keep_hidden before it).
(() => {
  const dom = globalThis.__recordlens.dom;
  const TYPE_MARK = "data-recordlens-type";
  const HIDDEN_MARK = "data-recordlens-hidden";
  const CHARSET_FIELD = /^_charset_$/i;
  const SENT_CHARSET = "UTF-8";  // what FormData (the capture's submission of a form) sends for `_charset_`

  // The document and every open shadow root below it: the writer keeps declarative shadow roots too.
  const roots = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const element of roots[i].querySelectorAll("*")) {
      const shadow = dom.shadowRoot(element);
      if (shadow) roots.push(shadow);
    }
  }
  const fields = roots.flatMap((root) => [...root.querySelectorAll("input")]).filter((e) => e.type === "hidden");
  const hidden = roots.flatMap((root) => [...root.querySelectorAll("[hidden]")]);
  // Read before anything changes: an element's rendering may depend on another's attribute.
  const styles = hidden.map((element) => {
    const style = getComputedStyle(element);
    return { display: style.display, contentVisibility: style.contentVisibility };
  });

  for (const field of fields) {
    const value = CHARSET_FIELD.test(field.name) ? SENT_CHARSET : field.value;
    field.setAttribute(TYPE_MARK, "hidden");
    field.type = "checkbox";
    field.setAttribute("value", value);
    field.setAttribute("checked", "");
    field.checked = true;
    field.style.setProperty("display", "none", "important");
  }
  hidden.forEach((element, i) => {
    dom.setAttribute(element, HIDDEN_MARK, dom.getAttribute(element, "hidden"));
    dom.removeAttribute(element, "hidden");
    const inline = dom.style(element);
    if (!inline) return;  // an element of another namespace without inline style
    if (styles[i].display === "none") inline.setProperty("display", "none", "important");
    else if (styles[i].contentVisibility === "hidden") {
      inline.setProperty("content-visibility", "hidden", "important");
    }
  });
  return fields.length + hidden.length;
})()
