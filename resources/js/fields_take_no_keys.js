// The labelling keys stay with the app in every frame of a saved page (run in ApplicationWorld, in each frame).
//
// A saved page is a record of a page, not an app to use. QtWebEngine claims every key, the window's shortcuts
// included, for a page with the caret in a field (a text input, a textarea, a contenteditable element: what takes
// typing): PgDn scrolled the page, and J or A were typed into the field instead of running their commands. So no
// such field keeps the focus, however it got it (the page's `autofocus`, a Tab, a click): it loses it at once,
// nothing is typed into the page, and the page scrolls with the keys as a page without fields does. The focus event
// still reaches the overlay, whose element cursor follows a Tab there, so that E acts on the field as a click on it
// does. (Qt hears of the focus for a moment all the same, and of a field in a closed shadow root, which no script
// outside it sees, for good: page_view.py's `_WindowKeysFirst` keeps the window's shortcuts the window's then.)
//
// An element the page focuses by itself (`autofocus`, with no key or pointer pressed just before) loses the focus
// too, unseen by the app's other listeners: the element cursor does not go where the page put the focus.
//
// Methods are the prototypes' own, taken before the page exists: a form's named control shadows its form's
// property of that name (`<input name="blur">`), in this world too.
(() => {
  const matches = Element.prototype.matches;
  const hasAttribute = Element.prototype.hasAttribute;
  const blur = HTMLElement.prototype.blur;
  const OWN_WINDOW_MS = 500; // a focus this long after a key or a pointer's press is theirs, not the page's

  let pressedAt = -Infinity;
  const pressed = () => {
    pressedAt = performance.now();
  };
  window.addEventListener("keydown", pressed, true);
  window.addEventListener("pointerdown", pressed, true);

  // ":read-write": an <input> that takes text, a <textarea> (neither read-only nor disabled), a contenteditable
  // element: what the keys would type into.
  const takesTyping = (el) => matches.call(el, ":read-write");
  const pagesOwn = (el) => hasAttribute.call(el, "autofocus") && performance.now() - pressedAt > OWN_WINDOW_MS;

  // Capture on the window: before any other listener (the overlay's is on the document). The element focused is
  // the first of the event's path: inside a shadow root the event is retargeted to its host.
  window.addEventListener("focusin", (event) => {
    const el = event.composedPath()[0];
    if (!(el instanceof HTMLElement)) return;
    if (pagesOwn(el)) {
      event.stopImmediatePropagation();
      blur.call(el);
    } else if (takesTyping(el)) {
      blur.call(el);
    }
  }, true);
})();
