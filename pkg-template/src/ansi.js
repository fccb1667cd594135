// Terminal escape sequences in a runner's text (ANSI colour codes, cursor moves, OSC links): the
// one pattern, pure and a .js file, so the runners (a closing line's first line of a message) and
// the report preview in the browser (preview/ansi.mjs, which renders the colours) read them alike.

/** Every escape sequence: CSI (`ESC [ ... final`), OSC (`ESC ] ... BEL|ESC \`), and a lone two-character escape. */
// eslint-disable-next-line no-control-regex
export const ESCAPES = /\u001b\[([0-9;:?]*)([@-~])|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]?/g;

/** `text` without its escape sequences. */
export function plain(text) {
  return String(text ?? '').replace(ESCAPES, '');
}
