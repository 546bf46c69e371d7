// The element an injected script draws in (run in ApplicationWorld, after bridge.js).
//
// Defines globalThis.__recordlens.shadowHost(tag, position, css, parts) -> {host, shadow, parts} or null: a new
// <tag> element appended to <html>, whose closed shadow root holds a <style> of `css` and an empty <div> of each
// class name in `parts` (the returned `parts`: those <div>s, in that order); null while the document has no root
// element. The host resets every inherited style, is `position` (absolute: it scrolls with the document; fixed: it
// stays with the viewport) at the top left with no size, on top of everything, and lets every pointer event
// through, so the page looks and behaves as without it.
//
// Built node by node, never from markup: a page whose policy requires Trusted Types (`require-trusted-types-for
// 'script'`) refuses a string given to innerHTML, in this world too, and the app would draw nothing there.
(() => {
  const rl = (globalThis.__recordlens = globalThis.__recordlens || {});

  rl.shadowHost = (tag, position, css, parts) => {
    const root = document.documentElement;
    if (!root) return null;
    const host = document.createElement(tag);
    host.style.cssText =
      `all: initial !important; display: block !important; position: ${position} !important; left: 0 !important;` +
      " top: 0 !important; width: 0 !important; height: 0 !important; overflow: visible !important;" +
      " z-index: 2147483647 !important; pointer-events: none !important;";
    const shadow = host.attachShadow({ mode: "closed" });
    const style = document.createElement("style");
    style.textContent = css;
    const divs = parts.map((name) => {
      const div = document.createElement("div");
      div.className = name;
      return div;
    });
    shadow.replaceChildren(style, ...divs);
    root.appendChild(host);
    return { host, shadow, parts: divs };
  };
})();
