// The labelling keys stay with the app in every frame of a saved page (run in ApplicationWorld, in each frame).
//
// A saved page is a record of a page, not an app to use. QtWebEngine claims every key, the window's shortcuts
// included, for a page with the caret in a field (a text input, a textarea, a contenteditable element: what takes
// typing): PgDn scrolled the page, and J or A were typed into the field instead of running their commands. A
// <select> and a slider (`<input type=range>`) claim no key, yet the keys change them: an arrow, or an option's first
// letter, chose another option or moved the slider, so arrows pressed to scroll left the page shown (and its
// screenshot) in a state it was not saved in. So no such field or control keeps the focus, however it got it
// (the page's `autofocus`, a Tab, a click), but a select or a slider Alt+clicked (below): it loses it at once,
// nothing in the page changes with the keys, and the page scrolls with them as a page without fields does. The
// focus event still reaches the overlay, whose element cursor follows a Tab there, so that E acts on the field as a
// click on it does. (Qt hears of the focus for a moment all the same, and of a field in a closed shadow root, which
// no script outside it sees, for good: page_view.py's `_WindowKeysFirst` keeps the window's shortcuts the window's
// then.) A checkbox, a radio button or a <details> the keys reach changes by a click the keys make, which the
// overlay swallows while annotating, as a link's.
//
// An element the page focuses by itself (`autofocus`, with no key or pointer pressed just before) loses the focus
// too, unseen by the app's other listeners: the element cursor does not go where the page put the focus.
//
// Defines globalThis.__recordlens.tabFromTheTop() (below): Tab goes into the page from its top again.
//
// Methods are the prototypes' own, taken before the page exists: a form's named control shadows its form's
// property of that name (`<input name="blur">`), in this world too.
(() => {
  const rl = (globalThis.__recordlens = globalThis.__recordlens || {});
  const matches = Element.prototype.matches;
  const hasAttribute = Element.prototype.hasAttribute;
  const blur = HTMLElement.prototype.blur;
  const scrollIntoView = Element.prototype.scrollIntoView;
  const rootOf = Object.getOwnPropertyDescriptor(Document.prototype, "documentElement").get;
  const OWN_WINDOW_MS = 500; // a focus this long after a key or a pointer's press is theirs, not the page's

  let pressedAt = -Infinity;
  let pressedWithAlt = false; // the last press was a pointer's with Alt: overlay.js lets its click reach the page
  const pressed = (event) => {
    pressedAt = performance.now();
    pressedWithAlt = event.type === "pointerdown" && event.altKey;
  };
  window.addEventListener("keydown", pressed, true);
  window.addEventListener("pointerdown", pressed, true);

  // ":read-write": an <input> that takes text, a <textarea> (neither read-only nor disabled), a contenteditable
  // element: what the keys would type into; and the controls whose value the keys change without a click.
  const CONTROLS = "select, input[type=range i]";
  const TAKES_KEYS = `:read-write, ${CONTROLS}`;
  const takesKeys = (el) => matches.call(el, TAKES_KEYS);
  const pagesOwn = (el) => hasAttribute.call(el, "autofocus") && performance.now() - pressedAt > OWN_WINDOW_MS;
  // An Alt+click is the labeller using the page's own control on purpose: a select (its list opens on the press
  // and closes with the focus) or a slider keeps the focus then. A text field does not: the keys would type.
  const altClicked = (el) => pressedWithAlt && performance.now() - pressedAt <= OWN_WINDOW_MS &&
    matches.call(el, CONTROLS);

  // Capture on the window: before any other listener (the overlay's is on the document). The element focused is
  // the first of the event's path: inside a shadow root the event is retargeted to its host.
  window.addEventListener("focusin", (event) => {
    const el = event.composedPath()[0];
    if (!(el instanceof HTMLElement)) return;
    if (pagesOwn(el)) {
      event.stopImmediatePropagation();
      blur.call(el);
    } else if (takesKeys(el) && !altClicked(el)) {
      blur.call(el);
    }
  }, true);

  // With nothing in focus, Chromium's Tab starts after the element last brought into view by scrollIntoView, and
  // the app brings a page's record into view so (PageView.scroll_to: a page opened at its first record, a record
  // selected): Tab then went on from the record, and out of the page past it, never into the page's links before
  // it. The app's call after such a scroll puts the start back at the page's top, as on a first load: <html>
  // "brought into view" where it is ("nearest": it covers the view or the view holds it all), which scrolls
  // nothing; where it would (a page that moves its <html>), the page is put back where it was.
  rl.tabFromTheTop = () => {
    const [x, y] = [window.scrollX, window.scrollY];
    scrollIntoView.call(rootOf.call(document), { block: "nearest", inline: "nearest", behavior: "instant" });
    if (window.scrollX !== x || window.scrollY !== y) window.scrollTo({ left: x, top: y, behavior: "instant" });
    return true;
  };
})();
