// NEXT-EVAL addressing rules, computed on the live page (run in ApplicationWorld).
//
// The paper pipeline removed script/style/link, meta without charset and comments from the DOM, then took
// XPaths and the text map. Here those nodes are skipped during the walk instead, so the page the app draws
// overlays on stays untouched; since indices count same-tag siblings only, skipping gives the same paths.
//
// Defines globalThis.__recordlens.{dom, isRemoved, xpathOf, domRules} for later scripts in the same world, and
// evaluates to JSON {"xpaths": [...], "textmap": [[key, text], ...]} (a string: Qt's conversion of JS
// arrays and objects is lossy, a string is not).
(() => {
  const rl = (globalThis.__recordlens = globalThis.__recordlens || {});

  // What the app's scripts read of the page's nodes, read as the DOM defines it whatever the page's markup says.
  // A <form>'s named controls shadow the form's own properties in every world, this one included (HTML's
  // [LegacyOverrideBuiltIns]): in <form><input name="parentElement"></form>, `form.parentElement` is the input,
  // whose parentElement is the form again, and a walk up the tree never ends; with name="tagName" the form's
  // tagName is an element. So a page node's properties are read here, through the prototypes' own getters and
  // methods taken once (the page's scripts run in another world and cannot change these prototypes): `dom.X(node)`
  // is `node.X` and `dom.f(node, ...args)` is `node.f(...args)` as the DOM has them. The app's own elements (the
  // overlay's boxes) and the document itself (whose named items shadow nothing of its own) are read directly.
  const getter = (proto, name) => {
    const get = Object.getOwnPropertyDescriptor(proto, name).get;
    return (node) => get.call(node);
  };
  const method = (proto, name) => {
    const f = proto[name];
    return (node, ...args) => f.apply(node, args);
  };
  const NODE_GETTERS = ["parentNode", "parentElement", "firstChild", "nextSibling", "childNodes", "nodeType",
    "textContent", "ownerDocument", "isConnected"];
  const ELEMENT_GETTERS = ["tagName", "localName", "namespaceURI", "firstElementChild", "previousElementSibling",
    "nextElementSibling", "childElementCount", "shadowRoot"];
  const ELEMENT_METHODS = ["hasAttribute", "removeAttribute", "getBoundingClientRect", "getClientRects", "closest",
    "querySelector", "scrollIntoView"];
  rl.dom = Object.freeze(Object.fromEntries([
    ...NODE_GETTERS.map((name) => [name, getter(Node.prototype, name)]),
    ...ELEMENT_GETTERS.map((name) => [name, getter(Element.prototype, name)]),
    ...ELEMENT_METHODS.map((name) => [name, method(Element.prototype, name)]),
    ["contains", method(Node.prototype, "contains")],
    ["blur", method(HTMLElement.prototype, "blur")],
  ]));
  const dom = rl.dom;

  const REMOVED = new Set(["script", "style", "link"]);
  // The reference's post-filter: an entry whose whole text is one of these is dropped.
  const DROPPED_TEXTS = new Set(["\u200b", "\u200c", '"']);
  const ELEMENT_NODE = 1;
  const TEXT_NODE = 3;
  const CDATA_SECTION_NODE = 4;

  rl.isRemoved = (el) => {
    const name = dom.localName(el);
    return REMOVED.has(name) || (name === "meta" && !dom.hasAttribute(el, "charset"));
  };

  // Below <html>, lowercase, `[k]` always written; k counts kept element siblings with the same raw tagName.
  // <html> itself (where the reference's walk stops) is "/". Null for a removed element or one inside one.
  rl.xpathOf = (el) => {
    const root = dom.ownerDocument(el).documentElement;
    const steps = [];
    for (let node = el; node !== root; node = dom.parentElement(node)) {
      if (!node || rl.isRemoved(node)) return null;
      const tag = dom.tagName(node);
      let k = 1;
      for (let sib = dom.previousElementSibling(node); sib; sib = dom.previousElementSibling(sib)) {
        if (dom.tagName(sib) === tag && !rl.isRemoved(sib)) k += 1;
      }
      steps.push(tag.toLowerCase() + "[" + k + "]");
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
      const children = dom.childNodes(el);
      if (frame[2] >= children.length) {
        stack.pop();
        continue;
      }
      const child = children[frame[2]++];
      const type = dom.nodeType(child);
      if (type === TEXT_NODE || type === CDATA_SECTION_NODE) {
        const text = child.data.trim();
        if (text) texts.set(path || "/", text);
      } else if (type === ELEMENT_NODE && !rl.isRemoved(child)) {
        const counters = frame[3];
        const tag = dom.tagName(child);
        const k = (counters.get(tag) || 0) + 1;
        counters.set(tag, k);
        const childPath = path + "/" + tag.toLowerCase() + "[" + k + "]";
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
