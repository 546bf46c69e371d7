// Record overlays, hover and click reporting on the rendered page (run in ApplicationWorld).
//
// Injected at document creation after qwebchannel.js and dom_rules.js, so `__recordlens.xpathOf` and
// `isRemoved` are the very rules the core's XPaths follow. Defines `__recordlens.overlay`, which Python drives
// with runJavaScript; events (clicks, hover) travel back through the QWebChannel object "recordlens".
//
// Boxes live in the closed shadow root of one <recordlens-overlay> element appended to <html> (by
// shadow_host.js): the page's CSS cannot reach them, pointer-events: none lets every click fall through to the
// page, and since it is a differently named last child of <html> it changes no page element's XPath.
(() => {
  const rl = (globalThis.__recordlens = globalThis.__recordlens || {});
  if (rl.overlay) return;
  // A page node's properties are read through `dom` (dom_rules.js): a <form>'s named controls shadow the form's own.
  const dom = rl.dom;

  const HOST_TAG = "recordlens-overlay";
  const TIP_CHARS = 80;
  // The overlay's own element is no page content: keep it out of the addressing rules. dom_rules.js may be run
  // again later (it redefines isRemoved), so this is re-applied before every use.
  const guardRules = () => {
    const base = rl.isRemoved;
    if (!base || base.__overlayAware) return;
    const aware = (el) => dom.localName(el) === HOST_TAG || base(el);
    aware.__overlayAware = true;
    rl.isRemoved = aware;
  };

  // rl.normaliseXpath and rl.resolve: dom_rules.js (one resolver for the overlay and the site browser).

  // ---- the channel to Python --------------------------------------------------------------------------

  const { report, connect } = rl.bridge("recordlens"); // see bridge.js

  // ---- the overlay layer -------------------------------------------------------------------------------

  // --s is 1 / the page's zoom: boxes' borders, badges and the tip keep their size on screen at any zoom.
  // `all: initial` resets no `direction`: the host inherits the page's (rtl on an Arabic page), under which the
  // tip's XPath would read "body[1]/…/h3[1]/", its leading slash last. The tip reads left to right; its text line
  // (dir=auto) starts on its own side: an Arabic text at the tip's right, not flush left under the XPath.
  const STYLE = `
    :host { all: initial; }
    .layer { position: absolute; left: 0; top: 0; width: 0; height: 0; }
    .box { position: absolute; box-sizing: border-box; border: calc(2px * var(--s, 1)) solid var(--c);
           border-radius: 2px; background: color-mix(in srgb, var(--c) 16%, transparent); }
    .box.selected { border-width: calc(3px * var(--s, 1)); background: color-mix(in srgb, var(--c) 32%, transparent);
                    box-shadow: 0 0 0 calc(2px * var(--s, 1)) #fff, 0 0 0 calc(4px * var(--s, 1)) var(--c);
                    z-index: 2; }
    .layer.has-selection .box:not(.selected) { opacity: 0.55; }
    /* Review: the true record of a pair, where it covers other elements than the predicted one: dashed, unfilled,
       beside the predicted record's filled box in the same class colour. */
    .box.outline-true { border-style: dashed; background: transparent; }
    .box.outline-true.selected { background: color-mix(in srgb, var(--c) 10%, transparent); }
    /* A record not yet decided (labelling: proposed) and a true record the run missed (review): dashed, the dashes
       in the record's colour and the gaps in its ink (white or black, whichever reads on the colour), so that the
       line shows on a light page and on a dark one, and reads apart from a decided record's solid line without its
       colour. The border's style stays dashed (what a reader of the style is told); its image draws the dashes. */
    .box[data-state="proposed"], .box[data-state="missed"] {
      border-style: dashed;
      border-image: repeating-linear-gradient(45deg, var(--c) 0 calc(5px * var(--s, 1)),
        var(--ink, #fff) calc(5px * var(--s, 1)) calc(8px * var(--s, 1))) 2; }
    /* Review: a missed true record is hatched as well, nothing predicted on it: apart from a matched one, filled
       plain, and from a pair's true outline, unfilled, whatever the colours look like to its reader. */
    .box[data-state="missed"] {
      background: repeating-linear-gradient(-45deg, color-mix(in srgb, var(--c) 45%, transparent) 0
        calc(2px * var(--s, 1)), color-mix(in srgb, var(--c) 8%, transparent) calc(2px * var(--s, 1))
        calc(7px * var(--s, 1))); }
    .badge { position: absolute; min-width: calc(18px * var(--s, 1)); height: calc(18px * var(--s, 1));
             padding: 0 calc(4px * var(--s, 1)); box-sizing: border-box; border-radius: calc(9px * var(--s, 1));
             background: var(--c); color: var(--ink, #fff); font: bold calc(11px * var(--s, 1)) / calc(18px * var(--s, 1))
             system-ui, sans-serif; text-align: center; white-space: nowrap;
             box-shadow: 0 0 0 calc(1px * var(--s, 1)) #fff; z-index: 3; }
    .badge.selected { box-shadow: 0 0 0 calc(2px * var(--s, 1)) #fff, 0 0 0 calc(3px * var(--s, 1)) var(--c);
                      z-index: 4; }
    .hover { position: absolute; box-sizing: border-box; border: calc(2px * var(--s, 1)) dashed #1a73e8;
             display: none; z-index: 5; }
    .tip { position: absolute; display: none; box-sizing: border-box; width: max-content;
           max-width: min(calc(480px * var(--s, 1)), calc(100vw - 24px)); max-height: 40vh; overflow: hidden;
           padding: calc(4px * var(--s, 1)) calc(6px * var(--s, 1)); z-index: 6;
           background: rgba(32, 33, 36, 0.92); color: #fff; border-radius: calc(4px * var(--s, 1));
           font: calc(11px * var(--s, 1)) / 1.35 ui-monospace, monospace; white-space: pre-wrap;
           overflow-wrap: anywhere; direction: ltr; unicode-bidi: isolate; text-align: left; }
    .tip .text { font-family: system-ui, sans-serif; color: #e8eaed; overflow-wrap: break-word; text-align: start; }
    /* The element cursor (the keyboard's pointer: E acts on it as a click): solid black between white rings,
       unfilled, just outside the element (CURSOR_GAP), so that it reads apart from the pointer's dashed blue
       hover box and from a record's filled box on the same element, on light pages and dark ones. */
    .cursor { position: absolute; box-sizing: border-box; display: none; z-index: 5; pointer-events: none;
              border: calc(3px * var(--s, 1)) solid #000; border-radius: calc(3px * var(--s, 1));
              box-shadow: 0 0 0 calc(1px * var(--s, 1)) #fff, inset 0 0 0 calc(1px * var(--s, 1)) #fff; }
  `;

  let host = null;
  let scale = 1; // 1 / the page's zoom (setScale)
  let layer = null;
  let hoverBox = null;
  let tip = null;
  let cursorBox = null;

  const ensureHost = () => {
    if (host && host.isConnected) return true;
    const made = rl.shadowHost(HOST_TAG, "absolute", STYLE, ["layer", "hover", "tip", "cursor"]);
    if (!made) return false;
    host = made.host;
    host.style.setProperty("--s", String(scale));
    [layer, hoverBox, tip, cursorBox] = made.parts;
    return true;
  };

  // Where the host's origin is on screen: every box is placed relative to it, which absorbs scrolling,
  // a positioned or offset <html>, and anything else between the viewport and the document.
  const origin = () => {
    const r = host.getBoundingClientRect();
    return [r.left, r.top];
  };

  const rectOf = (el, [ox, oy]) => {
    const r = dom.getBoundingClientRect(el);
    return [r.left - ox, r.top - oy, r.width, r.height];
  };

  const visible = (rect) => rect[2] > 0 || rect[3] > 0;

  // Whether the <details> `details` keeps `el`, an element inside it, out of sight: it is closed and `el` is not in
  // its first <summary>, the one part a closed <details> shows.
  const shutAway = (details, el) => {
    if (dom.localName(details) !== "details" || details.open) return false;
    const summary = dom.querySelector(details, ":scope > summary");
    return !summary || !dom.contains(summary, el);
  };

  // Whether `el` lies in the hidden part of a closed <details>. Chromium (140) hides that part with
  // content-visibility on the details' content slot, and still lays its elements out: they report a box, the
  // width of the page, below the summary, where nothing is painted. So the box alone does not tell.
  // Asked of every record's elements at every drawing: the closed <details> around it are found natively
  // (`closest`), not by a walk up every ancestor in script (ten times the time on a large page).
  const CLOSED = "details:not([open])";
  const closedAround = (el) => {
    const parent = dom.parentElement(el);
    return parent && dom.closest(parent, CLOSED);
  };
  const inClosedDetails = (el) => {
    for (let d = closedAround(el); d; d = closedAround(d)) {
      if (shutAway(d, el)) return true;
    }
    return false;
  };

  // Whether `el` or an element around it is drawn wholly transparent (opacity: 0): the element enclosing it
  // that is, or null. Asked of every record's elements at every drawing, so each element's answer is kept for
  // the drawing (`concealment`): a page's style changes under no script.
  let concealment = new WeakMap();
  const transparentBy = (el) => {
    const chain = [];
    let found = null;
    for (let e = el; e; e = dom.parentElement(e)) {
      const known = concealment.get(e);
      if (known !== undefined) {
        found = known;
        break;
      }
      chain.push(e);
      if (Number(getComputedStyle(e).opacity) === 0) {
        found = e;
        break;
      }
    }
    chain.forEach((e) => concealment.set(e, found));
    return found;
  };

  // Whether the page paints nothing of `el` though it is laid out with a box: hidden by visibility (its own,
  // inherited or not), transparent, or cut to no area (a height of 0 with its overflow hidden).
  const CLIPS = new Set(["hidden", "clip", "scroll", "auto"]);
  let ownStyles = new WeakMap(); // el -> [hidden, clips], kept for the drawing as `concealment` is
  const ownStyle = (el) => {
    let known = ownStyles.get(el);
    if (known === undefined) {
      const style = getComputedStyle(el);
      known = [style.visibility !== "visible", CLIPS.has(style.overflowX) || CLIPS.has(style.overflowY)];
      ownStyles.set(el, known);
    }
    return known;
  };
  const concealed = (el, rect) => {
    const [hidden, clips] = ownStyle(el);
    return hidden || !!transparentBy(el) || ((rect[2] === 0 || rect[3] === 0) && clips);
  };

  // Whether the box [x, y, w, h] (host coordinates) lies wholly off the page, where no scrolling brings it: left
  // of or above the document (left: -9999px), or right of or below all that can be scrolled to.
  // The page's edges [left, top, right, bottom] in host coordinates, read once for all the boxes of a drawing.
  // A page whose lines run right to left (or stack leftwards, vertical-rl) scrolls leftwards from its origin, and
  // one whose vertical lines run upwards scrolls up: its edge is on that side (the body's writing mode is the
  // page's, CSS Writing Modes' principal one).
  const pageEdges = (o) => {
    const root = document.documentElement;
    const style = getComputedStyle(document.body || root);
    const vertical = !style.writingMode.startsWith("horizontal");
    const upward = vertical && (style.writingMode === "sideways-lr") === (style.direction === "ltr");
    const leftward = vertical ? style.writingMode.endsWith("-rl") : style.direction === "rtl";
    const left = -window.scrollX - o[0] - (leftward ? root.scrollWidth - root.clientWidth : 0);
    const top = -window.scrollY - o[1] - (upward ? root.scrollHeight - root.clientHeight : 0);
    return [left, top, left + root.scrollWidth, top + root.scrollHeight, leftward, upward];
  };
  // Off the page on the side where the page begins (left, or right on a right-to-left page; top, or bottom on an
  // upward one), where no scrolling reaches. Past the far side an element may still be reached: a page that
  // scrolls inside a container of its own (html and body overflow hidden) is longer than the root measures.
  const offPage = (rect, [left, top, right, bottom, leftward, upward]) =>
    (leftward ? rect[0] >= right : rect[0] + rect[2] <= left)
    || (upward ? rect[1] >= bottom : rect[1] + rect[3] <= top);

  // The element's box, or null when the page shows nothing of it although it has one (closed <details>, hidden,
  // transparent, cut to nothing or off the page: whyUnseen tells which). `closedOnPage`: whether the page has a
  // closed <details> at all (most have none: no walk up then); `edges`: pageEdges(o).
  const shownRectOf = (el, o, closedOnPage, edges) => {
    if (closedOnPage && inClosedDetails(el)) return null;
    const rect = rectOf(el, o);
    return visible(rect) && (concealed(el, rect) || offPage(rect, edges)) ? null : rect;
  };

  const hasClosedDetails = () => document.querySelector("details:not([open])") !== null;

  // ---- records ---------------------------------------------------------------------------------------

  // Each entry: {xpaths, colour, label, selected, elements: [el|null], boxes: [div|null], badge: div|null,
  // textKey (the XPaths joined), badgeSize ([w, h] once measured), rightToLeft (whether its text reads right to
  // left, read once), spot and crowded (where its badge goes, and whether it is left out there: see placeBadges)}.
  let records = [];
  let generation = 0;

  const place = (div, [x, y, w, h]) => {
    div.style.left = x + "px";
    div.style.top = y + "px";
    div.style.width = w + "px";
    div.style.height = h + "px";
  };

  // ---- geometry helpers ------------------------------------------------------------------------------

  const overlaps = (a, b) => a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];

  // The line boxes of the text inside `el` (host coordinates), at most `limit` text nodes: what a badge or
  // the tip must not cover. Whitespace-only nodes and removed kinds (script, style...) are skipped.
  const textRects = (el, o, limit = 400) => {
    const out = [];
    const range = document.createRange();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => {
        const parent = dom.parentElement(n);
        if (!parent || !n.data.trim() || (rl.isRemoved && rl.isRemoved(parent))) return NodeFilter.FILTER_REJECT;
        return NodeFilter.FILTER_ACCEPT;
      },
    });
    for (let n = walker.nextNode(), k = 0; n && k < limit; n = walker.nextNode(), k++) {
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width > 0 && r.height > 0) out.push([r.left - o[0], r.top - o[1], r.width, r.height]);
      }
    }
    return out;
  };

  // Rectangles bucketed on a coarse grid, so "does this spot cover any of them" is cheap on large pages. A cell's
  // key is a number (columns and rows offset to stay positive): no string is made per look-up.
  const CELL = 96;
  const cellOf = (v) => Math.floor(v / CELL) + 32768;
  const grid = () => {
    const cells = new Map();
    const add = (r) => {
      for (let gx = cellOf(r[0]); gx <= cellOf(r[0] + r[2]); gx++) {
        for (let gy = cellOf(r[1]); gy <= cellOf(r[1] + r[3]); gy++) {
          const k = gx * 65536 + gy;
          const cell = cells.get(k);
          if (cell) cell.push(r);
          else cells.set(k, [r]);
        }
      }
    };
    // `hits(r, counts)` looks only at the rectangles `counts` accepts (a rectangle may carry a fifth item, its
    // owner, to be told apart by).
    const hits = (r, counts) => {
      for (let gx = cellOf(r[0]); gx <= cellOf(r[0] + r[2]); gx++) {
        for (let gy = cellOf(r[1]); gy <= cellOf(r[1] + r[3]); gy++) {
          const cell = cells.get(gx * 65536 + gy);
          if (cell && cell.some((other) => overlaps(r, other) && (counts === undefined || counts(other)))) return true;
        }
      }
      return false;
    };
    return { add, hits };
  };

  // ---- badges ----------------------------------------------------------------------------------------

  // Where a record's badge goes. First beside it, in this order: left of its top-left corner, above it, right of
  // the record, inside its top-right corner, inside its top-left corner, below it; for a record that reads right
  // to left, the mirror of that (its text starts at its top-right corner). Then inside its box where its own text
  // leaves room: at the end of a line, in the gap between two columns, under its last line, the places nearest
  // the corner its text starts from first. The record's box is taken as far as the view shows it across: on a
  // record that runs past the view's right edge, its right-hand corner is the view's.
  // A spot must lie inside the document and, across, inside the view (a badge cut by an edge is unreadable), and
  // cover no record's text (its own included: a badge on a record's first letters hides what the record is), no
  // other badge and no other record's box (in the row above, a badge reads as that row's; a record the badge's
  // own record lies in is no other record there: a nested record's badge is inside it whatever its spot). Of such
  // spots, one on no text of the page at all (a date between two rows) is taken first.
  // Where no spot is free, the badge is left out rather than put where it misleads or hides: records too close
  // together for a badge each (rows a few pixels high, zoomed far out, a list whose rows touch and fill the view)
  // show the badges that have room, in the records' order. A record left out still has its `spot`, where its
  // badge shows while it is selected (over the others: it is the one looked at). A record out of view across (a
  // wide table, a vertical page scrolled sideways) has none, selected or not: a badge kept at the view's edge
  // would lie on the neighbour's text there, and the badges of every record selected out of view (Ctrl+A) in one
  // heap on it.
  const GAP = 2;
  const spots = ([l, t, r, b], [w, h], rightToLeft) => (rightToLeft ? [
    [r + GAP * scale, t], [r - w, t - h - GAP * scale], [l - w - GAP * scale, t], [l, t], [r - w, t],
    [r - w, b + GAP * scale],
  ] : [
    [l - w - GAP * scale, t], [l, t - h - GAP * scale], [r + GAP * scale, t], [r - w, t], [l, t],
    [l, b + GAP * scale],
  ]).map(([x, y]) => [x, y, w, h]);

  // The record's own lines looked at for room inside its box: the first ones, where a badge is read as the
  // record's (and a bound on the work on a record of long text).
  const LINES_LOOKED = 12;

  // Spots inside the box [l, t, r, b] beside its text's first lines (`own`: [x, y, w, h] each): after a line's
  // end or before its start across, level with a line, just under one or at the box's top or bottom; nearest
  // the corner where the text starts (top left, or top right when it reads right to left) first.
  const roomInside = ([l, t, r, b], [w, h], own, rightToLeft) => {
    const g = GAP * scale;
    const lines = own.slice(0, LINES_LOOKED);
    const across = [l + g, r - w - g, ...lines.flatMap((x) => [x[0] + x[2] + g, x[0] - w - g])]
      .filter((x) => x >= l && x + w <= r);
    const down = [t + g, b - h - g, ...lines.flatMap((x) => [x[1], x[1] + x[3] + g])]
      .filter((y) => y >= t && y + h <= b);
    const xs = [...new Set(across)].sort((a, c) => (rightToLeft ? c - a : a - c));
    const ys = [...new Set(down)].sort((a, c) => a - c);
    return ys.flatMap((y) => xs.map((x) => [x, y, w, h]));
  };

  // Whether the box a = [x, y, w, h] lies within b (half a pixel's rounding allowed).
  const within = (a, b) => a[0] >= b[0] - 0.5 && a[1] >= b[1] - 0.5 && a[0] + a[2] <= b[0] + b[2] + 0.5
    && a[1] + a[3] <= b[1] + b[3] + 0.5;

  // Whether a record's text runs right to left across (Arabic, Hebrew: its first line starts at the right).
  const readsRightToLeft = (el) => {
    if (!el) return false;
    const style = getComputedStyle(el);
    return style.direction === "rtl" && style.writingMode.startsWith("horizontal");
  };

  // Per record: {spot, crowded} (crowded: no free spot, the badge shows only while its record is selected; spot
  // null: out of view across), or null for a record without a box. `texts`: every record's text; `ownTexts`: each
  // record's own lines, in page order; `pageTexts`: the page's text (records' and the rest).
  const placeBadges = (boxesByRecord, texts, ownTexts, pageTexts, bounds) => {
    const placed = grid();
    const owned = grid();
    const asRect = (box) => [box[0], box[1], box[2] - box[0], box[3] - box[1]];
    boxesByRecord.forEach((box, i) => box && owned.add([...asRect(box), i]));
    const inside = (s) => s[0] >= bounds[0] && s[1] >= bounds[1] && s[0] + s[2] <= bounds[2];
    return boxesByRecord.map((box, i) => {
      if (!box) return null;
      if (box[2] <= bounds[0] || box[0] >= bounds[2]) return { spot: null, crowded: true }; // out of view across
      const size = records[i].badgeSize || [18 * scale, 18 * scale];
      const rightToLeft = records[i].rightToLeft;
      const shown = [Math.max(bounds[0], box[0]), box[1], Math.min(bounds[2], box[2]), box[3]];
      const mine = asRect(box);
      const foreign = (c) => owned.hits(c, (other) => other[4] !== i && !within(mine, other));
      const free = (c) => !placed.hits(c) && !texts.hits(c) && !foreign(c);
      const clear = (c) => free(c) && !pageTexts.hits(c);
      // The spots beside the record first; those inside its box are worked out only when none of them is clear.
      const beside = spots(shown, size, rightToLeft).filter(inside);
      let chosen = beside.find(clear);
      let candidates = beside;
      if (!chosen) {
        candidates = [...beside, ...roomInside(shown, size, ownTexts[i], rightToLeft).filter(inside)];
        chosen = candidates.find(clear) || candidates.find(free);
      }
      if (chosen) {
        placed.add(chosen);
        return { spot: chosen, crowded: false };
      }
      const edge = [shown[0], Math.max(bounds[1], shown[1]), ...size];
      return { spot: candidates.find((c) => !foreign(c)) || candidates[0] || edge, crowded: true };
    });
  };

  // A badge's size as drawn, fractions of a pixel included (offsetWidth rounds them away: a badge placed by its
  // rounded width against the view's edge ran past it by a third of a pixel).
  const badgeSize = (badge) => {
    const r = badge.getBoundingClientRect();
    return [r.width || 18 * scale, r.height || 18 * scale];
  };

  // Every badge of `list` (records) measured, those left out too: shown unseen for the while, all written before
  // any is read (one layout). A badge left out at one zoom is placed at the next by its size at that one.
  const measureBadges = (list) => {
    const hidden = list.filter((r) => r.badge.style.display === "none");
    hidden.forEach((r) => {
      r.badge.style.visibility = "hidden";
      r.badge.style.display = "";
    });
    list.forEach((r) => (r.badgeSize = badgeSize(r.badge)));
    hidden.forEach((r) => {
      r.badge.style.display = "none";
      r.badge.style.visibility = "";
    });
  };

  // A badge shows where it was placed, unless it had no room of its own and its record is not selected.
  const showBadge = (record) => {
    if (!record.badge) return;
    const shown = !!record.spot && (!record.crowded || record.selected);
    record.badge.style.display = shown ? "" : "none";
    if (shown) {
      record.badge.style.left = record.spot[0] + "px";
      record.badge.style.top = record.spot[1] + "px";
    }
  };

  // Text rectangles of every record, kept while the record's box stays where it was (a plain scroll of the
  // document moves nothing in host coordinates, so scrolling costs no text measuring). Keyed by the record's
  // XPaths, so that drawing the records again after one changed (an accept, a reject) measures that one only.
  let textCache = new Map();
  let marks = [];

  // The page's text, every line box of it in a grid (host coordinates): the first `PAGE_TEXT_NODES` text nodes in
  // page order (some 25 ms for the 3,500 of a 2 MB page). A badge keeps off it where it can.
  const PAGE_TEXT_NODES = 20000;
  const pageTextGrid = (o) => {
    const found = grid();
    if (document.body) textRects(document.body, o, PAGE_TEXT_NODES).forEach(found.add);
    return found;
  };

  // The records' texts (`textCache`) in a grid, and each record's own lines.
  const recordTexts = (unions, o) => {
    const texts = grid();
    const own = records.map((record, i) => {
      const key = unions[i] ? unions[i].join(",") : "";
      let cached = textCache.get(record.textKey);
      const same = cached && cached.key === key && cached.elements.length === record.elements.length
        && cached.elements.every((el, j) => el === record.elements[j]);
      if (!same) {
        cached = { key, elements: record.elements,
          rects: key ? record.elements.flatMap((el) => (el ? textRects(el, o) : [])) : [] };
        textCache.set(record.textKey, cached);
      }
      cached.rects.forEach(texts.add);
      return cached.rects;
    });
    return [texts, own];
  };

  // Where the badges went, and what that was worked out from (every record's box, badge size and direction, the
  // view across, the page's size): a scroll down the page changes none of it, so a frame of a scroll places no
  // badge again, and measures no text. The page's text is measured again only when its layout changed.
  let placement = { key: null, badges: [], pageKey: null, pageTexts: null };

  // Reads every rectangle first, then writes every position: interleaving them would force a layout per box.
  // Returns the number of boxes drawn (resolved elements that have a rendered box).
  const layout = () => {
    if (!records.length || !ensureHost()) return 0;
    let drawn = 0;
    const o = origin();
    const closed = hasClosedDetails();
    const edges = pageEdges(o);
    const rects = records.map((r) => r.elements.map((el) => (el ? shownRectOf(el, o, closed, edges) : null)));
    const unions = rects.map((list) => {
      let box = null;
      for (const rect of list) {
        if (!rect || !visible(rect)) continue;
        const [x, y, w, h] = rect;
        box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x + w), Math.max(box[3], y + h)]
          : [x, y, x + w, y + h];
      }
      return box;
    });
    records.forEach((record) => {
      if (record.rightToLeft === undefined) record.rightToLeft = readsRightToLeft(record.elements.find(Boolean));
    });
    const root = document.documentElement;
    const left = -window.scrollX - o[0];
    const top = -window.scrollY - o[1];
    // Across, a badge stays within what the view shows of the page: on a page wider than the view, a badge beside
    // a record that reaches the view's right edge would be out of sight (badges are placed again on a scroll
    // sideways).
    const shownLeft = left + window.scrollX;
    const bounds = [shownLeft, top, shownLeft + root.clientWidth];
    const body = document.body ? rectOf(document.body, o).join(",") : "";
    const pageKey = [root.scrollWidth, root.scrollHeight, root.clientWidth, scale, left, top, body].join("|");
    const key = [pageKey, bounds.join(","), unions.map((u) => (u ? u.join(",") : "")).join(";"),
      records.map((r) => `${r.badgeSize}${r.rightToLeft ? "r" : ""}`).join(";")].join("|");
    if (placement.key !== key) {
      const pageTexts = placement.pageKey === pageKey ? placement.pageTexts : pageTextGrid(o);
      const [texts, own] = recordTexts(unions, o);
      placement = { key, badges: placeBadges(unions, texts, own, pageTexts, bounds), pageKey, pageTexts };
    }
    const badges = placement.badges;
    // Where each record starts, as a fraction of the document's height: the scroll bar's marks.
    const height = Math.max(root.scrollHeight, 1);
    marks = unions.map((u) => (u ? Math.max(0, Math.min(1, (u[1] - top) / height)) : null));
    records.forEach((record, i) => {
      record.boxes.forEach((box, j) => {
        const rect = rects[i][j];
        if (!box) return;
        const shown = !!rect && visible(rect);  // none: inside a closed <details> (closed since last drawn, too)
        box.style.display = shown ? "" : "none";
        if (!shown) return;
        place(box, rect);
        drawn += 1;
      });
      record.seen = !!unions[i];
      record.spot = badges[i] && badges[i].spot;
      record.crowded = !!badges[i] && badges[i].crowded;
      showBadge(record);
    });
    return drawn;
  };

  let reportedY = -1;
  const reportScroll = () => {
    const y = Math.round(window.scrollY);
    if (y !== reportedY) report("scrolled", (reportedY = y));
  };

  let scheduled = false;
  const scheduleLayout = () => {
    if (!records.length) {
      requestAnimationFrame(() => {
        hoverUnderPointer();
        placeCursor();
        reportScroll();
      });
      return;
    }
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      layout();
      hoverUnderPointer();
      if (hovered) placeHover(hovered);
      placeCursor();
      reportScroll();
    });
  };

  const applySelection = () => {
    if (!layer) return;
    let any = false;
    for (const record of records) {
      any = any || record.selected;
      for (const box of record.boxes) if (box) box.classList.toggle("selected", record.selected);
      if (record.badge) record.badge.classList.toggle("selected", record.selected);
      if (record.crowded) showBadge(record);
    }
    layer.classList.toggle("has-selection", any);
  };

  // What a drawing of a record is made from besides its elements: one drawn again alike keeps its boxes and badge.
  const lookOf = (r) => [r.textKey, r.colour, r.ink, r.label, r.outline, r.state].join("\u0000");

  // spec: {records: [{xpaths: [...], colour: "#rrggbb", ink: "#rrggbb", label: "1", selected: bool, outline: "" or
  // "true", state: "" or the record's state (labelling: proposed, accepted, rejected, edited; review: matched,
  // partial, missed, spurious: `data-state` on its boxes, which the style draws by)}], generation: n}.
  // Returns JSON {records, xpaths, resolved, boxes, generation, marks, built, unseen (per record: null, or why it
  // has no box: whyUnseen)}; "painted" is reported once the
  // frame is out. A record drawn before with the same XPaths (resolving to the same elements), colour, label and
  // state keeps its boxes and badge: after an accept or a reject only what changed is built, and no badge is
  // measured again.
  const show = (spec) => {
    guardRules();
    if (!ensureHost()) return JSON.stringify({ error: "no document" });
    const drawnBefore = new Map();
    for (const r of records) {
      const key = lookOf(r);
      if (!drawnBefore.has(key)) drawnBefore.set(key, []);
      drawnBefore.get(key).push(r);
    }
    const memo = new Map();
    concealment = new WeakMap(); // styles read again at each drawing, once
    ownStyles = new WeakMap();
    let xpathCount = 0;
    let resolved = 0;
    let built = 0;
    records = (spec.records || []).map((r) => {
      const colour = String(r.colour || "#1f77b4");
      const xpaths = (r.xpaths || []).map(String);
      const label = String(r.label ?? "");
      const outline = String(r.outline || ""); // "true": a pair's true record, drawn apart in review
      const state = String(r.state || "");
      // White or black, as the app chose for the colour (annotator/qt/contrast.py `ink_on`: the one home of the
      // rule, which the app's widgets use too); a record given none keeps the style's white.
      const ink = r.ink ? String(r.ink) : "";
      const textKey = xpaths.join("\n");
      const elements = xpaths.map((x) => rl.resolve(x, memo));
      xpathCount += xpaths.length;
      resolved += elements.filter(Boolean).length;
      const same = drawnBefore.get(lookOf({ textKey, colour, ink, label, outline, state })) || [];
      const k = same.findIndex((old) => old.elements.every((el, j) => el === elements[j])
        && [...old.boxes, old.badge].every((div) => !div || div.parentNode === layer));
      if (k >= 0) {
        const kept = same.splice(k, 1)[0];
        kept.selected = !!r.selected;
        return kept;
      }
      built += 1;
      const fresh = [];
      const boxes = elements.map((el) => {
        if (!el) return null;
        const box = document.createElement("div");
        box.className = outline ? `box outline-${outline}` : "box";
        box.style.setProperty("--c", colour);
        if (ink) box.style.setProperty("--ink", ink); // a dashed box's gaps
        if (state) box.dataset.state = state;
        fresh.push(box);
        return box;
      });
      let badge = null;
      if (elements.some(Boolean)) {
        badge = document.createElement("div");
        badge.className = "badge";
        badge.style.setProperty("--c", colour);
        if (ink) badge.style.setProperty("--ink", ink);
        badge.textContent = label;
        fresh.push(badge);
      }
      return { xpaths, colour, ink, label, outline, state, selected: !!r.selected, elements, boxes, badge, textKey,
        badgeSize: null, fresh };
    });
    for (const left of drawnBefore.values()) {
      for (const old of left) for (const div of [...old.boxes, old.badge]) if (div) div.remove();
    }
    // Records paint in their order (an outer record under the ones after it): a new record's boxes go in before
    // those of the first kept record after it, not last. New records in a row share one insertion. Kept records
    // keep their places: the app never reorders records it draws again (labels follow the records' order).
    let pending = document.createDocumentFragment();
    for (const r of records) {
      if (r.fresh) {
        for (const div of r.fresh) pending.appendChild(div);
        delete r.fresh;
        continue;
      }
      const first = [...r.boxes, r.badge].find(Boolean);
      if (first && pending.firstChild) {
        layer.insertBefore(pending, first);
        pending = document.createDocumentFragment();
      }
    }
    layer.appendChild(pending);
    // One read of every new badge's size (one layout), before layout() places them without further reads.
    measureBadges(records.filter((r) => r.badge && !r.badgeSize));
    const shown = new Set(records.map((r) => r.textKey));
    for (const key of [...textCache.keys()]) if (!shown.has(key)) textCache.delete(key);
    applySelection();
    const drawn = layout();
    // Python numbers its drawings across pages (a new document would restart a page-side count).
    const current = Number.isInteger(spec.generation) ? spec.generation : ++generation;
    // Two frames: the first commits the new boxes, the second runs once that frame has been produced.
    requestAnimationFrame(() => requestAnimationFrame(() => report("painted", current)));
    return JSON.stringify({ records: records.length, xpaths: xpathCount, resolved, boxes: drawn, generation: current,
      marks, built, unseen: records.map((r) => (r.seen ? null : whyUnseen(r))) });
  };

  // Why a record has no box on the page (its first element that resolves tells): "unresolved" (no XPath of it
  // names an element here), "none" (display: none on the element), "none:TAG" (on an enclosing TAG), "head" (in
  // the page's <head>), "details" (inside a closed <details>), "contents" (display: contents: no box of its own)
  // or "size" (a box 0 by 0 px). What a labeller is told of a record selected with nothing to see.
  // "visibility" (visibility: hidden on the element; "visibility:TAG": inherited from an enclosing TAG), "opacity"
  // (opacity: 0; "opacity:TAG" on an enclosing TAG), "offpage" (placed wholly outside the page), "clipped" (no
  // height or width, its overflow hidden).
  const whyUnseen = (record) => {
    const el = record.elements.find(Boolean);
    if (!el) return "unresolved";
    for (let child = null, e = el; e && e !== document.documentElement; child = e, e = dom.parentElement(e)) {
      if (dom.localName(e) === "head") return "head";
      if (getComputedStyle(e).display === "none") return e === el ? "none" : `none:${dom.localName(e)}`;
      if (child && shutAway(e, child)) return "details";
    }
    return whyPaintedNot(el) || (getComputedStyle(el).display === "contents" ? "contents" : "size");
  };

  // Why an element laid out with a box shows nothing there (`concealed`, `offPage`), or null.
  const whyPaintedNot = (el) => {
    if (getComputedStyle(el).visibility !== "visible") {
      let from = el; // the element that set it: the outermost of those hidden around it
      const hiddenToo = (e) => e && getComputedStyle(e).visibility !== "visible";
      while (hiddenToo(dom.parentElement(from))) from = dom.parentElement(from);
      return from === el ? "visibility" : `visibility:${dom.localName(from)}`;
    }
    const clear = transparentBy(el);
    if (clear) return clear === el ? "opacity" : `opacity:${dom.localName(clear)}`;
    const o = ensureHost() ? origin() : [0, 0];
    const rect = rectOf(el, o);
    if (!visible(rect)) return null;
    if (offPage(rect, pageEdges(o))) return "offpage";
    return concealed(el, rect) ? "clipped" : null;
  };

  const select = (index) => {
    records.forEach((r, i) => (r.selected = i === index));
    applySelection();
    return records.some((r) => r.selected);
  };

  // For every XPath: whether it resolved, the resolved element's own XPath, and its box in document
  // coordinates (null when it did not resolve); `visible` is false for elements without a rendered box, and for
  // those whose box shows nothing (`shownRectOf`: in a closed <details>, hidden, transparent, off the page), as
  // the drawing has it. `closed`: hasClosedDetails(), `edges`: pageEdges(o), asked once for all.
  const describe = (xpath, element, o, closed, edges) => {
    if (!element) return { xpath, resolved: false, path: null, rect: null, visible: false };
    const rect = rectOf(element, o);
    const shown = visible(rect) && shownRectOf(element, o, closed, edges) !== null;
    return { xpath, resolved: true, path: rl.xpathOf(element), rect, visible: shown };
  };

  const locate = (xpaths) => {
    guardRules();
    ensureHost();
    const o = host ? origin() : [0, 0];
    const memo = new Map();
    const closed = hasClosedDetails();
    const edges = pageEdges(o);
    return JSON.stringify(xpaths.map((x) => describe(x, rl.resolve(String(x), memo), o, closed, edges)));
  };

  // Every record's badge: its label and its rendered box in document coordinates (null when not drawn). Tests.
  const badgeRects = () => JSON.stringify(records.map((r) => {
    if (!r.badge || r.badge.style.display === "none") return null;
    const b = r.badge.getBoundingClientRect();
    return { label: r.badge.textContent, rect: [b.left + window.scrollX, b.top + window.scrollY, b.width, b.height] };
  }));

  // Each record's badge as drawn, shown or not: its label, its number's colour and its fill (computed), or null
  // for a record with no badge. What a test reads the badges' contrast from.
  const badgeColours = () => JSON.stringify(records.map((r) => {
    if (!r.badge) return null;
    const style = getComputedStyle(r.badge);
    return { label: r.badge.textContent, ink: style.color, fill: style.backgroundColor };
  }));

  // Each record's first box as drawn: its label, its state, its border's style, whether its border is drawn as
  // dashes of the colour and the ink (`dashes`) and its fill hatched (`hatched`), and whether it is drawn selected
  // (computed), or null for a record with no box. What a test reads a drawing from (a pair's dashed true record, a
  // proposed record's dashed box, a missed one's hatching).
  const boxStyles = () => JSON.stringify(records.map((r) => {
    const box = r.boxes.find(Boolean);
    if (!box) return null;
    const style = getComputedStyle(box);
    return { label: r.label, state: box.dataset.state || "", border: style.borderTopStyle,
      dashes: style.borderImageSource !== "none", hatched: style.backgroundImage !== "none",
      selected: box.classList.contains("selected") };
  }));

  const boxes = () => {
    if (!records.length) return "[]";
    const o = origin();
    const closed = hasClosedDetails();
    const edges = pageEdges(o);
    return JSON.stringify(records.map((r) => r.xpaths.map((x, j) => describe(x, r.elements[j], o, closed, edges))));
  };

  // The element's box relative to the viewport, after scrolling it into view (null if it does not resolve).
  const scrollTo = (xpath) => {
    const el = rl.resolve(String(xpath));
    if (!el) return null;
    // An element taller than most of the view is brought in from its top, where its badge is, not its middle.
    const tall = dom.getBoundingClientRect(el).height > 0.8 * (document.documentElement.clientHeight || innerHeight);
    dom.scrollIntoView(el, { block: tall ? "start" : "center", inline: "nearest" });
    if (tall) window.scrollBy(0, -28 * scale);
    const r = dom.getBoundingClientRect(el);
    return JSON.stringify([r.left, r.top, r.width, r.height]);
  };

  // ---- hover -----------------------------------------------------------------------------------------

  let hovered = null;

  // The element's text as the reader sees it (removed kinds skipped), whitespace collapsed, cut at TIP_CHARS.
  const shortText = (el) => {
    let out = "";
    const walk = (node) => {
      for (let c = dom.firstChild(node); c && out.length <= TIP_CHARS; c = dom.nextSibling(c)) {
        const type = dom.nodeType(c);
        if (type === 3 || type === 4) out += " " + c.data;
        else if (type === 1 && !rl.isRemoved(c)) walk(c);
        out = out.replace(/\s+/g, " ");
      }
    };
    walk(el);
    out = out.trim();
    return out.length > TIP_CHARS ? out.slice(0, TIP_CHARS) + "…" : out;
  };

  // The line boxes of the page's text that lie in `area` (host coordinates), from at most `limit` text nodes that
  // show there: what the tip would cover around the hovered element. Elements whose box is off the area are not
  // looked into (one without a box of its own is: its children may have one, unless it renders nothing at all, as
  // a menu hidden with display: none, whose hundreds of links would use up the limit before the text on show).
  const UNSEEN = new Set(["script", "style", "template", "noscript", "head", "title"]);
  const rendersNothing = (el) => UNSEEN.has(dom.localName(el))
    || (dom.getClientRects(el).length === 0 && getComputedStyle(el).display !== "contents");
  const textRectsIn = (area, o, limit = 600) => {
    const out = [];
    const range = document.createRange();
    const off = (r) => r.width > 0 && r.height > 0 && !overlaps([r.left - o[0], r.top - o[1], r.width, r.height], area);
    const walker = document.createTreeWalker(document.body || document.documentElement,
      NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
        acceptNode: (n) => {
          if (dom.nodeType(n) === 1) {
            return rl.isRemoved(n) || dom.localName(n) === HOST_TAG || off(dom.getBoundingClientRect(n))
              || rendersNothing(n)
              ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_SKIP;
          }
          return n.data.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
        },
      });
    for (let n = walker.nextNode(), shown = 0; n && shown < limit; n = walker.nextNode()) {
      range.selectNodeContents(n);
      const before = out.length;
      for (const r of range.getClientRects()) {
        const rect = [r.left - o[0], r.top - o[1], r.width, r.height];
        if (r.width > 0 && r.height > 0 && overlaps(rect, area)) out.push(rect);
      }
      if (out.length > before) shown++;
    }
    return out;
  };

  // How much of `rects` a box [x, y, w, h] covers (area).
  const coverage = (box, rects) => rects.reduce((sum, r) => {
    const ix = Math.min(box[0] + box[2], r[0] + r[2]) - Math.max(box[0], r[0]);
    const iy = Math.min(box[1] + box[3], r[1] + r[3]) - Math.max(box[1], r[1]);
    return sum + (ix > 0 && iy > 0 ? ix * iy : 0);
  }, 0);

  // The tip goes beside the hovered element, never on it: below it, above it, right of it or left of it, at the
  // place of those inside the view that covers the least of the text around (the neighbours' lines the element
  // is read against). Below and above, it may slide across to a gap between words or past a line's end; right and
  // left, away from the element past the text beside it, and up or down along it. Of places that cover as
  // little, the one nearest the element wins, then that order. When none is inside the view (an element about as
  // large as the view), it goes in the corner of the view that covers least of the element's own text. It is
  // always inside the view, and never wider than the view less a margin.
  const MARGIN = 6;
  // The spot chosen last, with what it was chosen for: a frame of a scroll (the tip goes with the page) keeps it
  // while it is still inside the view, rather than weighing the text around again (milliseconds on a dense page).
  let placed = null;
  const placeHover = (el) => {
    if (!ensureHost()) return;
    const o = origin();
    const rect = rectOf(el, o);
    place(hoverBox, rect);
    hoverBox.style.display = visible(rect) ? "block" : "none";
    tip.style.display = "block";
    const w = tip.offsetWidth;
    const h = tip.offsetHeight;
    const root = document.documentElement;
    const view = [-o[0], -o[1], root.clientWidth || window.innerWidth, root.clientHeight || window.innerHeight];
    const [vx, vy, vw, vh] = view;
    const m = MARGIN * scale;
    const clampX = (x) => Math.max(vx + 4, Math.min(x, vx + vw - w - 4));
    const clampY = (y) => Math.max(vy + 4, Math.min(y, vy + vh - h - 4));
    const fits = ([x, y]) => x >= vx && y >= vy && x + w <= vx + vw && y + h <= vy + vh;
    const chosenFor = [rect.join(), w, h, vw, vh].join("|");
    if (placed && placed.el === el && placed.for === chosenFor && fits(placed.spot)) return;
    const [ex, ey, ew, eh] = rect;
    const below = ey + eh + m;
    const above = ey - h - m;
    const along = [ey, ey + eh / 2 - h / 2, ey + eh - h].map(clampY);
    // The text of the view's band the tip could go in: from a tip's height above the element to one below it.
    const band = [vx, Math.max(vy, above), vw, Math.min(vy + vh, below + h) - Math.max(vy, above)];
    const around = textRectsIn(band, o);
    const spots = [[clampX(ex), below], [clampX(ex), above], ...along.map((y) => [ex + ew + m, y]),
      ...along.map((y) => [ex - w - m, y])];
    for (const r of around) {
      for (const x of [r[0] + r[2] + m, r[0] - w - m]) spots.push([clampX(x), below], [clampX(x), above]);
      if (r[0] + r[2] + m > ex + ew + m) along.forEach((y) => spots.push([r[0] + r[2] + m, y]));
      if (r[0] - w - m < ex - w - m) along.forEach((y) => spots.push([r[0] - w - m, y]));
    }
    const beside = spots.filter(fits).map(([x, y]) => [x, y, w, h]);
    let spot = null;
    if (beside.length) {
      const away = (b) => Math.max(0, ex - (b[0] + b[2]), b[0] - (ex + ew))
        + Math.max(0, ey - (b[1] + b[3]), b[1] - (ey + eh));
      // Less than a pixel's worth covered is nothing covered (a line box's rounding).
      const cost = (b) => [Math.round(coverage(b, around)), away(b)];
      spot = beside.map((b) => [b, cost(b)]).reduce((best, next) => (next[1][0] < best[1][0]
        || (next[1][0] === best[1][0] && next[1][1] < best[1][1] - 0.5) ? next : best))[0];
    } else {
      const own = textRects(el, o, 200);
      const corners = [[vx + vw - w - 4, vy + vh - h - 4], [vx + vw - w - 4, vy + 4], [vx + 4, vy + vh - h - 4],
        [vx + 4, vy + 4]].map(([x, y]) => [x, y, w, h]);
      spot = corners.reduce((best, c) => (coverage(c, own) < coverage(best, own) ? c : best));
    }
    tip.style.left = spot[0] + "px";
    tip.style.top = spot[1] + "px";
    placed = { el, for: chosenFor, spot };
  };

  // Where a text node's first and last characters are drawn across (viewport x of their left edges): the first
  // left of the last when it reads left to right.
  const endsOf = (node) => {
    const range = document.createRange();
    const at = (k) => {
      range.setStart(node, k);
      range.setEnd(node, k + 1);
      return range.getBoundingClientRect().left;
    };
    return node.data.length ? [at(0), at(node.data.length - 1)] : null;
  };

  // The tip's box in viewport coordinates, whether it shows, and each of its lines (the XPath, the text) with
  // where its first and last characters are across (tests).
  const hoverTip = () => {
    if (!tip) return JSON.stringify(null);
    const r = tip.getBoundingClientRect();
    const texts = [];
    const walker = document.createTreeWalker(tip, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push({ text: n.data, ends: endsOf(n) });
    return JSON.stringify({ shown: tip.style.display !== "none", rect: [r.left, r.top, r.width, r.height],
      lines: texts });
  };

  const hideHover = () => {
    if (hoverBox) hoverBox.style.display = "none";
    if (tip) tip.style.display = "none";
    if (hovered || frameHovered) report("hovered", "");
    hovered = null;
    frameHovered = null;
  };

  // An empty box laid over the content (a page's background or backdrop, positioned: without the page's style
  // sheets nothing keeps it beneath), or a see-through backdrop over the whole view holding a dialog (`isBackdrop`),
  // would take every hover and click meant for what shows through it, and a click would make a record of nothing
  // (or of the banner). The pointer looks through such boxes to the first element beneath
  // that holds something. A box that shows something of its own is no veil though it holds nothing: a picture
  // drawn as its background, a badge whose words are generated (::before, ::after). Nor is the page itself
  // what lies beneath: a veil over nothing else is what the pointer is on.
  const SHOWS_ITSELF = new Set(["img", "svg", "video", "canvas", "picture", "input", "select", "textarea", "button",
                                "iframe", "object", "embed", "hr"]);
  const generates = (el, pseudo) => !["none", "normal"].includes(getComputedStyle(el, pseudo).content);
  const isVeil = (el) => {
    if (SHOWS_ITSELF.has(dom.localName(el))) return false;
    const empty = !dom.childElementCount(el) && !(dom.textContent(el) || "").trim();
    const style = getComputedStyle(el);
    if (style.position !== "absolute" && style.position !== "fixed") return false;
    if (style.backgroundImage !== "none" || generates(el, "::before") || generates(el, "::after")) return false;
    return empty || ((!ownText(el) || !textShows(style)) && isBackdrop(el, style));
  };

  // A backdrop holding a dialog (a cookie banner's): a positioned box over the whole view, see-through (its
  // colour or itself not opaque), with no text of its own that shows (none, or drawn unseen), only what its
  // children show. Where the pointer is on it and on none of them, what shows through it is what the pointer is
  // on. Not a box smaller than the view (a card placed absolutely: its padding is the card's), nor an opaque one
  // (what lies beneath is not seen).
  const ownText = (el) => [...dom.childNodes(el)].some((n) => dom.nodeType(n) === 3 && n.data.trim());
  // The alpha of a colour as computed ("rgba(0, 0, 0, 0.4)", "transparent", "color(srgb 1 0 0 / 0)"): 1 for one
  // that says none.
  const alphaOf = (colour) => {
    if (colour === "transparent") return 0;
    const found = /^rgba\(.*,\s*([\d.]+)\)$/.exec(colour) || /\/\s*([\d.]+)(%?)\s*\)$/.exec(colour);
    return found ? Number(found[1]) / (found[2] === "%" ? 100 : 1) : 1;
  };
  const seeThrough = (style) => Number(style.opacity) < 1 || alphaOf(style.backgroundColor) < 1;
  // Whether text in `style` is seen: drawn in a colour not wholly transparent (its fill, which is its colour
  // unless set apart), or by a shadow or a stroke, at a size above 0.
  const textShows = (style) => px(style.fontSize) > 0 && (alphaOf(style.webkitTextFillColor || style.color) > 0
    || style.textShadow !== "none"
    || (px(style.webkitTextStrokeWidth) > 0 && alphaOf(style.webkitTextStrokeColor) > 0));
  const coversTheView = (r) => {
    const root = document.documentElement;
    return r.left <= 0 && r.top <= 0 && r.right >= (root.clientWidth || innerWidth)
      && r.bottom >= (root.clientHeight || innerHeight);
  };
  const isBackdrop = (el, style) => seeThrough(style) && coversTheView(dom.getBoundingClientRect(el));

  // The same backdrop drawn by the page's style alone, as an element's ::before or ::after (`body.modal-open::before
  // {position: fixed; inset: 0; background: rgba(0, 0, 0, .4)}`): a generated box with no text of its own (content
  // "") and no picture, positioned, not behind the element's content (a negative z-index), see-through and over the
  // whole view. A click on it is the element's (the page's body, or <html>), so without this every click on the page
  // made a record of the body or of nothing. Its box is worked out from its style (what Chromium resolves its
  // place and size to): a generated box has no rectangle of its own to ask for.
  const PSEUDOS = ["::before", "::after"];
  const px = (value) => parseFloat(value) || 0;
  // Where the padding box a positioned ::before or ::after of `el` is placed in begins (viewport coordinates): the
  // view's for a fixed one; for an absolute one, that of `el` or its nearest ancestor that is positioned or
  // transformed, else the document's.
  const originFor = (el, style) => {
    if (style.position === "fixed") return [0, 0];
    for (let e = el; e; e = dom.parentElement(e)) {
      const own = getComputedStyle(e);
      if (own.position === "static" && own.transform === "none") continue;
      const r = dom.getBoundingClientRect(e);
      return [r.left + px(own.borderLeftWidth), r.top + px(own.borderTopWidth)];
    }
    return [-window.scrollX, -window.scrollY];
  };
  const generatedBox = (el, style) => {
    const [ox, oy] = originFor(el, style);
    const outside = style.boxSizing === "border-box" ? [0, 0] : [
      px(style.paddingLeft) + px(style.paddingRight) + px(style.borderLeftWidth) + px(style.borderRightWidth),
      px(style.paddingTop) + px(style.paddingBottom) + px(style.borderTopWidth) + px(style.borderBottomWidth)];
    const left = ox + px(style.left) + px(style.marginLeft);
    const top = oy + px(style.top) + px(style.marginTop);
    return { left, top, right: left + px(style.width) + outside[0], bottom: top + px(style.height) + outside[1] };
  };
  const NO_TEXT = /^"\s*"$/; // content: "" (or blanks), as computed
  const isGeneratedBackdrop = (el, pseudo) => {
    const style = getComputedStyle(el, pseudo);
    if (!NO_TEXT.test(style.content) || style.display === "none") return false;
    if (style.position !== "absolute" && style.position !== "fixed") return false;
    if (style.backgroundImage !== "none" || style.zIndex.startsWith("-")) return false;
    return seeThrough(style) && coversTheView(generatedBox(el, style));
  };
  const veiledByItsOwn = (el) => PSEUDOS.some((pseudo) => isGeneratedBackdrop(el, pseudo));

  // A cover that shows nothing: a positioned box over the whole view, above the content, of which nothing is seen,
  // its own box nor anything it holds: its text drawn transparent (color: transparent, rgba(..., 0)) or the whole
  // of it transparent (opacity: 0), no background, border or shadow, nothing that shows itself (a picture, a
  // field). Hostile markup lays one over the page to take every click, which made a record of the cover, or of
  // the unseen paragraph of it that the pointer was on. A cover that holds anything seen (a dialog's words) is no
  // such cover: what it shows is clicked (and around it, where it is see-through, `isBackdrop` looks through it).
  const COVER_LOOKED_INTO = 400; // elements; a cover holding more is taken to show something (a move stays quick)
  const edgeShows = (style, side) => px(style[`border${side}Width`]) > 0
    && !["none", "hidden"].includes(style[`border${side}Style`]) && alphaOf(style[`border${side}Color`]) > 0;
  const boxShows = (style) => alphaOf(style.backgroundColor) > 0 || style.backgroundImage !== "none"
    || style.boxShadow !== "none" || ["Top", "Right", "Bottom", "Left"].some((side) => edgeShows(style, side))
    || (style.outlineStyle !== "none" && px(style.outlineWidth) > 0 && alphaOf(style.outlineColor) > 0);
  const markerShows = (style) => style.display === "list-item"
    && (style.listStyleImage !== "none" || (style.listStyleType !== "none" && textShows(style)));
  const pseudoShows = (el, pseudo) => {
    const style = getComputedStyle(el, pseudo);
    if (["none", "normal"].includes(style.content) || style.display === "none") return false;
    return boxShows(style) || (!NO_TEXT.test(style.content) && textShows(style));
  };
  // Whether `el` draws something seen of its own: its box, its text, a generated box or text, a list's marker.
  const drawsItself = (el, style) => SHOWS_ITSELF.has(dom.localName(el)) || !!dom.shadowRoot(el) || boxShows(style)
    || (ownText(el) && textShows(style)) || markerShows(style) || PSEUDOS.some((pseudo) => pseudoShows(el, pseudo));
  // Whether nothing of `el`, nor of anything it holds, is seen (a box too many to look into is taken as seen).
  const showsNothing = (el) => {
    const left = [el];
    for (let looked = 0; left.length; looked += 1) {
      if (looked === COVER_LOOKED_INTO) return false;
      const e = left.pop();
      const style = getComputedStyle(e);
      if (style.display === "none" || Number(style.opacity) === 0) continue; // nothing of it is drawn
      if (style.visibility === "visible" && drawsItself(e, style)) return false;
      for (let child = dom.firstElementChild(e); child; child = dom.nextElementSibling(child)) left.push(child);
    }
    return true;
  };
  const isUnseenCover = (el) => {
    const style = getComputedStyle(el);
    return (style.position === "absolute" || style.position === "fixed")
      && coversTheView(dom.getBoundingClientRect(el)) && showsNothing(el);
  };
  // The unseen cover `el` is, or is part of (an unseen paragraph of it); null where there is none.
  const unseenCoverAround = (el) => {
    for (let e = el; e && !isPage(e); e = dom.parentElement(e)) {
      if (isUnseenCover(e)) return e;
    }
    return null;
  };

  const isPage = (el) => el === document.documentElement || el === document.body;
  // What the pointer is on at (x, y), `el` being the page's topmost element there: the first element beneath `el`
  // that is no veil, where `el` is one or shows a backdrop of its own (then `el` again, further down the hits, is
  // its own box beneath its backdrop); the first beneath the cover, and in no other, where `el` is an unseen
  // cover or part of one.
  const beneathVeils = (el, x, y) => {
    if (!(el instanceof Element)) return el;
    const cover = unseenCoverAround(el);
    if (!cover && !isVeil(el) && !veiledByItsOwn(el)) return el;
    const top = cover || el;
    const hits = document.elementsFromPoint(x, y);
    const beneath = hits.slice(hits.indexOf(top) + 1).find((hit) => !(cover && dom.contains(cover, hit))
      && !isVeil(hit) && !unseenCoverAround(hit));
    return beneath && !isPage(beneath) ? beneath : el;
  };

  // (x, y): the pointer, where what the element shows may be a shadow root's (the line above the page says a
  // click there makes no record, as the click then does).
  let hoveredShadow = false;
  const hover = (el, x, y) => {
    if (!(el instanceof Element)) return;
    const shadow = !holdsADocument(el) && showsShadowAt(el, x, y);
    if (el === hovered && shadow === hoveredShadow) return;
    if (holdsADocument(el)) return hoverFrame(el);
    guardRules();
    const path = rl.xpathOf(el);
    if (path === null || !ensureHost()) return hideHover();
    frameHovered = null;
    hovered = el;
    hoveredShadow = shadow;
    tip.replaceChildren(path);
    const text = shortText(el);
    if (text) {
      const line = document.createElement("div");
      line.className = "text";
      line.dir = "auto"; // the element's text reads in its own direction (Arabic right to left), the XPath not
      line.textContent = text;
      tip.appendChild(line);
    }
    placeHover(el);
    report("hovered", (shadow ? IN_SHADOW : "") + path);
  };

  // Where the pointer is in the view, in the view's own pixels (CSS pixels times the zoom), so that it stays
  // the same spot when the page is zoomed under it; null once it has left the page.
  let pointer = null;

  const onMove = (event) => {
    pointer = [event.clientX / scale, event.clientY / scale]; // scale is 1 / the zoom
    hover(beneathVeils(event.target, event.clientX, event.clientY), event.clientX, event.clientY);
  };

  // Leaving an element for another is followed by a move onto it; only leaving the page ends the hover (the
  // capture phase also sees every element's own mouseleave, which does not bubble).
  const onLeave = (event) => {
    if (event.relatedTarget) return;
    pointer = null;
    hideHover();
  };

  // The page moved under a pointer that did not (wheel, keys, a record brought into view, a zoom): Chromium
  // sends no mouse event then, so the element now under the pointer is looked up, and the line above the page
  // keeps saying what a click there will do.
  const hoverUnderPointer = () => {
    if (!pointer) return;
    const [x, y] = [pointer[0] * scale, pointer[1] * scale];
    hover(beneathVeils(document.elementFromPoint(x, y), x, y), x, y);
  };

  // ---- keyboard focus ----------------------------------------------------------------------------------

  // A frame (an <iframe>, a <frame>, an <object> showing a document) is the document's active element while
  // the keys are on an element inside it. That element cannot be labelled: the overlay runs in the main frame
  // only, and a click on it is never reported either; the frame itself is not what the labeller is on.
  const holdsADocument = (el) => el instanceof HTMLIFrameElement || el instanceof HTMLFrameElement
    || (el instanceof HTMLObjectElement && el.contentWindow !== null);

  const focusInFrame = () => holdsADocument(keyElement());

  // ---- frames and shadow roots: what a click cannot label -------------------------------------------------

  // A click is reported as the element's XPath; one on what RecordLens does not address carries what that is in
  // front of the XPath, which always starts with "/" (record_actions reads these, IN_FRAME and IN_SHADOW there):
  // "frame:" and the frame's XPath for a click inside a frame of the page (or on the frame itself); "shadow:" and
  // the element's for a click on what a shadow root of the element shows.
  const IN_FRAME = "frame:";
  const IN_SHADOW = "shadow:";
  // What the line above the page says while the pointer is over a frame (an XPath names nothing there).
  const FRAME_SAYS = "a frame of the page: a click there makes no record, as what a frame shows cannot be labelled "
    + "(RecordLens reads the page's own document, not its frames)";

  // The pointer is over a frame: what was hovered is no longer, and the line above the page says the frame's
  // content cannot be labelled (it would otherwise go on promising what a click did on the last element hovered:
  // the page gets no pointer event from inside a frame).
  let frameHovered = null;
  const hoverFrame = (frame) => {
    if (frameHovered === frame && !hovered) return;
    hideHover();
    frameHovered = frame;
    report("hovered", FRAME_SAYS);
  };

  // A frame whose document is the page's own origin (a srcdoc frame) tells when the pointer moves in it; others
  // do not, and the frame is said once it takes a click (the page's window loses the focus to it).
  const watchFrame = (frame) => {
    let inner = null;
    try {
      inner = frame.contentDocument;
    } catch (e) {
      inner = null;
    }
    if (!inner || watchedFrames.has(inner)) return;
    watchedFrames.add(inner);
    inner.addEventListener("mousemove", () => hoverFrame(frame), { capture: true, passive: true });
  };
  const watchedFrames = new WeakSet();
  const FRAMES = "iframe, frame, object";
  const watchFrames = () => {
    for (const frame of document.querySelectorAll(FRAMES)) {
      if (!holdsADocument(frame) && !(frame instanceof HTMLObjectElement)) continue;
      watchFrame(frame);
      frame.addEventListener("load", () => watchFrame(frame));
    }
  };

  // The page's window gives the focus to a frame: a click inside it (a press of Tab moves the keys there too,
  // which is no click: E says that case, and the keys stay in the frame).
  let tabbedAt = -Infinity;
  const onBlur = () => {
    const frame = document.activeElement;
    if (!annotating || !holdsADocument(frame) || performance.now() - tabbedAt < 500) return;
    guardRules();
    const path = rl.xpathOf(frame);
    hoverFrame(frame);
    if (path !== null) report("clicked", IN_FRAME + path);
    // The focus back on the page, so that the next click in the frame is told too (a frame that kept it would
    // take further clicks unseen); at the next frame, as the page's timers do not run here (a saved page's
    // scripts are off).
    requestAnimationFrame(() => {
      frame.blur();
      window.focus();
    });
  };

  // Elements that may hold a shadow root (HTML's "attach a shadow root", as core/page/dom.py's SHADOW_HOST_TAGS),
  // and custom elements.
  const SHADOW_HOSTS = new Set(["article", "aside", "blockquote", "body", "div", "footer", "h1", "h2", "h3", "h4",
                                "h5", "h6", "header", "main", "nav", "p", "section", "span"]);
  const mayHostShadow = (el) => dom.namespaceURI(el) === "http://www.w3.org/1999/xhtml"
    && (SHADOW_HOSTS.has(dom.localName(el)) || dom.localName(el).includes("-"));

  // Whether the point (x, y) on `el` shows what a shadow root of `el` holds. An open one is there to see; of a
  // closed one, the caret at the point is put beside `el` in its parent: the text there is in no node of the
  // document's (on an empty box, or on the element's own text, the caret is inside it).
  const showsShadowAt = (el, x, y) => {
    if (!mayHostShadow(el) || el === document.body) return false;
    if (dom.shadowRoot(el)) return true;
    const at = document.caretPositionFromPoint ? document.caretPositionFromPoint(x, y) : null;
    const parent = dom.parentNode(el);
    if (!at || !parent || at.offsetNode !== parent) return false;
    const index = Array.prototype.indexOf.call(dom.childNodes(parent), el);
    return at.offset === index || at.offset === index + 1;
  };

  // ---- the element cursor --------------------------------------------------------------------------------

  // The keyboard's pointer: any element of the page, not only the links and fields Tab reaches (a page of
  // paragraphs has none). Drawn as an outline of its own (`.cursor`); E acts on it as a click on it does. Python
  // moves it (`moveCursor`); a Tab or a script moving the page's focus puts it on the element focused, and a
  // pointer's press takes it away (the pointer is what a click then acts on).
  let cursor = null;

  // The element the keys are on: inside a frame of the page while the page's focus is there (a Tab into it), else
  // the cursor, else the element focused.
  const keyElement = () => {
    const active = document.activeElement;
    if (holdsADocument(active)) return active;
    return cursor && dom.isConnected(cursor) ? cursor : active;
  };

  const CURSOR_GAP = 4; // px on screen between the element and its cursor's outline, outside it
  const placeCursor = () => {
    if (!cursorBox) return;
    if (!cursor || !dom.isConnected(cursor)) {
      cursorBox.style.display = "none";
      return;
    }
    const rect = rectOf(cursor, origin());
    const gap = CURSOR_GAP * scale;
    place(cursorBox, [rect[0] - gap, rect[1] - gap, rect[2] + 2 * gap, rect[3] + 2 * gap]);
    cursorBox.style.display = visible(rect) ? "block" : "none";
  };

  // Whether the cursor stops at an element: the page shows it, with a width and a height (an empty <div> of no
  // height, a hidden menu, a closed <details>' content, a transparent or off-page element are passed over: an
  // outline there would show nothing that the record would hold). The page's edges and origin are read once per
  // move: `showing()` is the test for that move's elements.
  const showing = () => {
    const o = origin();
    const closed = hasClosedDetails();
    const edges = pageEdges(o);
    return (el) => {
      const rect = shownRectOf(el, o, closed, edges);
      return rect !== null && rect[2] > 0 && rect[3] > 0;
    };
  };

  // The page's elements in document order, as the cursor goes through them: the addressing rules' removed kinds,
  // the overlay's own element and what renders nothing are left out with all they hold; an element with no box of
  // its own (display: contents) is passed through to its children.
  const cursorWalker = (showsItself) => document.createTreeWalker(document.body || document.documentElement,
    NodeFilter.SHOW_ELEMENT, {
      acceptNode: (el) => {
        if (rl.isRemoved(el) || dom.localName(el) === HOST_TAG || rendersNothing(el)) return NodeFilter.FILTER_REJECT;
        return showsItself(el) ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP;
      },
    });
  // The walk's root is no stop: it is the whole page (a step back from its first element would land on it).
  const walkedFrom = (el, step) => {
    const walker = cursorWalker(showing());
    walker.currentNode = el;
    const found = walker[step]();
    return found === walker.root ? null : found;
  };

  // Where the cursor goes from `el` for each move; null: nowhere (the first or last element, the whole page above,
  // nothing inside).
  const CURSOR_MOVES = {
    next: (el) => walkedFrom(el, "nextNode"),
    previous: (el) => walkedFrom(el, "previousNode"),
    child: (el) => walkedFrom(el, "firstChild"),
    parent: (el) => {
      const showsItself = showing();
      for (let up = dom.parentElement(el); up && !isPage(up); up = dom.parentElement(up)) {
        if (showsItself(up)) return up;
      }
      return null;
    },
  };

  // Where the cursor starts: on the element in focus, else the one at the middle of the view (looked at through a
  // see-through cover, as the pointer looks), else the first element the view shows, else the page's first.
  const cursorStart = () => {
    const active = document.activeElement;
    if (active instanceof Element && !isPage(active) && rl.xpathOf(active) !== null) return active;
    const root = document.documentElement;
    const [w, h] = [root.clientWidth || innerWidth, root.clientHeight || innerHeight];
    const middle = beneathVeils(document.elementFromPoint(w / 2, h / 2), w / 2, h / 2);
    const showsItself = showing();
    if (middle instanceof Element && !isPage(middle) && rl.xpathOf(middle) !== null && showsItself(middle)) {
      return middle;
    }
    const walker = cursorWalker(showsItself);
    let first = null;
    for (let el = walker.nextNode(); el; el = walker.nextNode()) {
      first = first || el;
      const r = dom.getBoundingClientRect(el);
      if (r.bottom > 0 && r.top < h && r.right > 0 && r.left < w) return el;
    }
    return first;
  };

  // Brought into view with its outline, as far as it fits: an element taller than most of the view from its top,
  // where its outline begins.
  const cursorIntoView = (el) => {
    const gap = CURSOR_GAP * scale;
    const h = document.documentElement.clientHeight || innerHeight;
    const w = document.documentElement.clientWidth || innerWidth;
    const inView = (r) => r.top - gap >= 0 && r.bottom + gap <= h && r.left - gap >= 0 && r.right + gap <= w;
    const before = dom.getBoundingClientRect(el);
    if (inView(before)) return;
    const tall = before.height > 0.8 * h;
    dom.scrollIntoView(el, { block: tall ? "start" : "nearest", inline: "nearest" });
    const r = dom.getBoundingClientRect(el);
    if (r.top - gap < 0 || tall) window.scrollBy(0, r.top - 2 * gap);
    else if (r.bottom + gap > h) window.scrollBy(0, r.bottom + 2 * gap - h);
  };

  // `how`: "start" (the cursor where it is, else where it starts), "next", "previous" (document order), "parent"
  // or "child" (its first element inside). JSON {path: the cursor's XPath (null: the page shows no element to put
  // it on), moved: whether it went where asked, frame: whether it is on a frame of the page}.
  const moveCursor = (how) => {
    guardRules();
    if (!ensureHost()) return JSON.stringify({ path: null, moved: false, frame: false });
    if (cursor && !dom.isConnected(cursor)) cursor = null;
    const move = CURSOR_MOVES[how];
    const to = cursor && move ? move(cursor) : cursor || cursorStart();
    if (to) cursor = to;
    if (cursor) cursorIntoView(cursor);
    placeCursor();
    return JSON.stringify({ path: cursor ? rl.xpathOf(cursor) : null, moved: !!to, frame: holdsADocument(cursor) });
  };

  // A focus the keys moved (Tab) or a script set, not one a pointer's press gave (its click is what counts).
  let pressedAt = -Infinity;
  window.addEventListener("pointerdown", () => {
    pressedAt = performance.now();
    cursor = null;
    placeCursor();
  }, true);
  document.addEventListener("focusin", (event) => {
    const el = event.target;
    if (performance.now() - pressedAt < 500 || !(el instanceof Element) || isPage(el)) return;
    cursor = el;
    placeCursor();
  }, true);

  // The element the keyboard is on in the page (the cursor, or where Tab moved the focus), as an XPath; null when
  // none is (the page itself, an element inside a frame, or something the addressing rules leave out).
  const focusedPath = () => {
    const el = keyElement();
    if (!(el instanceof Element) || isPage(el) || holdsADocument(el)) return null;
    guardRules();
    return rl.xpathOf(el);
  };

  // The keys leave the page (Esc): a field of the page keeps no caret that letters would go on typing into, and
  // the cursor goes (E then acts on nothing of the page until the keys come back).
  const blurFocused = () => {
    const el = document.activeElement;
    if (el instanceof HTMLElement && !isPage(el)) dom.blur(el);
    cursor = null;
    placeCursor();
    return true;
  };

  // ---- clicks ----------------------------------------------------------------------------------------

  // While annotating, a click selects an element and does nothing else (no link is followed, no form is
  // sent, no <details> toggles). Alt+click is let through to the page, unreported; so are all clicks when
  // Python turns annotating off.
  let annotating = true;

  // A click the keyboard made (Enter on a link, Space on a button) or a script made (`el.click()`) is no
  // labeller's click: it would edit the selected record with nobody pointing at anything. Its `detail` (the
  // pointer's press count) is 0, a pointer's click's never is, and that alone tells them apart: a flag set on
  // pointerdown would be cleared by a script's click made from the press's own handler, and the pointer's click
  // after it dropped. It is swallowed like any other while annotating (no link followed, no form sent), and
  // nothing is reported; E makes the focused element's click on purpose (`focusedPath`).
  const onClick = (event) => {
    const pointed = event.detail !== 0;
    if (!annotating || event.altKey) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!pointed) return;
    const el = beneathVeils(event.target, event.clientX, event.clientY);
    if (!(el instanceof Element)) return;
    guardRules();
    const path = rl.xpathOf(el);
    if (path === null) return;
    if (holdsADocument(el)) report("clicked", IN_FRAME + path);
    else report("clicked", (showsShadowAt(el, event.clientX, event.clientY) ? IN_SHADOW : "") + path);
  };

  // Capture phase on window: runs before any handler of the page's own.
  window.addEventListener("click", onClick, true);
  window.addEventListener("blur", onBlur);
  window.addEventListener("keydown", (e) => {
    if (e.key === "Tab") tabbedAt = performance.now();
  }, true);
  window.addEventListener("auxclick", (e) => annotating && !e.altKey && e.preventDefault(), true);
  document.addEventListener("mousemove", onMove, { capture: true, passive: true });
  document.addEventListener("mouseleave", onLeave, true);
  // Capture catches scrolling inside any scrollable element too (scroll events do not bubble).
  document.addEventListener("scroll", scheduleLayout, { capture: true, passive: true });
  window.addEventListener("resize", scheduleLayout, { passive: true });
  // Late layout changes (fonts, archived images) move elements without any scroll or resize.
  // A saved page is shown as it was saved, and without its scripts nothing will undo what they had set for a
  // moment: `inert` on the page behind an open dialog (no hover or click reaches it: a click took the whole menu
  // around it) and a scroll lock on html or body (a cookie banner's `overflow: hidden`: the page could not be
  // scrolled to its records). Neither changes an element's XPath or text.
  const unlockThePage = () => {
    document.querySelectorAll("[inert]").forEach((el) => dom.removeAttribute(el, "inert"));
    for (const el of [document.documentElement, document.body]) {
      if (el && getComputedStyle(el).overflowY === "hidden") el.style.setProperty("overflow-y", "auto", "important");
    }
  };

  // An inline <svg> given its size by the page's style sheet, saved without it, has none: with a viewBox alone it
  // is as wide as its container and as tall as its shape makes that (a 24-unit icon in a page-wide line: 1200 px
  // square), which is what a browser shows too, and hides the page around it. Such an SVG (no width or height
  // attribute, no width, height or maximum of either from any CSS, inline style included, and none from its
  // place: not positioned, not stretched by a flex row), drawn at more than 4 times its viewBox's scale or taller
  // than 600 px (an icon blown up; a chart of viewBox 600 x 300 in a 600 px column is drawn as its page
  // meant), is held to its
  // viewBox's size, as an image without CSS keeps its own, within the 300 x 150 box browsers give an SVG with
  // no size at all; it is never made larger. Run once the page's style sheets are in (its `load`): the size they
  // give is what counts. Only the maxima are set, in the element's own style; no XPath or text changes.
  const SVG_NS = "http://www.w3.org/2000/svg";
  const BLOWN_UP = 4;
  const TALL = 600; // CSS px: not the view's height, which a view still being laid out does not have yet
  const unsized = (svg) => {
    if (svg.hasAttribute("width") || svg.hasAttribute("height")) return false;
    if (!svg.computedStyleMap) return false;
    const style = svg.computedStyleMap();
    return ["width", "height", "max-width", "max-height"].every((p) => ["auto", "none"].includes(String(style.get(p))))
      && String(style.get("position")) === "static" && Number(String(style.get("flex-grow"))) === 0;
  };
  // Each SVG is judged once it is drawn: at the page's load the view may have no size yet (a window not shown),
  // so one drawn at nothing is judged again as the page's size changes.
  const judged = new WeakSet();
  const capUnsizedSvgs = () => {
    for (const svg of document.getElementsByTagNameNS(SVG_NS, "svg")) {
      if (judged.has(svg)) continue;
      const drawn = svg.getBoundingClientRect();
      if (!drawn.width && !drawn.height) continue; // not drawn (yet): hidden, or a view without its size
      judged.add(svg);
      const parent = dom.parentElement(svg);
      if (!parent || dom.namespaceURI(parent) === SVG_NS || !unsized(svg)) continue; // outermost only
      const box = svg.viewBox && svg.viewBox.baseVal;
      if (!box || !(box.width > 0) || !(box.height > 0)) continue; // without a viewBox, 300 x 150 already
      if (drawn.width <= BLOWN_UP * box.width && drawn.height <= TALL) continue; // drawn as its page meant
      const fit = Math.min(1, 300 / box.width, 150 / box.height);
      svg.style.setProperty("max-width", box.width * fit + "px");
      svg.style.setProperty("max-height", box.height * fit + "px");
    }
  };
  const judgeSvgsFromNowOn = () => {
    capUnsizedSvgs();
    if (typeof ResizeObserver !== "undefined" && document.body) new ResizeObserver(capUnsizedSvgs).observe(document.body);
  };
  // This script may start after the page's load (a busy machine, a page that loads at once): then at once.
  if (document.readyState === "complete") judgeSvgsFromNowOn();
  else window.addEventListener("load", judgeSvgsFromNowOn);

  window.addEventListener("load", watchFrames);
  document.addEventListener("DOMContentLoaded", () => {
    unlockThePage();
    watchFrames();
    connect();
    if (typeof ResizeObserver !== "undefined" && document.body) {
      new ResizeObserver(scheduleLayout).observe(document.body);
    }
  });
  connect();

  // The page was zoomed: the overlay's own parts are resized to stay as large on screen, and placed again.
  const setScale = (value) => {
    scale = value > 0 && Number.isFinite(value) ? value : 1;
    if (!ensureHost()) return scale;
    host.style.setProperty("--s", String(scale));
    measureBadges(records.filter((r) => r.badge));
    layout();
    hoverUnderPointer();
    placeCursor();
    return scale;
  };

  // Before a zoom: the element that is to stay at its height on screen (under the pointer for Ctrl+wheel; else
  // the selected record's first element while in view; else the one in the middle of the view) is noted, and each
  // time the zoom resizes the view (in CSS pixels) the page is scrolled to put it back, at the zoom the resize
  // shows (its width against the width noted). Zoom steps in quick succession keep the first note; a note lapses
  // 3 s after the last step.
  let zoomNote = null;
  const keepInPlace = (x, y, zoomFrom) => {
    if (zoomNote && Date.now() < zoomNote.until) {
      zoomNote.until = Date.now() + 3000;
      return true;
    }
    const view = [document.documentElement.clientWidth || innerWidth, document.documentElement.clientHeight || innerHeight];
    let el = null;
    if (x === null) {
      const selected = records.find((r) => r.selected);
      const first = selected && selected.elements.find((e) => e && dom.isConnected(e));
      const r = first && dom.getBoundingClientRect(first);
      if (r && r.bottom > 0 && r.top < view[1]) el = first;
    }
    if (!el) el = document.elementFromPoint(x === null ? view[0] / 2 : x, y === null ? view[1] / 2 : y);
    if (!el || isPage(el)) return false;
    zoomNote = { el, onScreen: dom.getBoundingClientRect(el).top * zoomFrom, width: innerWidth, zoomFrom,
                 until: Date.now() + 3000 };
    return true;
  };
  window.addEventListener("resize", () => {
    const note = zoomNote;
    if (!note) return;
    if (Date.now() > note.until || !dom.isConnected(note.el)) { zoomNote = null; return; }
    if (innerWidth === note.width) return;
    const zoom = (note.zoomFrom * note.width) / innerWidth;
    window.scrollBy(0, dom.getBoundingClientRect(note.el).top - note.onScreen / zoom);
  }, { passive: true });

  rl.overlay = {
    show: (specJson) => show(JSON.parse(specJson)),
    setScale,
    keepInPlace,
    clear: () => show({ records: [] }),
    select,
    locate: (xpathsJson) => locate(JSON.parse(xpathsJson)),
    boxes,
    badgeRects,
    badgeColours,
    boxStyles,
    hoverTip: () => hoverTip(),
    scrollTo,
    setAnnotating: (on) => ((annotating = !!on), annotating),
    // Reports "framed" once the page has produced a frame with everything done so far (scrolls included).
    ping: (token) => requestAnimationFrame(() => requestAnimationFrame(() => report("framed", token))),
    hideHover,
    focusedPath,
    focusInFrame,
    blurFocused,
    moveCursor,
    // The cursor's outline as drawn: its box in viewport coordinates (CURSOR_GAP outside its element's), or null
    // while none shows (tests).
    cursorBox: () => JSON.stringify(cursorBox && cursorBox.style.display !== "none"
      ? (({ left, top, width, height }) => [left, top, width, height])(cursorBox.getBoundingClientRect()) : null),
  };
})();
