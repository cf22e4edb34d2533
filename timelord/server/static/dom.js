// Elements built as DOM nodes, never as HTML text: strings become text nodes and attribute
// values, so a name or a chat line can never turn into markup (no innerHTML with data).

/** An element `tag` with attributes `attrs` (null and false are left out) and `children`
 * (strings become text; null, false and undefined are skipped; arrays are flattened). */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === null || value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Replace `parent`'s children with `children` (as `h` takes them). */
export function fill(parent, ...children) {
  parent.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element, as `h` builds an HTML one. */
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value !== null && value !== undefined && value !== false) node.setAttribute(name, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child !== null && child !== undefined && child !== false) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** The nodes of HTML drawn by the server's autoescaping templates (a board, a replay step),
 * to put in place with `fill`. The one door for markup in the client scripts: it takes only
 * the server's rendering, never text a script put together (scripts in it do not run). */
export function fromServer(html) {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html");
  return [...doc.body.childNodes].map((n) => document.adoptNode(n));
}
