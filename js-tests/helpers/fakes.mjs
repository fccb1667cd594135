// Fakes for the runner-integration unit tests: Playwright-shaped suite trees, a recording
// ReportBuilder, and a fake `planShards` (greedy, groups kept together) standing in for the core.
import { createHash } from 'node:crypto';

/** A Playwright-like tree. spec: { projects: [{ name, fullyParallel?, files: [{ path, mode?, items }] }] }
 *  items: ['test title', { describe: 'title', mode?, items: [...] }] */
export function playwrightSuite(spec, modes = new Map()) {
  const root = { type: 'root', title: '', suites: [], tests: [] };
  const mk = (type, title, parent, mode) => {
    const s = { type, title, parent, suites: [], tests: [] };
    if (mode) modes.set(s, mode);
    parent.suites.push(s);
    return s;
  };
  for (const p of spec.projects) {
    const ps = mk('project', p.name, root, p.fullyParallel ? 'parallel' : 'default');
    for (const f of p.files) {
      const fs = mk('file', f.path, ps, f.mode ?? (p.fullyParallel ? 'parallel' : 'default'));
      fs.location = { file: `/repo/${f.path}`, line: 0, column: 0 };
      const add = (parent, items, inherited) => {
        let line = 1;
        for (const it of items) {
          if (typeof it === 'string') {
            parent.tests.push({ type: 'test', title: it, parent, location: { file: `/repo/${f.path}`, line: line++, column: 5 }, tags: [], repeatEachIndex: 0 });
          } else {
            const d = mk('describe', it.describe, parent, it.mode ?? inherited);
            add(d, it.items, it.mode ?? inherited);
          }
        }
      };
      add(fs, f.items, modes.get(fs));
    }
  }
  const allTests = (s) => [...s.tests, ...s.suites.flatMap(allTests)];
  root.allTests = () => allTests(root);
  return { root, mode: (s) => modes.get(s) ?? 'default' };
}

const ATTEMPT = ['environmentIdx', 'status', 'expectedStatus', 'startTimestamp', 'duration', 'timeout', 'annotations', 'errors', 'parallelIndex', 'steps', 'stdio', 'attachments'];
const TEST = ['titlePath', 'file', 'line', 'column', 'tags'];
const ENV = ['name', 'systemData', 'metadata'];
const STATUSES = ['passed', 'failed', 'timedOut', 'skipped', 'interrupted'];
function only(obj, keys, what) {
  for (const k of Object.keys(obj)) if (!keys.includes(k)) throw new TypeError(`unknown ${what} field ${k}`);
  for (const [k, v] of Object.entries(obj)) if (v === undefined) throw new TypeError(`${what} field ${k} is undefined`);
}

/** Records every call, rejecting fields the report format does not define (like the core);
 *  attachment ids are SHA-1 like the core's. */
export class FakeBuilder {
  constructor(init) { this.init = init; this.calls = []; this.envs = []; this.tests = new Map(); }
  addEnvironment(env) {
    only(env, ENV, 'environment');
    const key = JSON.stringify(env);
    let i = this.envs.findIndex((e) => JSON.stringify(e) === key);
    if (i < 0) { i = this.envs.length; this.envs.push(env); }
    this.calls.push(['addEnvironment', env]);
    return i;
  }
  addTest(t) {
    only(t, TEST, 'test');
    const key = JSON.stringify([t.file, ...t.titlePath]);
    if (!this.tests.has(key)) this.tests.set(key, { ...t, attempts: [] });
    this.calls.push(['addTest', t]);
    return key;
  }
  addAttempt(h, a) {
    only(a, ATTEMPT, 'attempt');
    for (const k of ['status', 'expectedStatus']) if (a[k] !== undefined && !STATUSES.includes(a[k])) throw new TypeError(`bad ${k} ${a[k]}`);
    if (!Number.isInteger(a.duration) || !Number.isInteger(a.startTimestamp)) throw new TypeError('duration/startTimestamp must be integers'); this.tests.get(h).attempts.push(a); this.calls.push(['addAttempt', h, a]); }
  addAttachment({ name, contentType, data }) {
    const id = createHash('sha1').update(data).digest('hex');
    this.calls.push(['addAttachment', { name, contentType, id }]);
    return { id, name, contentType };
  }
  build() { return { category: this.init.category, commitId: this.init.commitId, environments: this.envs, tests: [...this.tests.values()] }; }
}
