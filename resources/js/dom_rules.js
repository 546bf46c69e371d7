// NEXT-EVAL addressing rules, computed on the live page (run in ApplicationWorld).
//
// The paper pipeline removed script/style/link, meta without charset and comments from the DOM, then took
// XPaths and the text map. Here those nodes are skipped during the walk instead, so the page the app draws
// overlays on stays untouched; since indices count same-tag siblings only, skipping gives the same paths.
//
// Defines globalThis.__recordlens.{dom, isRemoved, xpathOf, normaliseXpath, resolve, domRules} for later scripts in
// the same world, and evaluates to JSON {"xpaths": [...], "textmap": [[key, text], ...]} (a string: Qt's conversion
// of JS arrays and objects is lossy, a string is not).
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
  // A property only some kinds of element have, each its own (an SVG element has no innerText, and its style is
  // SVGElement's): read by the getter of the first of `protos` the node is one of, undefined on any other node, as
  // reading the property there gives.
  const kindGetter = (name, ...protos) => {
    const gets = protos
      .filter((proto) => proto && Object.getOwnPropertyDescriptor(proto, name))
      .map((proto) => [proto, Object.getOwnPropertyDescriptor(proto, name).get]);
    return (node) => {
      const found = gets.find(([proto]) => proto.isPrototypeOf(node));
      return found ? found[1].call(node) : undefined;
    };
  };
  const NODE_GETTERS = ["parentNode", "parentElement", "firstChild", "lastChild", "nextSibling", "previousSibling",
    "childNodes", "nodeType", "textContent", "ownerDocument", "isConnected"];
  const ELEMENT_GETTERS = ["tagName", "localName", "namespaceURI", "firstElementChild", "previousElementSibling",
    "nextElementSibling", "childElementCount", "shadowRoot", "scrollTop", "clientHeight"];
  const ELEMENT_METHODS = ["getAttribute", "hasAttribute", "setAttribute", "removeAttribute", "getBoundingClientRect",
    "getClientRects", "checkVisibility", "closest", "matches", "querySelector", "querySelectorAll",
    "getElementsByTagName", "scrollIntoView", "scrollBy"];
  const HTML_GETTERS = ["innerText", "isContentEditable", "offsetParent"];
  rl.dom = Object.freeze(Object.fromEntries([
    ...NODE_GETTERS.map((name) => [name, getter(Node.prototype, name)]),
    ...ELEMENT_GETTERS.map((name) => [name, getter(Element.prototype, name)]),
    ...ELEMENT_METHODS.map((name) => [name, method(Element.prototype, name)]),
    ...HTML_GETTERS.map((name) => [name, kindGetter(name, HTMLElement.prototype)]),
    ["style", kindGetter("style", HTMLElement.prototype, SVGElement.prototype, globalThis.MathMLElement?.prototype)],
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

  // A step of an XPath: the element's tag, then its [k]. The tag is all before the step's last [k], as the core
  // keys an element (core/page/dom.py: tag + "[k]"): HTML makes an element named "item[2]" of <item[2]>, so a
  // tag may hold brackets.
  const STEP = /^(.+)\[(\d+)\]$/;
  const INDEXED = /\[\d+\]$/;

  // recordlens.core.records.normalise_xpath, character for character.
  rl.normaliseXpath = (xpath) => {
    if (xpath.startsWith("/html[1]")) xpath = xpath.slice(8);
    else if (xpath.startsWith("/html")) xpath = xpath.slice(5);
    if (!xpath) return xpath;
    return xpath
      .split("/")
      .map((s) => (!s || INDEXED.test(s) ? s : s + "[1]"))
      .join("/");
  };

  // The element an XPath names under these rules (removed kinds skipped, k counted per tagName), or null: the
  // overlay's records and the agent's targets alike. document.evaluate would count script/style/link/meta siblings
  // and disagree with the core. `memo` (prefix -> element) makes resolving many paths of one page cheap.
  rl.resolve = (xpath, memo) => {
    const root = document.documentElement;
    if (!root || typeof xpath !== "string") return null;
    let path = rl.normaliseXpath(xpath);
    if (path === "" || path === "/") return root;
    // A trailing "/" names the element's descendants (as the score reads it): the element, as the core resolves.
    if (path.endsWith("/") && !path.endsWith("//")) path = path.slice(0, -1);
    const steps = path.split("/");
    if (steps[0] !== "") return null;
    let node = root;
    let prefix = "";
    for (let i = 1; i < steps.length; i++) {
      prefix += "/" + steps[i];
      const known = memo && memo.get(prefix);
      if (known !== undefined) {
        if (known === null) return null;
        node = known;
        continue;
      }
      const match = STEP.exec(steps[i]);
      let found = null;
      if (match) {
        const counters = new Map();
        for (let child = dom.firstElementChild(node); child; child = dom.nextElementSibling(child)) {
          if (rl.isRemoved(child)) continue;
          const tag = dom.tagName(child);
          const k = (counters.get(tag) || 0) + 1;
          counters.set(tag, k);
          // Compared as text: the core's lookup is by string, so "div[01]" names nothing there either.
          if (String(k) === match[2] && tag.toLowerCase() === match[1]) {
            found = child;
            break;
          }
        }
      }
      if (memo) memo.set(prefix, found);
      if (!found) return null;
      node = found;
    }
    return node;
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
