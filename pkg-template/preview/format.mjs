// How the page writes numbers, durations, places in a file and a report's name. Pure strings.

/** A number with thousands separators. */
export const fmt = (n) => n.toLocaleString('en-US');

/** "1 test", "2 tests". */
export const count = (n, word) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;

/** A duration: ms below a second, then s, then min. */
export const ms = (v) => (v >= 60_000 ? `${(v / 60_000).toFixed(1)} min` : v >= 1000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);

/** `file:line:column` of a location (as far as it goes), or undefined without a file. */
export const where = (loc) => (loc?.file ? `${loc.file}${loc.line ? `:${loc.line}${loc.column ? `:${loc.column}` : ''}` : ''}` : undefined);

/** What a report is: its runner, its title (a shard's says `shard i/n`) and its commit. */
export function reportLabel({ category, title, commitId }) {
  return [category ?? 'report', title, commitId && `commit ${commitId.slice(0, 10)}`].filter(Boolean).join(' · ');
}
