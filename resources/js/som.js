// Set-of-mark: number the page's interactive elements and draw the numbers on it (run in ApplicationWorld).
//
// Injected after dom_rules.js, so identities use the core's XPath rules (`__recordlens.xpathOf`), elements are found
// by them (`__recordlens.resolve`), and every page node is read through `__recordlens.dom`: a <form>'s named
// controls shadow the form's own properties (<input name="parentElement"> made a walk up the tree go round for
// ever, name="tagName" stopped resolving). Elements known to be of another kind (a field, a label, a text node) are
// read directly; so are the app's own (the layer's boxes). Defines
// `__recordlens.som`; Python calls `mark({all})`, which draws a numbered box on every interactive element in
// the viewport (or, with all, on the whole page) and returns JSON describing each: label, xpath, text, role,
// accessible name, bbox (viewport CSS pixels), plus the scroll position, the viewport size and, of the view, how
// many elements it left out above and below (`out_of_view`, also `outOfView()`: a Scroll brings them in).
//
// The marks live in the closed shadow root of one fixed <recordlens-som> element appended to <html> (by
// shadow_host.js): page CSS cannot reach them, pointer-events: none lets every click fall through to the page,
// and being the last child of <html> under its own tag name it changes no page element's XPath.
(() => {
  const rl = (globalThis.__recordlens = globalThis.__recordlens || {});
  if (rl.som) return;
  const dom = rl.dom;

  const HOST_TAG = "recordlens-som";
  const TEXT_CHARS = 200;
  const INTERACTIVE = [
    "a[href]", "button", "input:not([type=hidden])", "select", "textarea", "summary",
    "[role=button]", "[role=link]", "[role=tab]", "[role=menuitem]", "[role=checkbox]", "[role=radio]",
    "[role=option]", "[role=switch]", "[role=combobox]", "[role=searchbox]", "[role=textbox]",
  ].join(",");
  const COLOURS = ["#e8590c", "#1971c2", "#2f9e44", "#c2255c", "#6741d9", "#0c8599", "#d9480f", "#5c940d"];
  const TEXT_INPUTS = new Set(["", "text", "search", "email", "url", "tel", "password", "number"]);

  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  const cut = (s) => (s.length > TEXT_CHARS ? s.slice(0, TEXT_CHARS) : s);

  // The role a screen reader would announce: explicit first, else the element's implicit ARIA role.
  const roleOf = (el) => {
    const explicit = squash(dom.getAttribute(el, "role")).split(" ")[0];
    if (explicit) return explicit;
    const tag = dom.localName(el);
    if (tag === "a") return "link";
    if (tag === "button" || tag === "summary") return "button";
    if (tag === "textarea") return "textbox";
    if (tag === "select") return el.multiple || el.size > 1 ? "listbox" : "combobox";
    if (tag === "input") {
      const type = (el.getAttribute("type") || "").toLowerCase();
      if (["button", "submit", "reset", "image"].includes(type)) return "button";
      if (type === "checkbox" || type === "radio") return type;
      if (type === "search") return el.hasAttribute("list") ? "combobox" : "searchbox";
      if (type === "number") return "spinbutton";
      if (type === "range") return "slider";
      return el.hasAttribute("list") ? "combobox" : "textbox";
    }
    return "";
  };

  const isTextField = (el) =>
    dom.localName(el) === "textarea" ||
    (dom.localName(el) === "input" && TEXT_INPUTS.has(el.type)) || // the type as read: an unknown one is "text"
    ["textbox", "searchbox"].includes(squash(dom.getAttribute(el, "role"))) ||
    !!dom.isContentEditable(el);

  // A field's value as Chromium reads it out: a password field's is a bullet for each character it holds (UTF-16
  // units, as Chromium counts them), never the characters, which go into no text or name sent anywhere.
  const valueOf = (el) =>
    dom.localName(el) === "input" && el.type === "password" ? "\u2022".repeat(el.value.length) : el.value;

  // What an element shows as text: its rendered text, or, of one that has none to give (an SVG element), all of it.
  const shownText = (el) => {
    const rendered = dom.innerText(el);
    return rendered !== undefined ? rendered : dom.textContent(el);
  };

  // Visible text as the reader sees it; a field shows its value, or its placeholder when empty.
  const textOf = (el) => {
    const tag = dom.localName(el);
    if (tag === "input" || tag === "textarea") {
      const type = (el.getAttribute("type") || "").toLowerCase();
      if (["button", "submit", "reset"].includes(type)) return cut(squash(el.value));
      return cut(squash(valueOf(el)) || squash(el.getAttribute("placeholder")));
    }
    if (tag === "select") {
      const option = el.selectedOptions && el.selectedOptions[0];
      return cut(squash(option ? option.textContent : ""));
    }
    return cut(squash(shownText(el)));
  };

  // The texts of the elements aria-labelledby names, as Chromium names `field` by them: one on show is read as a
  // label is, its hidden parts left out; one hidden itself (or inside something hidden) is still read, and then all
  // of it (accname: a hidden subtree named directly counts whole). Core's text browser reads them alike
  // (text_browser.py `_text_of_ids`).
  const hiddenRoot = (el) => {
    if (dom.closest(el, '[aria-hidden="true" i]') || getComputedStyle(el).visibility !== "visible") return true;
    for (let node = el; node; node = dom.parentElement(node)) {
      if (getComputedStyle(node).display === "none") return true;
    }
    return false;
  };
  const byIds = (ids, field) =>
    squash(
      ids
        .split(/\s+/)
        .map((id) => document.getElementById(id))
        .filter(Boolean)
        .map((n) => labelContent(n, field, hiddenRoot(n)))
        .join(" "),
    );

  // A label's text as Chromium names the field by it: the field itself, when the label wraps it, adds nothing (a
  // list's options are no part of its name: "Colour", not "Colour RedBlue"), another field in it adds its value
  // (a list its chosen option, a password field its bullets: `valueOf`), and what is hidden adds nothing
  // (`hiddenFromName`; a hidden label names nothing). Core's text browser reads labels alike (text_browser.py
  // `_label_text`).
  const UNREAD = new Set(["script", "style", "noscript", "template"]);
  const labelContent = (node, field, keepHidden = false) => {
    let out = "";
    for (let child = dom.firstChild(node); child; child = dom.nextSibling(child)) {
      const type = dom.nodeType(child);
      if (type === Node.TEXT_NODE) out += child.data;
      if (type !== Node.ELEMENT_NODE || child === field || UNREAD.has(dom.localName(child))) continue;
      if (!keepHidden && hiddenFromName(child)) continue;
      const value = embeddedValue(child);
      out += value !== null ? value : labelContent(child, field, keepHidden);
    }
    return out;
  };
  // An element that adds nothing to a name, with all it holds: not displayed, invisible (visibility hidden or
  // collapse; Chromium reads nothing inside it again, though a child be visible) or aria-hidden.
  const hiddenFromName = (el) => {
    if ((dom.getAttribute(el, "aria-hidden") || "").toLowerCase() === "true") return true;
    const style = getComputedStyle(el);
    return style.display === "none" || style.visibility !== "visible";
  };
  const embeddedValue = (el) => {
    const tag = dom.localName(el);
    if (tag === "select") return textOf(el);
    if (tag === "textarea" || (tag === "input" && TEXT_INPUTS.has(el.type))) return valueOf(el);
    return tag === "input" ? "" : null;
  };
  const labelText = (el) => {
    const parts = [];
    if (el.labels) for (const label of el.labels) if (!hiddenFromName(label)) parts.push(labelContent(label, el));
    return squash(parts.join(" "));
  };

  const imageAlt = (el) =>
    squash([...dom.querySelectorAll(el, "img[alt]")].map((img) => dom.getAttribute(img, "alt")).join(" "));

  // The accessible name, in the accname order that matters for these elements: aria-labelledby, aria-label,
  // the native label (label[for] or a wrapping label, alt), the content for roles named by it, title,
  // placeholder.
  const nameOf = (el) => {
    const labelledby = dom.getAttribute(el, "aria-labelledby");
    const labelled = labelledby ? byIds(labelledby, el) : "";
    if (labelled) return cut(labelled);
    const aria = squash(dom.getAttribute(el, "aria-label"));
    if (aria) return cut(aria);
    const tag = dom.localName(el);
    if (tag === "input" || tag === "select" || tag === "textarea") {
      const type = (el.getAttribute("type") || "").toLowerCase();
      if (type === "image" && el.getAttribute("alt")) return cut(squash(el.getAttribute("alt")));
      if (["button", "submit", "reset"].includes(type)) {
        return cut(squash(el.value) || { submit: "Submit", reset: "Reset" }[type] || "");
      }
      const label = labelText(el);
      if (label) return cut(label);
    } else {
      const content = squash(shownText(el)) || imageAlt(el);
      if (content) return cut(content);
    }
    const title = squash(dom.getAttribute(el, "title"));
    if (title) return cut(title);
    return cut(squash(dom.getAttribute(el, "placeholder")));
  };

  const shown = (el, r) => {
    if (r.width <= 0 || r.height <= 0) return false;
    const style = getComputedStyle(el);
    // visibility: collapse hides an element as hidden does (core's text browser leaves both unnumbered)
    return style.visibility === "visible" && style.display !== "none" && Number(style.opacity) !== 0;
  };

  const inViewport = (r) => r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;

  // Not hidden under something else: some point of the box (centre first) hits the element or its content.
  const reachable = (el, r) => {
    const points = [
      [0.5, 0.5], [0.25, 0.5], [0.75, 0.5], [0.5, 0.25], [0.5, 0.75],
    ];
    for (const [fx, fy] of points) {
      const x = Math.min(Math.max(r.left + r.width * fx, 0), innerWidth - 1);
      const y = Math.min(Math.max(r.top + r.height * fy, 0), innerHeight - 1);
      const hit = document.elementFromPoint(x, y);
      // Or on a label of it: one whose control it is (asked of the label; a form's `labels` may be a control).
      if (hit && (hit === el || dom.contains(el, hit) || (dom.localName(hit) === "label" && hit.control === el))) {
        return true;
      }
    }
    return false;
  };

  // Whether a window Scroll can bring an element out of view (box r, above or below the view) into the view and
  // numbering would then number it, asked of one marking (what it looks up is kept for the next element):
  // - the window scrolls up and down only, as far as the page goes: an element beside the view's columns (a skip
  //   link at left:-9999px), or above the page's top (one at top:-40px), never comes in;
  // - an element in a fixed layer (an off-canvas menu) does not move with the window;
  // - one clipped away by a box that clips its content (a long list in an overflow:auto box) shows only when that
  //   box scrolls, and the box has no number to scroll by: only its part that the box shows counts;
  // - one that a fixed layer covers wherever the window can put it (a consent wall over the whole page) is never
  //   numbered (`reachable` leaves it out in view). What a fixed layer covers is the same at every scroll: the
  //   layers are found by hit-testing a few points of the view (`COVER_PROBES`, its edges and middle lines, where
  //   walls, headers, footers and side bars lie), and each element's points are tried where a Scroll could put
  //   them, every CELL pixels. A fixed layer no probe hits (a small chat button) is not known; one that small
  //   seldom covers every place an element can land. A hit-test takes up to a millisecond on a long page, so the
  //   probes are few.
  // A sticky layer moves until it sticks: it is taken as moving.
  const CELL = 40;
  const COVER_PROBES = [0.01, 0.25, 0.5, 0.75, 0.99];
  const windowReach = () => {
    const page = document.scrollingElement || document.documentElement;
    const down = Math.max(0, page.scrollHeight - page.clientHeight - scrollY); // how far the window can still go
    const up = scrollY;
    const clipMemo = new Map();
    let covers = null; // the fixed layers' rectangles, found once asked
    // The fixed layer an element is in, or null: the chain of its offset parents (positioned ancestors: short)
    // ends at a fixed element, not at the body. An SVG element has none: its nearest HTML element's is asked.
    const pinned = (el) => {
      let node = el;
      while (node && dom.offsetParent(node) === undefined) node = dom.parentElement(node);
      if (!node) return null;
      for (let up = dom.offsetParent(node); up; up = dom.offsetParent(node)) node = up;
      const fixed = node !== document.body && node !== document.documentElement &&
        getComputedStyle(node).position === "fixed";
      return fixed ? node : null;
    };
    // The viewport rectangle a box shows its content in (null: it clips nothing, or the page does).
    const ownClip = (node) => {
      if (node === page || node === document.documentElement || node === document.body) return null;
      const style = getComputedStyle(node);
      if (style.overflowX === "visible" && style.overflowY === "visible") return null;
      if (style.display === "contents" || style.display === "inline") return null; // no box of its own to clip by
      const b = dom.getBoundingClientRect(node);
      return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
    };
    const meet = (a, b) => (!a ? b : !b ? a : {
      left: Math.max(a.left, b.left), top: Math.max(a.top, b.top),
      right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom),
    });
    // What clips an element's box: its ancestors' clips met, each ancestor's asked once a marking.
    const clipOf = (el) => {
      const chain = [];
      let node = dom.parentElement(el);
      while (node && !clipMemo.has(node)) {
        chain.push(node);
        node = dom.parentElement(node);
      }
      let clip = node ? clipMemo.get(node) : null;
      for (let i = chain.length - 1; i >= 0; i--) {
        clip = meet(clip, ownClip(chain[i]));
        clipMemo.set(chain[i], clip);
      }
      return clip;
    };
    // The rectangles of the fixed layers the probes hit: what each probe hit, and the layer's whole box unless the
    // layer lets pointers through (a dialog in a full-view wrapper with pointer-events: none covers only itself).
    const fixedLayers = () => {
      const seen = new Set();
      for (const fx of COVER_PROBES) {
        for (const fy of COVER_PROBES) {
          const hit = document.elementFromPoint(innerWidth * fx, innerHeight * fy);
          const layer = hit ? pinned(hit) : null;
          if (!layer) continue;
          seen.add(hit);
          if (getComputedStyle(layer).pointerEvents !== "none") seen.add(layer);
        }
      }
      return [...seen].map((el) => dom.getBoundingClientRect(el));
    };
    const free = (x, y) => !covers.some((b) => x >= b.left && x < b.right && y >= b.top && y < b.bottom);
    // Some point of the box (as `reachable` tries them) lands, at some scroll, where no fixed layer is.
    const lands = (b) => {
      const width = b.right - b.left;
      const height = b.bottom - b.top;
      const ys = [0.25, 0.5, 0.75].map((f) => b.top + height * f);
      const low = Math.max(0, Math.min(...ys) - down);
      const high = Math.min(innerHeight - 1, Math.max(...ys) + up);
      if (low > high) return false;
      covers = covers || fixedLayers();
      if (!covers.length) return true;
      const xs = [0.5, 0.25, 0.75].map((f) => Math.min(Math.max(b.left + width * f, 0), innerWidth - 1));
      for (const x of xs) {
        for (let y = low; y < high + CELL; y += CELL) {
          if (free(x, Math.min(y, high))) return true;
        }
      }
      return false;
    };
    const brings = (el, r) => {
      if (r.bottom > 0 && r.top < innerHeight) return false; // beside the view: no Scroll moves it sideways
      if (r.right <= 0 || r.left >= innerWidth || pinned(el)) return false;
      const seen = clipped(r, clipOf(el));
      return !!seen && seen.right > 0 && seen.left < innerWidth && lands(seen);
    };
    return { brings };
  };

  let host = null;
  let layer = null;
  let marked = []; // the elements of the last mark(), in label order
  let firstLabel = 0;
  let outOfView = null; // [above, below]: what the last mark() of the view left out (null: none made yet)

  const ensureHost = () => {
    if (host && host.isConnected) return true;
    const made = rl.shadowHost(HOST_TAG, "fixed", `
      :host { all: initial; }
      .box { position: fixed; box-sizing: border-box; border: 2px dashed var(--c); pointer-events: none; }
      .label { position: absolute; left: -2px; top: -2px; padding: 0 4px;
               background: var(--c); color: #fff; font: bold 12px/16px system-ui, sans-serif;
               white-space: nowrap; }
    `, ["layer"]);
    if (!made) return false;
    host = made.host;
    [layer] = made.parts;
    return true;
  };

  const clear = () => {
    if (layer) layer.replaceChildren();
    marked = [];
  };

  // By its own disabled, or a disabled fieldset's (not `.disabled`, which a fieldset's leaves false).
  const isDisabled = (el) => dom.matches(el, ":disabled");

  // Candidates in document order; one inside another marked element is left to the outer one (a span with
  // role=button inside a link is the link). Of the view only, also how many would be numbered above and below
  // it (`beyond`: the elements a window Scroll brings into view and numbering would then number, `windowReach`;
  // one beside the view, or in view but covered, is in neither).
  const candidates = (all, beyond = { above: 0, below: 0 }) => {
    const out = [];
    const reach = all ? null : windowReach();
    let outside = null; // the last element counted beyond the view: what lies inside it is its own
    for (const el of document.querySelectorAll(INTERACTIVE)) {
      if (dom.closest(el, HOST_TAG)) continue;
      if (isDisabled(el)) continue;
      if (out.length && out.some((o) => dom.contains(o.el, el))) continue;
      const r = dom.getBoundingClientRect(el);
      if (!shown(el, r)) continue;
      if (!all && !inViewport(r)) {
        if (outside && dom.contains(outside, el)) continue;
        if (reach.brings(el, r)) {
          beyond[r.bottom <= 0 ? "above" : "below"] += 1;
          outside = el;
        }
        continue;
      }
      if (!all && !reachable(el, r)) continue;
      out.push({ el, r });
    }
    return out;
  };

  const describe = (el, r, label) => ({
    label,
    xpath: rl.xpathOf(el),
    text: textOf(el),
    role: roleOf(el),
    name: nameOf(el),
    bbox: [r.left, r.top, r.width, r.height].map((v) => Math.round(v * 100) / 100),
    field: isTextField(el),
  });

  // Where a badge goes. A badge must read as the number of its own element: never over any numbered element's
  // text (its own included: it would hide the first letters of what it labels) nor on another numbered element,
  // nor on another badge; and, where it can, on none of the page's other visible text either (a price, a weight:
  // the screenshot is what an agent reads). In a dense list the row above an element is the previous link, so
  // "above" is taken only when it is free; then to its left (a list's indent), inside its own left padding,
  // below, after its text on its first line (a block link flush with the page's edge), to the right of its box,
  // and above or below its right end. When none is free, the place covering least wins, so every element keeps
  // a number.
  const GAP = 2;
  const BORDER = 2; // the box's dashed border: a badge's containing block is the padding box inside it

  // The viewport rectangles of an element's text; a field's text is drawn anywhere in its box.
  const textRects = (el, r) => {
    if (["input", "select", "textarea"].includes(dom.localName(el))) return [r];
    const range = document.createRange();
    range.selectNodeContents(el);
    const rects = [...range.getClientRects()].filter((b) => b.width > 0 && b.height > 0);
    return rects.length ? rects : [r];
  };

  const rect = (left, top, width, height) => ({ left, top, right: left + width, bottom: top + height });

  // The viewport rectangles of the page's visible text, one per line of each text node (the words themselves,
  // not the blocks around them). Only text in view is looked at: an element whose box lies wholly outside the
  // view is not entered (on a long page the walk stays near the view; text a positioned child draws elsewhere
  // is then not seen, and a badge may cover it, as it would without this). Scripts, styles and the app's own
  // layer hold no page text.
  const NO_TEXT = new Set(["script", "style", "noscript", "template", "head", "title", HOST_TAG]);
  const pageTextRects = () => {
    const out = [];
    if (!document.body) return out;
    const range = document.createRange();
    const stack = [document.body];
    while (stack.length) {
      const el = stack.pop();
      const box = dom.getBoundingClientRect(el);
      if (box.width > 0 && box.height > 0 && !inViewport(box)) continue;
      let clip; // what the element lets its text show in (null: nothing), asked once it has text in view
      for (let child = dom.lastChild(el); child; child = dom.previousSibling(child)) {
        const type = dom.nodeType(child);
        if (type === Node.ELEMENT_NODE) {
          if (!NO_TEXT.has(dom.localName(child))) stack.push(child);
          continue;
        }
        if (type !== Node.TEXT_NODE || !/\S/.test(child.data)) continue;
        range.selectNodeContents(child);
        for (const b of range.getClientRects()) {
          if (b.width <= 0 || b.height <= 0 || !inViewport(b)) continue;
          if (clip === undefined) clip = textClip(el, box);
          if (clip === null) break;
          const seen = clipped(rect(b.left, b.top, b.width, b.height), clip);
          if (seen) out.push(seen);
        }
      }
    }
    return out;
  };

  // Where an element's text can show: nowhere (null) when it is invisible, inside its box when it clips what
  // overflows (a visually hidden label: a 1 px box), anywhere otherwise.
  const textClip = (el, box) => {
    if (!dom.checkVisibility(el, { opacityProperty: true, visibilityProperty: true })) return null;
    const style = getComputedStyle(el);
    return style.overflowX !== "visible" || style.overflowY !== "visible"
      ? rect(box.left, box.top, box.width, box.height) : false;
  };
  const clipped = (b, clip) => {
    if (!clip) return b;
    const left = Math.max(b.left, clip.left);
    const top = Math.max(b.top, clip.top);
    const right = Math.min(b.right, clip.right);
    const bottom = Math.min(b.bottom, clip.bottom);
    return right - left >= 2 && bottom - top >= 2 ? { left, top, right, bottom } : null;
  };

  // Rectangles by horizontal band, so that what a badge covers is summed over the few in its rows only (a page
  // of small print has thousands of lines in view).
  const BAND = 32;
  const bandsOf = (b) => {
    const out = [];
    for (let k = Math.floor(b.top / BAND); k <= Math.floor(b.bottom / BAND); k++) out.push(k);
    return out;
  };
  const banded = (rects) => {
    const index = new Map();
    for (const b of rects) {
      for (const k of bandsOf(b)) {
        if (!index.has(k)) index.set(k, []);
        index.get(k).push(b);
      }
    }
    return index;
  };
  const coveredIn = (index, b) => {
    const keys = bandsOf(b);
    const counted = keys.length > 1 ? new Set() : null; // a rectangle in two of the badge's bands counts once
    let sum = 0;
    for (const k of keys) {
      for (const t of index.get(k) || []) {
        if (counted) {
          if (counted.has(t)) continue;
          counted.add(t);
        }
        sum += overlap(b, t);
      }
    }
    return sum;
  };
  // Overlapping area; half a pixel of subpixel layout is not an overlap (two rows of a list touch).
  const overlap = (a, b) => {
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    return w > 0.5 && h > 0.5 ? w * h : 0;
  };
  // How far a badge is from a box as a reader pairs them along rows: the gap between them across, and how far
  // the badge's middle line is from the box down (a badge beside its row is that row's, however close the
  // next row's edge).
  const apart = (badge, b) => {
    const middle = (badge.top + badge.bottom) / 2;
    return Math.hypot(Math.max(b.left - badge.right, 0, badge.left - b.right),
                      Math.max(b.top - middle, 0, middle - b.bottom));
  };
  const inView = (b) => b.left >= 0 && b.top >= 0 && b.right <= innerWidth && b.bottom <= innerHeight;

  // The candidate places of a w×h badge for an element with box r and text rectangles `texts`, best first.
  const places = (r, texts, w, h) => {
    const first = texts[0];
    const line = first.top + (first.height - h) / 2; // beside it, on the middle of its first line
    return [
      rect(r.left, r.top - h, w, h), // above
      rect(r.left - w - GAP, line, w, h), // left
      rect(r.left + BORDER, r.top + BORDER, w, h), // inside, at its top left
      rect(r.left, r.bottom, w, h), // below
      rect(first.right + GAP * 2, line, w, h), // after its text
      rect(r.right + GAP, line, w, h), // right of its box
      rect(r.right - w, r.top - h, w, h), // above its right end
      rect(r.right - w, r.bottom, w, h), // below its right end
    ];
  };

  // The first of `spots` with the least of `keys[0]`, of those the least of `keys[1]`, and so on.
  const leastBy = (spots, keys) =>
    keys.reduce((left, key) => {
      const low = Math.min(...left.map(key));
      return left.filter((b) => key(b) === low);
    }, spots)[0];

  // items: [{r, texts, w, h}] in label order; `pageTexts`: the page's visible text (pageTextRects). The chosen
  // viewport rectangle of each badge. In tiers, as overlay.js does: a place clear of every numbered element's
  // text, of the other elements' boxes and of the badges placed, and read as its own element's, comes first;
  // page text only ranks such places (least hidden first). Summed with the boxes, text all around an element (a
  // table cell) weighed as much as the next row's link, and the badge went into that link's box.
  const placeBadges = (items, pageTexts = []) => {
    const numbered = banded(items.flatMap((item) => item.texts));
    const page = banded(pageTexts);
    const placed = [];
    return items.map((item, i) => {
      const blocking = (b) =>
        coveredIn(numbered, b) +
        items.reduce((sum, other, j) => sum + (j === i ? 0 : overlap(b, other.r)), 0) +
        placed.reduce((sum, other) => sum + overlap(b, other), 0);
      // Read as its own element's number: no other element's box is as near.
      const notOwn = (b) => (items.every((other, j) => j === i || apart(b, other.r) > apart(b, item.r)) ? 0 : 1);
      const hidden = (b) => coveredIn(page, b);
      const cost = (b) => blocking(b) + (inView(b) ? 0 : 1e9);
      const options = places(item.r, item.texts, item.w, item.h);
      const unblocked = options.filter((b) => inView(b) && blocking(b) === 0);
      const best = unblocked.length ? leastBy(unblocked, [notOwn, hidden]) : leastBy(options, [cost, notOwn, hidden]);
      placed.push(best);
      return best;
    });
  };

  // The drawn badges' viewport boxes by label (audits and tests: the layer is in a closed shadow root).
  const labelBoxes = () => {
    if (!layer) return JSON.stringify([]);
    return JSON.stringify([...layer.querySelectorAll(".label")].map((tag) => {
      const b = tag.getBoundingClientRect();
      return { label: Number(tag.textContent), bbox: [b.left, b.top, b.width, b.height] };
    }));
  };

  const draw = (items) => {
    if (!ensureHost()) return;
    const shownItems = items.filter(({ r }) => inViewport(r));
    const tags = shownItems.map(({ r, label }) => {
      const box = document.createElement("div");
      box.className = "box";
      box.style.setProperty("--c", COLOURS[label % COLOURS.length]);
      box.style.left = r.left + "px";
      box.style.top = r.top + "px";
      box.style.width = r.width + "px";
      box.style.height = r.height + "px";
      const tag = document.createElement("div");
      tag.className = "label";
      tag.textContent = String(label);
      box.appendChild(tag);
      layer.appendChild(box);
      return tag;
    });
    // Measure every badge first, then move them all: one layout, not one per badge.
    const sized = shownItems.map(({ el, r }, i) => {
      const b = tags[i].getBoundingClientRect();
      return { r, texts: textRects(el, r), w: b.width, h: b.height };
    });
    placeBadges(sized, sized.length ? pageTextRects() : []).forEach((b, i) => {
      tags[i].style.left = b.left - shownItems[i].r.left - BORDER + "px";
      tags[i].style.top = b.top - shownItems[i].r.top - BORDER + "px";
    });
  };

  // options: {all: bool, first: number (the first label), draw: bool}.
  const mark = (options) => {
    const opts = options || {};
    const first = Number.isInteger(opts.first) ? opts.first : 0;
    clear();
    const beyond = { above: 0, below: 0 };
    const found = candidates(!!opts.all, beyond).map(({ el, r }, i) => ({ el, r, label: first + i }));
    marked = found.map((f) => f.el);
    firstLabel = first;
    if (!opts.all) outOfView = [beyond.above, beyond.below];
    if (opts.draw !== false) draw(found);
    return JSON.stringify({
      url: document.baseURI,
      title: document.title,
      scroll: [scrollX, scrollY],
      viewport: [innerWidth, innerHeight],
      page_height: Math.max(document.documentElement.scrollHeight, document.body ? document.body.scrollHeight : 0),
      elements: found.map(({ el, r, label }) => describe(el, r, label)),
      out_of_view: opts.all ? null : outOfView,
    });
  };

  const beyondView = () => {
    const beyond = { above: 0, below: 0 };
    candidates(false, beyond);
    return [beyond.above, beyond.below];
  };

  // The label of the marked element that holds `node` (the event target of a click), or null.
  const labelOf = (node) => {
    for (let i = 0; i < marked.length; i++) {
      if (marked[i] === node || dom.contains(marked[i], node)) return firstLabel + i;
    }
    return null;
  };

  // Marks drawn at viewport positions are wrong once the page scrolls: hide them until the next mark().
  const hide = () => {
    if (layer) layer.replaceChildren();
  };

  // The layer out of the document and back, as it was (the page is saved without the app's numbers). A mark()
  // made meanwhile builds a host of its own, and the one taken out stays out.
  let detached = null;
  const detach = () => {
    if (host && host.isConnected) {
      detached = host;
      host.remove();
    }
    return true;
  };
  const attach = () => {
    if (detached && detached === host && !host.isConnected && document.documentElement) {
      document.documentElement.appendChild(host);
    }
    detached = null;
    return true;
  };

  // The interactive element around `node` (itself included), whether marked or not.
  const interactiveOf = (node) => (node instanceof Element ? dom.closest(node, INTERACTIVE) : null);

  const identities = (el) => {
    const r = dom.getBoundingClientRect(el);
    return describe(el, r, null);
  };

  // The element an XPath names under the core's rules (dom_rules.js), or null.
  const resolve = (xpath) => rl.resolve(xpath);

  // Where a real click on the element lands: the centre of its first client box that is hit-testable,
  // after scrolling it into view when it is not. Null when it does not resolve or nothing of it can be hit.
  const pointFor = (xpath) => {
    const el = resolve(xpath);
    if (!el) return JSON.stringify(null);
    const whole = dom.getBoundingClientRect(el);
    if (!inViewport(whole) || whole.top < 0 || whole.bottom > innerHeight) {
      dom.scrollIntoView(el, { block: "center", inline: "nearest" });
    }
    for (const r of [...dom.getClientRects(el), dom.getBoundingClientRect(el)]) {
      if (r.width <= 0 || r.height <= 0 || !inViewport(r)) continue;
      const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || dom.contains(el, hit))) return JSON.stringify([x, y]);
    }
    return JSON.stringify(null);
  };

  // Scroll the window (xpath null) or an element by two thirds of its visible height; whether anything moved.
  const scroll = (xpath, direction) => {
    const sign = direction === "up" ? -1 : 1;
    const el = xpath ? resolve(xpath) : null;
    if (xpath && !el) return false;
    const box = el || document.scrollingElement || document.documentElement;
    const before = dom.scrollTop(box);
    const height = el ? dom.clientHeight(el) : innerHeight;
    dom.scrollBy(box, 0, sign * Math.round((height * 2) / 3));
    return dom.scrollTop(box) !== before;
  };

  // The page's visible text for a text-only reader: one line per block (a paragraph, a list item, a flex or grid
  // item: Chromium's innerText runs flex items together), table cells and inline boxes set apart by margin,
  // padding or a border separated by a space ("Paperfield Computation and Language", not
  // "PaperfieldComputation and Language"), and inline runs kept whole ("Hel<b>lo</b>" is "Hello"). Hidden
  // text, scripts, styles and images are left out; a text area shows its text and a list its chosen option;
  // <pre> keeps its lines. Core's text browser follows these rules (core/agent/page_text.py) with Chromium's
  // default styles and each element's own style attribute, no style sheet: where the page's style sheets change no
  // display, margin or visibility, the two give the same lines (but two links side by side, which it sets apart by
  // a space, as a page's style always does).
  const SKIPPED = new Set(["script", "style", "noscript", "template", "head", "iframe", "object", "embed",
                           "canvas", "video", "audio", "img", "svg", "math", HOST_TAG]);
  const spacedInline = (style) =>
    ["marginLeft", "marginRight", "paddingLeft", "paddingRight", "borderLeftWidth", "borderRightWidth"]
      .some((side) => parseFloat(style[side]) > 0);
  const pageText = () => {
    const lines = [];
    let line = "";
    let gap = 0; // what goes before the next text: 0 nothing, 1 a space, 2 a new line
    const put = (text) => {
      if (gap === 2 && line) { lines.push(line); line = ""; }
      else if (gap === 1 && line) line += " ";
      gap = 0;
      line += text;
    };
    const text = (node, style) => {
      if (style.visibility !== "visible") return;
      const raw = node.data;
      if (/^pre/.test(style.whiteSpace) || style.whiteSpace === "break-spaces") {
        raw.split("\n").forEach((part, i) => { if (i) gap = 2; if (part) put(part); });
        return;
      }
      const squashed = raw.replace(/[ \t\n\r\f]+/g, " ");
      if (squashed.startsWith(" ")) gap = Math.max(gap, 1);
      if (squashed.trim()) put(squashed.trim());
      if (squashed.endsWith(" ") && squashed.trim()) gap = Math.max(gap, 1);
    };
    const field = (el) => (dom.localName(el) === "select" ? textOf(el) : squash(el.value));
    const walk = (node, style) => {
      for (let child = dom.firstChild(node); child; child = dom.nextSibling(child)) {
        const type = dom.nodeType(child);
        if (type === Node.TEXT_NODE) { text(child, style); continue; }
        const tag = type === Node.ELEMENT_NODE ? dom.localName(child) : "";
        if (!tag || SKIPPED.has(tag)) continue;
        if (tag === "br") { gap = 2; continue; }
        const own = getComputedStyle(child);
        const display = own.display;
        if (display === "none") continue;
        const kind = display === "contents" ? 0
          : display === "inline" ? (spacedInline(own) ? 1 : 0)
          : /^(inline|ruby|table-cell)/.test(display) ? 1 : 2;
        gap = Math.max(gap, kind);
        if (tag === "input") continue; // a field's value is in its element's text, not the page's
        if (tag === "select" || tag === "textarea") {
          const value = own.visibility === "visible" ? field(child) : "";
          if (value) { gap = Math.max(gap, 1); put(value); }
        } else {
          walk(child, own);
        }
        gap = Math.max(gap, kind);
      }
    };
    if (document.body) walk(document.body, getComputedStyle(document.body));
    if (line) lines.push(line);
    return lines.join("\n");
  };

  rl.som = {
    resolve,
    pointFor,
    scroll,
    pageText,
    mark: (json) => mark(json ? JSON.parse(json) : {}),
    clear: () => (clear(), true),
    hide,
    detach,
    attach,
    labelOf,
    labelBoxes,
    // How many elements the last mark() of the view left out above and below it (JSON [above, below]); counted
    // now on a document not marked yet (a page that replaced the marked one meanwhile).
    outOfView: () => JSON.stringify(outOfView || beyondView()),
    // For tests and audits: where badges go for given rectangles, and the page's text in view (JSON out).
    placeBadges: (items, pageTexts) => JSON.stringify(placeBadges(items, pageTexts)),
    pageTextRects: () => JSON.stringify(pageTextRects()),
    interactiveOf,
    isDisabled,
    identities,
    isTextField,
    textOf,
  };
})();
