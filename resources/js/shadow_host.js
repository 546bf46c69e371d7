// The element an injected script draws in (run in ApplicationWorld, after bridge.js).
//
// Defines globalThis.__recordlens.shadowHost(tag, position, html) -> {host, shadow} or null: a new <tag> element
// appended to <html>, whose closed shadow root holds `html`; null while the document has no root element. The
// host resets every inherited style, is `position` (absolute: it scrolls with the document; fixed: it stays with
// the viewport) at the top left with no size, on top of everything, and lets every pointer event through, so the
// page looks and behaves as without it.
(() => {
  const rl = (globalThis.__recordlens = globalThis.__recordlens || {});

  rl.shadowHost = (tag, position, html) => {
    const root = document.documentElement;
    if (!root) return null;
    const host = document.createElement(tag);
    host.style.cssText =
      `all: initial !important; display: block !important; position: ${position} !important; left: 0 !important;` +
      " top: 0 !important; width: 0 !important; height: 0 !important; overflow: visible !important;" +
      " z-index: 2147483647 !important; pointer-events: none !important;";
    const shadow = host.attachShadow({ mode: "closed" });
    shadow.innerHTML = html;
    root.appendChild(host);
    return { host, shadow };
  };
})();
