// Test runs with known outcomes, as rows the tests use as the oracle, and as report documents
// (docs/report-format.md): through the package's ReportBuilder, or built directly (fast, for 50,000
// tests).
import { rng } from './data.mjs';

export const ENVIRONMENTS = [{ name: 'chromium' }, { name: 'firefox' }];
export const COMMIT = 'c0ffee'.padEnd(40, '0');
const START = 1_760_000_000_000;
const AREAS = ['checkout', 'login', 'search', 'settings', 'cart', 'profile', 'admin', 'api'];
const VERBS = ['renders', 'submits', 'rejects', 'retries', 'filters', 'paginates', 'saves', 'loads'];

/**
 * `n` tests with a known outcome each: `{file, titlePath, outcome, attempts: [{environmentIdx,
 * status, expectedStatus, duration}]}`. Every test runs in every environment; every duration is
 * > 0 (so a shard plan needs no estimates). Outcomes: failed (one environment fails twice),
 * flaky (one environment fails, then passes on retry), skipped (skipped everywhere), passed.
 */
export function runRows(n, seed = 11, mix = { failed: 0.04, flaky: 0.06, skipped: 0.05 }) {
  const r = rng(seed);
  const rows = [];
  for (let i = 0; i < n; i++) {
    const area = AREAS[i % AREAS.length];
    const file = `tests/${area}/${area}-${Math.floor(i / 200)}.spec.ts`;
    const titlePath = [`${area} ${Math.floor(i / 25) % 8}`, `${VERBS[(r() * VERBS.length) | 0]} case ${i}`];
    const x = r();
    const outcome = x < mix.failed ? 'failed' : x < mix.failed + mix.flaky ? 'flaky' : x < mix.failed + mix.flaky + mix.skipped ? 'skipped' : 'passed';
    // Durations spread over three orders of magnitude, like real suites.
    const dur = () => 1 + Math.round(10 ** (1 + 3.5 * r()));
    const attempts = [];
    ENVIRONMENTS.forEach((_, environmentIdx) => {
      const at = (status, expectedStatus = 'passed', duration = dur()) => attempts.push({ environmentIdx, status, expectedStatus, startTimestamp: START + i, duration });
      if (outcome === 'skipped') at('skipped', 'skipped', 1 + ((r() * 3) | 0));
      else if (outcome === 'failed' && environmentIdx === 0) { at('failed'); at('failed'); }
      else if (outcome === 'flaky' && environmentIdx === ENVIRONMENTS.length - 1) { at('failed'); at('passed'); }
      else at('passed');
    });
    rows.push({ file, titlePath, outcome, attempts });
  }
  return rows;
}

/** What a reader of the rows expects: totals, flaky titles, per-environment ms, tests by duration. */
export function expectedOf(rows) {
  const totals = { tests: rows.length, passed: 0, failed: 0, flaky: 0, skipped: 0 };
  const envMs = ENVIRONMENTS.map(() => 0);
  const tests = [];
  for (const row of rows) {
    totals[row.outcome]++;
    let ms = 0;
    for (const a of row.attempts) { ms += a.duration; envMs[a.environmentIdx] += a.duration; }
    tests.push({ title: row.titlePath.join(' › '), file: row.file, ms });
  }
  tests.sort((a, b) => b.ms - a.ms || (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  return {
    totals, envMs, tests, totalMs: tests.reduce((s, t) => s + t.ms, 0),
    flaky: rows.filter((x) => x.outcome === 'flaky').map((x) => x.titlePath.join(' › ')),
  };
}

/** The rows through the package's ReportBuilder. */
export function buildReport(api, rows, title = 'preview test run') {
  const b = new api.ReportBuilder({ category: 'playwright', commitId: COMMIT, startTimestamp: START, title });
  for (const e of ENVIRONMENTS) b.addEnvironment(e);
  for (const row of rows) {
    const h = b.addTest({ titlePath: row.titlePath, file: row.file, line: 1, column: 1 });
    for (const a of row.attempts) b.addAttempt(h, a);
  }
  const report = b.build();
  report.duration = 60_000;
  return report;
}

/** The rows as a report document built directly: file suites, one describe each, tests. */
export function reportDocument(rows, title = 'large run') {
  const files = new Map();
  for (const row of rows) {
    if (!files.has(row.file)) files.set(row.file, new Map());
    const describes = files.get(row.file);
    const [describe, name] = row.titlePath;
    if (!describes.has(describe)) describes.set(describe, []);
    describes.get(describe).push({ title: name, location: { file: row.file, line: describes.get(describe).length + 1, column: 3 }, attempts: row.attempts });
  }
  return {
    category: 'playwright', commitId: COMMIT, title, startTimestamp: START, duration: 3_600_000, environments: ENVIRONMENTS,
    suites: [...files].map(([file, describes]) => ({
      type: 'file', title: file, location: { file, line: 0 + 1, column: 1 },
      suites: [...describes].map(([title, tests]) => ({ type: 'suite', title, location: { file, line: 1, column: 1 }, tests })),
    })),
  };
}
