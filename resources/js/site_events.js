// What the site browser hears from the page (run in ApplicationWorld, after qwebchannel.js, dom_rules.js, som.js).
//
// Reports travel as JSON text through the QWebChannel object "recordlens_site": `event(json)` for the user's
// actions while recording (and the Back key always), `framed(token)` once a frame with everything done so far
// has been produced. Listeners are capture-phase on window, so they run before anything of the page's own. Page
// nodes are read through `__recordlens.dom` (dom_rules.js): the target of a click may be a <form>, whose named
// controls shadow its own properties (<input name="closest"> made every click inside the form throw here).
//
// Recording reports, all with the target's identities computed at that moment (label from the last mark()):
//   {kind: "click", label, target}          a click; on a text field it only focuses, so it is not reported;
//                                           inside an element set-of-mark numbers, that element is the target
//   {kind: "click", label: null, target: null, missed, space, words}   a click on no such element (text,
//                                           empty space): no step an agent could take, so the recorder says so
//                                           and skips it. On an element holding (nearly) the whole page (body, or
//                                           a full-page div or main wrapping all of it) its text is the page's, not
//                                           what was clicked: `space` is true where none of its own text is under
//                                           the pointer, else `words` are its own words there
//   {kind: "type", label, target, value, submit}   committed on Enter (submit: true), change or blur
//   {kind: "scroll", direction}             one per burst of wheel or scrolling keys
//   {kind: "back"}                          Alt+Left or the Back key (reported even when not recording)
//
// `navigationsStarted()` counts the navigations to another document this one has started (a link followed, a
// form sent), each as it starts, before it leaves the renderer: the site browser's settle() asks, so that it knows
// one is on its way to it rather than guessing by time.
(() => {
  const rl = (globalThis.__recordlens = globalThis.__recordlens || {});
  if (rl.site) return;

  const SCROLL_QUIET_MS = 350; // a pause this long ends a burst of wheel events
  const NEARLY_ALL = 0.9; // an element holding this share of the page's text holds the page (see holdsThePage)
  const SCROLL_KEYS = { PageDown: "down", PageUp: "up", " ": "down", ArrowDown: "down", ArrowUp: "up" };

  const dom = rl.dom;
  const { report, connect } = rl.bridge("recordlens_site"); // see bridge.js

  const send = (data) => report("event", JSON.stringify(data));

  let recording = false;

  const targetOf = (el) => ({ label: rl.som.labelOf(el), target: rl.som.identities(el) });

  // The element set-of-mark numbers around `node`: the outermost interactive one (mark() leaves an element
  // inside another to the outer one, as a span with role=button inside a link is the link), or null.
  const actionableOf = (node) => {
    let found = null;
    for (let el = rl.som.interactiveOf(node); el; el = rl.som.interactiveOf(dom.parentElement(el))) {
      if (!rl.som.isDisabled(el)) found = el;
    }
    return found;
  };

  // ---- clicks --------------------------------------------------------------------------------------------

  // Whether `el` holds (nearly) the whole page: the document, body, or a wrapper around all of the content (a
  // full-page div or main), judged by what it holds, never by its name: at least NEARLY_ALL of the page's text,
  // or, on a page with no text, of its elements.
  const letters = (el) => (dom.innerText(el) ?? dom.textContent(el) ?? "").replace(/\s+/g, "").length;
  const elementsIn = (el) => dom.getElementsByTagName(el, "*").length;
  const holdsThePage = (el) => {
    const body = document.body;
    if (!body || dom.contains(el, body)) return true;
    if (!dom.contains(body, el)) return false;
    const all = letters(body);
    if (all) return letters(el) >= NEARLY_ALL * all;
    return elementsIn(el) >= NEARLY_ALL * elementsIn(body);
  };

  // The words of `el`'s own text (not its children's) under the point, or "" where the point is on none.
  const ownWordsAt = (el, x, y) => {
    const range = document.createRange();
    for (const child of dom.childNodes(el)) {
      if (dom.nodeType(child) !== Node.TEXT_NODE || !child.data.trim()) continue;
      range.selectNodeContents(child);
      for (const r of range.getClientRects()) {
        if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return child.data.replace(/\s+/g, " ").trim();
      }
    }
    return "";
  };

  // A click on no numbered element, as the recorder says it: on an element holding the page, its own words
  // under the pointer or its empty space, since its text (the page's) is not what the person clicked.
  const missedAt = (node, event) => {
    const missed = { kind: "click", label: null, target: null, missed: rl.som.identities(node) };
    if (!holdsThePage(node)) return missed;
    const words = ownWordsAt(node, event.clientX, event.clientY);
    return words ? { ...missed, words } : { ...missed, space: true };
  };

  // Enter in a field submits its form by a click on the form's submit button, which the browser sends as a
  // trusted click without a mouse (detail 0): that click is part of the Type step, not a step of its own.
  let submitted = null; // {form, at}

  const partOfSubmit = (event, el) =>
    event.detail === 0 && submitted && submitted.form && dom.contains(submitted.form, el) &&
    performance.now() - submitted.at < 1000;

  const onClick = (event) => {
    if (!recording || !event.isTrusted || event.button !== 0) return;
    const node = event.target;
    if (!(node instanceof Element) || dom.closest(node, "recordlens-som")) return;
    // A click on a <label> is followed by the browser's own click on its control: the control's is the step.
    const label = dom.closest(node, "label");
    if (label && label.control && !label.contains(rl.som.interactiveOf(node))) return;
    const el = actionableOf(node);
    if (!el) {
      // Text or empty space: no agent can click it (it has no number), so it is no step.
      send(missedAt(node, event));
      return;
    }
    if (partOfSubmit(event, el)) return;
    if (rl.som.isTextField(el)) return; // the Type that follows is the step
    send({ kind: "click", ...targetOf(el) });
  };

  // ---- typing --------------------------------------------------------------------------------------------

  let editing = null; // {el, start}: the field typed into since it was last committed

  // What a text field holds: an editable element its text; an input or a text area its value. Another element
  // with a text box's role holds nothing typed (and a form's `value` would be its control named so).
  const typedIn = (el) => {
    if (dom.isContentEditable(el)) return dom.innerText(el);
    return ["input", "textarea"].includes(dom.localName(el)) ? el.value : undefined;
  };

  const commit = (el, submit) => {
    if (!editing || editing.el !== el) return;
    editing = null;
    send({ kind: "type", ...targetOf(el), value: typedIn(el), submit });
  };

  const onInput = (event) => {
    if (!recording) return;
    const el = event.target;
    if (!(el instanceof Element) || !rl.som.isTextField(el)) return;
    if (!editing || editing.el !== el) editing = { el };
  };

  const onKeyDown = (event) => {
    if ((event.altKey && event.key === "ArrowLeft") || event.key === "BrowserBack") {
      event.preventDefault();
      event.stopImmediatePropagation();
      send({ kind: "back" });
      return;
    }
    if (!recording) return;
    const el = event.target;
    const inField = el instanceof Element && rl.som.isTextField(el);
    if (inField && event.key === "Enter" && dom.localName(el) !== "textarea") {
      if (!editing || editing.el !== el) editing = { el }; // Enter on an untouched field submits it as it is
      // Enter submits the form of an input alone (a form's own `form` would be its control named so).
      submitted = { form: dom.localName(el) === "input" ? el.form : null, at: performance.now() };
      commit(el, true);
      return;
    }
    if (!inField && SCROLL_KEYS[event.key] && !event.altKey && !event.ctrlKey && !event.metaKey) {
      scrolled(SCROLL_KEYS[event.key]);
    }
  };

  const onLeave = (event) => {
    if (recording && event.target instanceof Element) commit(event.target, false);
  };

  // ---- scrolling ------------------------------------------------------------------------------------------

  // setTimeout never fires in this world while page scripts are off; animation frames do, so the quiet
  // period that ends a burst is watched frame by frame.
  let burst = null; // {direction, last}

  const flush = () => {
    if (!burst) return;
    const { direction } = burst;
    burst = null;
    send({ kind: "scroll", direction });
  };

  const watch = () => {
    if (!burst) return;
    if (performance.now() - burst.last >= SCROLL_QUIET_MS) flush();
    else requestAnimationFrame(watch);
  };

  const scrolled = (direction) => {
    rl.som.hide();
    if (burst && burst.direction !== direction) flush();
    if (burst) {
      burst.last = performance.now();
      return;
    }
    burst = { direction, last: performance.now() };
    requestAnimationFrame(watch);
  };

  const onWheel = (event) => {
    if (!recording || !event.deltaY) return;
    scrolled(event.deltaY > 0 ? "down" : "up");
  };

  // ---- navigations ----------------------------------------------------------------------------------------

  let navigationsStarted = 0;
  // A page's scripts are off, so its navigations come from the input's default actions; a move within this
  // document (no request to the browser) is none.
  globalThis.navigation?.addEventListener("navigate", (event) => {
    if (!event.destination.sameDocument) navigationsStarted += 1;
  });

  window.addEventListener("click", onClick, true);
  window.addEventListener("input", onInput, true);
  window.addEventListener("change", onLeave, true);
  window.addEventListener("focusout", onLeave, true);
  window.addEventListener("keydown", onKeyDown, true);
  window.addEventListener("wheel", onWheel, { capture: true, passive: true });
  document.addEventListener("DOMContentLoaded", connect);
  connect();

  rl.site = {
    setRecording: (on) => {
      recording = !!on;
      if (!recording) {
        editing = null;
        burst = null;
      }
      return recording;
    },
    // A field typed into but not committed yet (the recorder commits it before a Wait or an answer).
    commitTyping: () => {
      if (editing) commit(editing.el, false);
      return true;
    },
    ping: (token) => requestAnimationFrame(() => requestAnimationFrame(() => report("framed", token))),
    navigationsStarted: () => navigationsStarted,
  };
})();
