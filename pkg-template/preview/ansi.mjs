// Terminal styles in a report's text (Playwright's, Jest's and Vitest's messages, snippets, stacks
// and output carry ANSI escape codes): rendered as colours and emphasis, never printed as codes,
// never parsed as markup. `ansi(text)` gives nodes for `el()`: text nodes, and spans whose style
// comes only from the codes' numbers (a class for the 16 colours and the emphases, an rgb() colour
// built from integers for the 256-colour and true-colour codes). Other escape sequences (cursor
// moves, erasing a line, hyperlinks) are dropped. Pure apart from creating nodes.
import { el } from './dom.mjs';
import { ESCAPES, plain } from '../src/ansi.js';

export { plain };

/** The xterm 256-colour palette's colour `n` as `rgb(...)` (16-231: the 6x6x6 cube, 232-255: greys). */
function palette(n) {
  if (n < 16) return undefined;
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return `rgb(${v}, ${v}, ${v})`;
  }
  const c = n - 16;
  const step = (i) => (i === 0 ? 0 : 55 + i * 40);
  return `rgb(${step(Math.floor(c / 36))}, ${step(Math.floor(c / 6) % 6)}, ${step(c % 6)})`;
}

const byte = (v) => (Number.isInteger(v) && v >= 0 && v <= 255 ? v : undefined);

/** The style after one SGR sequence's parameters (`1;31`, `38;5;246`, `38;2;10;20;30`). */
function apply(style, params) {
  const p = params === '' ? [0] : params.split(/[;:]/).map((x) => (x === '' ? 0 : Number(x)));
  const s = { ...style };
  for (let i = 0; i < p.length; i++) {
    const n = p[i];
    if (n === 0) { for (const k of Object.keys(s)) delete s[k]; }
    else if (n === 1) s.bold = true;
    else if (n === 2) s.dim = true;
    else if (n === 3) s.italic = true;
    else if (n === 4) s.underline = true;
    else if (n === 7) s.inverse = true;
    else if (n === 9) s.strike = true;
    else if (n === 22) { delete s.bold; delete s.dim; }
    else if (n === 23) delete s.italic;
    else if (n === 24) delete s.underline;
    else if (n === 27) delete s.inverse;
    else if (n === 29) delete s.strike;
    else if (n >= 30 && n <= 37) { s.fg = n - 30; delete s.fgRgb; }
    else if (n >= 90 && n <= 97) { s.fg = n - 90 + 8; delete s.fgRgb; }
    else if (n === 39) { delete s.fg; delete s.fgRgb; }
    else if (n >= 40 && n <= 47) { s.bg = n - 40; delete s.bgRgb; }
    else if (n >= 100 && n <= 107) { s.bg = n - 100 + 8; delete s.bgRgb; }
    else if (n === 49) { delete s.bg; delete s.bgRgb; }
    else if (n === 38 || n === 48) {
      const fg = n === 38;
      let color;
      let index;
      if (p[i + 1] === 5) {
        index = byte(p[i + 2]);
        color = index !== undefined && index >= 16 ? palette(index) : undefined;
        i += 2;
      } else if (p[i + 1] === 2) {
        const [r, g, b] = [byte(p[i + 2]), byte(p[i + 3]), byte(p[i + 4])];
        color = r !== undefined && g !== undefined && b !== undefined ? `rgb(${r}, ${g}, ${b})` : undefined;
        i += 4;
      }
      if (index !== undefined && index < 16) {
        if (fg) { s.fg = index; delete s.fgRgb; } else { s.bg = index; delete s.bgRgb; }
      } else if (color) {
        if (fg) { s.fgRgb = color; delete s.fg; } else { s.bgRgb = color; delete s.bg; }
      }
    }
  }
  return s;
}

/** A span for `text` in `style`, or the text alone when unstyled. */
function styled(text, s) {
  const classes = [];
  if (s.bold) classes.push('ansi-bold');
  if (s.dim) classes.push('ansi-dim');
  if (s.italic) classes.push('ansi-italic');
  if (s.underline) classes.push('ansi-underline');
  if (s.strike) classes.push('ansi-strike');
  if (s.inverse) {
    // the colour becomes the background (its light shade, the text dark), as a highlight reads
    classes.push('ansi-inverse', `ansi-bg-${s.fg ?? 0}`);
  } else {
    if (s.fg !== undefined) classes.push(`ansi-fg-${s.fg}`);
    if (s.bg !== undefined) classes.push(`ansi-bg-${s.bg}`);
  }
  if (!classes.length && !s.fgRgb && !s.bgRgb) return text;
  const span = el('span', { className: classes.join(' ') || undefined }, text);
  // through the CSSOM (allowed under a strict style-src), from integers only
  if (s.fgRgb) span.style.color = s.fgRgb;
  if (s.bgRgb) span.style.backgroundColor = s.bgRgb;
  return span;
}

/**
 * `text` with its ANSI styles as nodes (for `el()` / `fill()`): text outside any style as text,
 * styled runs as spans. A string without an escape comes back as itself.
 * @param {unknown} text
 * @returns {Array<string | HTMLElement> | string}
 */
export function ansi(text) {
  const str = String(text ?? '');
  if (!str.includes('\u001b')) return str;
  const out = [];
  let style = {};
  let at = 0;
  for (const m of str.matchAll(ESCAPES)) {
    if (m.index > at) out.push(styled(str.slice(at, m.index), style));
    if (m[2] === 'm') style = apply(style, m[1]);
    at = m.index + m[0].length;
  }
  if (at < str.length) out.push(styled(str.slice(at), style));
  return out;
}
