// How the page shows an error and a test's output: terminal styles rendered (ansi.mjs), each
// message once (a stack that begins with its message shows only the rest), a code snippet with
// its marked line (`>` in Playwright's and Jest's code frames) highlighted, and long text folded
// behind its size.
import { el } from './dom.mjs';
import { ansi, plain } from './ansi.mjs';
import { fmt } from './format.mjs';

/** Longer text than this (characters) or more lines than LONG_LINES is folded behind its size. */
export const LONG_CHARS = 20_000;
export const LONG_LINES = 200;

/**
 * The stack without the message it repeats at its start (compared line by line, without styles),
 * or all of it. Its first line may name the error first (`AssertionError: …`, as Vitest's and
 * Node's stacks do); a message longer than the stack repeats (Vitest's with its diff) drops the
 * lines they share.
 */
export function stackAfterMessage(message, stack) {
  if (typeof stack !== 'string' || !stack) return undefined;
  if (typeof message !== 'string' || !message) return stack;
  const m = plain(message).trimEnd().split('\n');
  const s = plain(stack).split('\n');
  if (!m[0] || (s[0] !== m[0] && s[0].replace(/^[\w$.]+: /, '') !== m[0])) return stack;
  let n = 1;
  while (n < m.length && n < s.length && s[n] === m[n]) n++;
  const rest = stack.split('\n').slice(n).join('\n');
  return rest.trim() ? rest : undefined;
}

/** A code snippet, line by line, the marked line (`>` first) highlighted. */
export function snippetNodes(snippet) {
  return String(snippet).split('\n').map((line, i, all) => {
    const nodes = ansi(line);
    const tail = i < all.length - 1 ? '\n' : '';
    return /^\s*>/.test(plain(line)) ? [el('span', { className: 'marked' }, nodes), tail] : [nodes, tail];
  });
}

/** `pre` (showing `text`), folded behind the text's size when long. */
export function folded(pre, text, label = 'output') {
  const str = String(text ?? '');
  const lines = str.split('\n').length;
  if (str.length <= LONG_CHARS && lines <= LONG_LINES) return pre;
  return el('details', { className: 'long-output' },
    el('summary', null, `${label}: ${fmt(lines)} lines, ${fmt(new TextEncoder().encode(plain(str)).length)} bytes (show)`), pre);
}

/** `pre` of `text` (styles rendered), folded behind its size when long. */
export const textBlock = (className, text, label) => folded(el('pre', { className }, ansi(String(text ?? ''))), text, label);

/** One error: its message once, its location, its snippet, the rest of its stack. */
export function errorBox(e, where) {
  const message = e.message !== undefined ? String(e.message) : e.value !== undefined ? String(e.value) : undefined;
  const stack = stackAfterMessage(message, e.stack === undefined ? undefined : String(e.stack));
  return el('div', { className: 'error' },
    message !== undefined && el('pre', { className: 'message' }, ansi(message)),
    e.location && where && el('div', { className: 'location' }, el('small', null, where(e.location))),
    e.snippet && el('pre', { className: 'snippet' }, snippetNodes(e.snippet)),
    stack && textBlock('stack', stack, 'stack'));
}
