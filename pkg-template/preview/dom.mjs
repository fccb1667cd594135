// The one way this page builds DOM: `el()`. A report's titles, messages, output and names are
// strings someone else wrote, so nothing is ever parsed as markup: children are nodes or text
// nodes, attributes are set one by one, a listener is a function, never a string, and a link
// never runs script (a `javascript:` href or src is left out).

/** A URL that would run script when followed or loaded (scheme case and leading blanks as browsers read them). */
const SCRIPT_URL = /^[\u0000-\u0020]*(javascript|vbscript):/i;

/** The element with this id. */
export const $ = (id) => document.getElementById(id);

/**
 * An element. `props`: attributes by name (`className` sets the class; `undefined`, `null` and
 * `false` leave one out, `true` sets it empty; an href or src that is a `javascript:` URL is left
 * out) and listeners (`onclick: fn`: a function, else it throws, so no string of a report can
 * become a handler). `kids`: nodes, or anything else as text (`undefined`, `null` and `false`
 * left out; arrays flattened).
 * @param {string} tag
 * @param {Record<string, unknown> | null} [props]
 * @param {...unknown} kids
 * @returns {HTMLElement}
 */
export function el(tag, props, ...kids) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) {
      if (typeof v !== 'function') throw new TypeError(`el: ${k} must be a function`);
      n.addEventListener(k.slice(2), v);
    } else if (k === 'className') n.className = String(v);
    else if ((k === 'href' || k === 'src') && SCRIPT_URL.test(String(v).replace(/[\t\n\r]/g, ''))) continue;
    else n.setAttribute(k, v === true ? '' : String(v));
  }
  append(n, kids);
  return n;
}

/** Appends `kids` to `node` as `el()` does. */
function append(node, kids) {
  for (const k of kids) {
    if (k === undefined || k === null || k === false) continue;
    if (Array.isArray(k)) append(node, k);
    else node.append(k instanceof Node ? k : String(k));
  }
}

/** Replaces `node`'s children with `kids` (as `el()` takes them). */
export function fill(node, ...kids) {
  node.replaceChildren();
  append(node, kids);
  return node;
}
