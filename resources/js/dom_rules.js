// NEXT-EVAL addressing rules, computed on the live page (run in ApplicationWorld).
//
// The paper pipeline removed script/style/link, meta without charset and comments from the DOM, then took
// XPaths and the text map. Here those nodes are skipped during the walk instead, so the page the app draws
// overlays on stays untouched; since indices count same-tag siblings only, skipping gives the same paths.
//
// Defines globalThis.__recordlens.{isRemoved, xpathOf, domRules} for later scripts in the same world, and
// evaluates to JSON {"xpaths": [...], "textmap": [[key, text], ...]} (a string: Qt's conversion of JS
// arrays and objects is lossy, a string is not).
(() => {
  const rl = (globalThis.__recordlens = globalThis.__recordlens || {});

  const REMOVED = new Set(["script", "style", "link"]);
  // The reference's post-filter: an entry whose whole text is one of these is dropped.
  const DROPPED_TEXTS = new Set(["\u200b", "\u200c", '"']);
  const ELEMENT_NODE = 1;
  const TEXT_NODE = 3;
  const CDATA_SECTION_NODE = 4;

  rl.isRemoved = (el) => {
    const name = el.localName;
    return REMOVED.has(name) || (name === "meta" && !el.hasAttribute("charset"));
  };

  // Below <html>, lowercase, `[k]` always written; k counts kept element siblings with the same raw tagName.
  // <html> itself (where the reference's walk stops) is "/". Null for a removed element or one inside one.
  rl.xpathOf = (el) => {
    const root = el.ownerDocument.documentElement;
    const steps = [];
    for (let node = el; node !== root; node = node.parentElement) {
      if (!node || rl.isRemoved(node)) return null;
      let k = 1;
      for (let sib = node.previousElementSibling; sib; sib = sib.previousElementSibling) {
        if (sib.tagName === node.tagName && !rl.isRemoved(sib)) k += 1;
      }
      steps.push(node.tagName.toLowerCase() + "[" + k + "]");
    }
    return "/" + steps.reverse().join("/");
  };

  rl.domRules = (doc = document) => {
    const root = doc.documentElement;
    const xpaths = [];
    const texts = new Map();
    if (!root) return { xpaths, textmap: [] };
    // Iterative walk over childNodes (template content, frames and shadow roots are not childNodes).
    // Each frame: [element, its xpath ("" for <html>), next child index, per-tagName sibling counters].
    xpaths.push("/");
    const stack = [[root, "", 0, new Map()]];
    while (stack.length) {
      const frame = stack[stack.length - 1];
      const [el, path] = frame;
      const children = el.childNodes;
      if (frame[2] >= children.length) {
        stack.pop();
        continue;
      }
      const child = children[frame[2]++];
      const type = child.nodeType;
      if (type === TEXT_NODE || type === CDATA_SECTION_NODE) {
        const text = child.data.trim();
        if (text) texts.set(path || "/", text);
      } else if (type === ELEMENT_NODE && !rl.isRemoved(child)) {
        const counters = frame[3];
        const k = (counters.get(child.tagName) || 0) + 1;
        counters.set(child.tagName, k);
        const childPath = path + "/" + child.tagName.toLowerCase() + "[" + k + "]";
        xpaths.push(childPath);
        stack.push([child, childPath, 0, new Map()]);
      }
    }
    const textmap = [];
    for (const [key, text] of texts) {
      if (!DROPPED_TEXTS.has(text)) textmap.push([key, text]);
    }
    return { xpaths, textmap };
  };

  try {
    return JSON.stringify(rl.domRules());
  } catch (error) {
    return JSON.stringify({ error: String(error && error.stack ? error.stack : error) });
  }
})();
