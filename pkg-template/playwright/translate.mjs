// Pure translations between Playwright's objects and the core's input. No wasm, no IO except the
// `readFile` callers pass in; unit-tested with plain objects shaped like Playwright's.
import { relativePosix, reportPath, testFile } from '../src/runner/options.mjs';
import { addTest, addAttempt, text, list, wholeMs, position } from '../src/runner/record.mjs';

/** Compares dotted versions: is `version` >= `min`? */
export function versionAtLeast(version, min) {
  const a = String(version ?? '').split(/[.-]/).map((x) => parseInt(x, 10) || 0);
  const b = min.split('.').map(Number);
  for (let i = 0; i < b.length; i++) if ((a[i] ?? 0) !== b[i]) return (a[i] ?? 0) > b[i];
  return true;
}

/** Balancing needs `preprocess` with `skipSharding` and `exclude` (Playwright >= 1.62). */
export const MIN_PLAYWRIGHT = '1.62';

/** Names of projects that are another project's dependency or teardown: read-only in `preprocess`. */
export function readonlyProjects(config) {
  const names = new Set();
  for (const p of config?.projects ?? []) {
    for (const d of p.dependencies ?? []) names.add(d);
    if (p.teardown) names.add(p.teardown);
  }
  return names;
}

/**
 * The projects Playwright runs on every shard that needs them, outside the plan: for the shard
 * record's `shared` (Rust `plan::verify`), `[{project, units, dependents?}]`. `units`: the ids of
 * a dependency or teardown project's tests in `suite` (as `preprocess` gives it); `dependents`
 * (dependency projects only, not teardowns): the planned `units` of every project that needs it,
 * directly or through other dependencies (Playwright runs the whole closure first); a
 * dependency with no test in `suite` is there with its dependents, and `leftOut: true` when
 * Playwright left its project out of the run (`--no-deps`: the root suite has no project suite of
 * that name, where it has one, empty or not, for every dependency it runs); a teardown with no
 * test is left out; by project name.
 */
export function sharedProjects(config, suite, units, root) {
  const projects = new Map((config?.projects ?? []).map((p) => [p.name, p]));
  const readonly = readonlyProjects(config);
  const dependencies = new Set((config?.projects ?? []).flatMap((p) => p.dependencies ?? []));
  // each project's closure of dependencies (Playwright's buildProjectsClosure, less teardowns)
  const closures = new Map();
  const closure = (name) => {
    if (closures.has(name)) return closures.get(name);
    const out = new Set();
    closures.set(name, out); // a cycle (Playwright refuses it) ends here
    for (const d of projects.get(name)?.dependencies ?? []) {
      out.add(d);
      for (const x of closure(d)) out.add(x);
    }
    return out;
  };
  const shared = new Map();
  const entry = (project) => {
    if (!shared.has(project)) shared.set(project, { project, units: [], ...(dependencies.has(project) ? { dependents: [] } : {}) });
    return shared.get(project);
  };
  for (const test of suite.allTests()) {
    const project = projectName(test);
    if (readonly.has(project)) entry(project).units.push(unitId(test, root));
  }
  // a dependency with no test here still has its dependents (`--no-deps`: Playwright leaves it
  // out): verify then checks this shard against the other shards' list of its tests, and names
  // the shard even when no shard ran them, as the project was left out
  const run = Array.isArray(suite?.suites) ? new Set(suite.suites.filter((s) => s.type === 'project').map((s) => s.title)) : undefined;
  for (const u of units) {
    for (const d of closure(u.project)) {
      const e = entry(d);
      e.dependents.push(u.id);
      if (run && !run.has(d)) e.leftOut = true;
    }
  }
  return [...shared.values()].sort((a, b) => (a.project < b.project ? -1 : a.project > b.project ? 1 : 0));
}

/**
 * The setup and teardown projects as the planner takes them (`planShards`' `setups`, Rust
 * `plan::setups`), from `sharedProjects`' entries: per project its tests here (`tests`, for their
 * durations), the planned units that make a shard run it (`dependents`: a teardown's are those of
 * the setups it tears down), its `level` (0 for a setup that needs no other, else one more than
 * the deepest it needs: Playwright runs each level in a phase of its own, before the dependents)
 * and whether it is a teardown (run after them). `sharedTests`: `{project, id, ...}` of the
 * projects' tests.
 */
export function setupsOf(config, shared, sharedTests) {
  const projects = new Map((config?.projects ?? []).map((p) => [p.name, p]));
  const levels = new Map();
  const level = (name, seen = new Set()) => {
    if (levels.has(name)) return levels.get(name);
    if (seen.has(name)) return 0; // a cycle (Playwright refuses it)
    seen.add(name);
    const deps = projects.get(name)?.dependencies ?? [];
    const l = deps.length ? 1 + Math.max(...deps.map((d) => level(d, seen))) : 0;
    levels.set(name, l);
    return l;
  };
  const byProject = new Map(shared.map((s) => [s.project, s]));
  const tornDownBy = new Map();
  for (const p of config?.projects ?? []) if (p.teardown) tornDownBy.set(p.teardown, [...(tornDownBy.get(p.teardown) ?? []), p.name]);
  return shared.map((s) => {
    const teardown = !s.dependents && tornDownBy.has(s.project);
    const dependents = s.dependents ?? [...new Set((tornDownBy.get(s.project) ?? []).flatMap((p) => byProject.get(p)?.dependents ?? []))];
    return {
      id: s.project,
      tests: sharedTests.filter((t) => t.project === s.project),
      dependents,
      level: teardown ? 0 : Math.min(level(s.project), 8),
      teardown,
    };
  });
}

const projectOf = (node) => {
  for (let s = node.parent; s; s = s.parent) if (s.type === 'project') return s;
  return undefined;
};
const projectName = (node) => projectOf(node)?.title ?? '';

/** The describe titles between the file and `node` (exclusive of node for tests). */
function describes(suite) {
  const titles = [];
  for (let s = suite; s && s.type === 'describe'; s = s.parent) titles.unshift(text(s.title));
  return titles;
}

function fileOf(node) {
  for (let s = node; s; s = s.parent) if (s.type === 'file') return s;
  return undefined;
}

/**
 * Where a test sits in the report: its file (POSIX, relative to `ctx.root`; none for a file
 * outside it, see `testFile`) and title path. `path` is the file relative to the root even when
 * outside it (`../e2e/a.spec.ts`): it tells such tests apart in planner ids.
 */
export function testIdentity(test, ctx) {
  // a file of another type is no file (path.relative would throw and lose the result)
  const source = [test.location?.file, fileOf(test)?.location?.file].find((f) => typeof f === 'string');
  return {
    project: projectName(test),
    path: relativePosix(ctx.root, source),
    file: testFile(ctx, source),
    titlePath: [...describes(test.parent), text(test.title)],
  };
}

/**
 * A suite's execution mode: `testRun.mode` when the version has it, else Playwright's internal
 * field, else the project's `fullyParallel`.
 */
export function modeResolver(testRun, config) {
  if (typeof testRun?.mode === 'function') return (suite) => testRun.mode(suite);
  const resolve = (suite) => {
    const m = suite?._parallelMode;
    if (m === 'serial' || m === 'parallel' || m === 'default') return m;
    if (!suite || suite.type === 'project' || !suite.parent) {
      const p = suite?.project?.() ?? undefined;
      return (p?.fullyParallel ?? config?.fullyParallel) ? 'parallel' : 'default';
    }
    return resolve(suite.parent);
  };
  return resolve;
}

/**
 * The indivisible group of a test, or undefined when the test may run anywhere: the outermost
 * serial suite; else, unless its suite is parallel, the outermost suite of the contiguous
 * "default" chain above it (the whole file when the file is not fully parallel).
 */
function groupRoot(test, mode) {
  const chain = [];
  for (let s = test.parent; s && (s.type === 'describe' || s.type === 'file'); s = s.parent) chain.push(s);
  let serial;
  for (const s of chain) if (mode(s) === 'serial') serial = s;
  if (serial) return serial;
  if (chain.length === 0 || mode(chain[0]) === 'parallel') return undefined;
  let root = chain[0];
  for (const s of chain) {
    if (mode(s) !== 'default') break;
    root = s;
  }
  return root;
}

/**
 * The full suite (as `preprocess` gives it) -> planner units.
 * @returns {Array<{id: string, file?: string, group?: string, project: string, titlePath: string[], test: object}>}
 */
export function unitsFromSuite(suite, { root, mode, readonly = new Set() }) {
  const units = [];
  for (const test of suite.allTests()) {
    const { project, path, file, titlePath } = testIdentity(test, { root });
    if (readonly.has(project)) continue;
    const repeat = test.repeatEachIndex ? [test.repeatEachIndex] : [];
    const id = unitId(test, root);
    const g = groupRoot(test, mode);
    const unit = { id, file, project, titlePath, test };
    if (g) unit.group = JSON.stringify([project, path, ...describes(g), ...repeat]);
    units.push(unit);
  }
  return units;
}

/** A test's planner id: its project, file (relative to `root`), title path and repeat index. */
export function unitId(test, root) {
  const { project, path, titlePath } = testIdentity(test, { root });
  return JSON.stringify([project, path, ...titlePath, ...(test.repeatEachIndex ? [test.repeatEachIndex] : [])]);
}

/** A report environment for a Playwright project. */
export function environmentFor(project, osInfo) {
  const metadata = {};
  for (const [k, v] of Object.entries(project?.metadata ?? {}))
    if (['string', 'number', 'boolean'].includes(typeof v)) metadata[k] = v;
  const browserName = project?.use?.browserName;
  if (typeof browserName === 'string') metadata.browserName = browserName;
  const env = { name: project?.name || 'default', systemData: osInfo };
  if (Object.keys(metadata).length) env.metadata = metadata;
  return env;
}

/** Drops undefined fields (the core rejects nothing for them, but keeps documents small). */
export function compact(obj) {
  const out = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

/**
 * A location in the repository, or none: a file outside it has no report path, and Playwright
 * says "no location" with line 0 (annotations of declared skips, say).
 */
const location = (loc, root) => {
  const file = reportPath(root, typeof loc?.file === 'string' ? loc.file : undefined);
  const line = position(loc?.line);
  return file && line ? { file, line, column: position(loc.column) ?? 1 } : undefined;
};

/**
 * -1 (any negative): the test never ran on a worker (a declared skip, a test left out after
 * maxFailures), so none. A value of another type goes to the builder to take or leave out (said);
 * it is not compared here, since comparing a Symbol or an object without prototype throws.
 */
const parallelIndexOf = (v) => (typeof v === 'number' && v < 0 ? undefined : v);

const STATUSES = new Set(['passed', 'failed', 'timedOut', 'skipped', 'interrupted']);

/**
 * Playwright's status, or 'skipped' for one the format does not know (none, a later version's):
 * the builder cannot leave a status out, since an attempt without one reads as passed.
 */
const statusOf = (s) => (STATUSES.has(s) ? s : 'skipped');

const error = (e, root) => compact({
  message: e?.message, stack: e?.stack, snippet: e?.snippet, value: e?.value, location: location(e?.location, root),
});

function step(s, root, depth = 0) {
  return compact({
    title: text(s?.title),
    duration: wholeMs(s?.duration ?? 0),
    location: location(s?.location, root),
    error: s?.error ? error(s.error, root) : undefined,
    // the builder refuses attempts nested deeper than it stores; deeper steps are left out
    steps: depth < 32 ? list(s?.steps).map((c) => step(c, root, depth + 1)) : undefined,
  });
}

/** One output entry: text, or bytes as base64 (none for anything else). */
function output(chunk, stream, dts) {
  if (typeof chunk === 'string') return [{ stream, dts, text: chunk }];
  if (chunk instanceof Uint8Array || ArrayBuffer.isView(chunk)) return [{ stream, dts, buffer: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('base64') }];
  return [];
}

/**
 * A result's output as the format wants it: one list in the order it was written, each entry
 * with the ms since the one before (since the attempt's start for the first). `written` is that
 * order, as the reporter saw it through `onStdOut`/`onStdErr` (`{stream, at, chunk}`); when it
 * does not cover the result's output (a reporter that missed some), each stream is kept whole,
 * stdout first, untimed.
 */
export function stdioOf(result, written, startMs) {
  const stdout = list(result?.stdout);
  const stderr = list(result?.stderr);
  if (written?.length && written.length === stdout.length + stderr.length) {
    let prev = startMs ?? written[0].at;
    return written.flatMap(({ stream, at, chunk }) => {
      const dts = Math.max(0, Math.round(at - prev));
      prev = Math.max(prev, at);
      return output(chunk, stream, dts);
    });
  }
  return [...stdout.flatMap((c) => output(c, 1, 0)), ...stderr.flatMap((c) => output(c, 2, 0))];
}

/** One attachment's bytes and reference, or none when its file is gone (said once). */
function attachment(builder, ctx, a) {
  let data = a?.body;
  if (data === undefined && typeof a?.path === 'string') {
    try {
      data = ctx.readFile(a.path);
    } catch (e) {
      ctx.notes?.lost(`an attachment could not be read (${a.path}: ${e?.code ?? e?.message ?? e})`);
      return undefined;
    }
  }
  if (typeof data === 'string') data = Buffer.from(data);
  if (!(data instanceof Uint8Array)) return undefined;
  const name = text(a.name) || 'attachment';
  const contentType = text(a.contentType) || 'application/octet-stream';
  return ctx.store.add(builder, { name, contentType, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) });
}

/**
 * One finished attempt -> `addTest` + `addAttempt` on the builder (and `addAttachment` through
 * `store`). `ctx`: `{ root, envIndex: Map<projectName, number>, store, readFile, notes?,
 * onOutsideRoot? }`. A value the report format cannot hold is left out where it stands (see
 * src/runner/record.mjs); the rest of the attempt is kept.
 */
export function recordResult(builder, ctx, test, result) {
  const { project, file, titlePath } = testIdentity(test, ctx);
  const handle = addTest(builder, ctx, compact({
    titlePath, file, line: test.location?.line, column: test.location?.column,
    tags: Array.isArray(test.tags) ? test.tags : undefined,
  }));
  if (handle === undefined) return undefined;
  const attachments = list(result?.attachments).map((a) => attachment(builder, ctx, a)).filter(Boolean);
  addAttempt(builder, ctx, handle, compact({
    environmentIdx: ctx.envIndex.get(project) ?? 0,
    status: statusOf(result?.status),
    expectedStatus: test.expectedStatus,
    startTimestamp: wholeMs(result?.startTime instanceof Date ? result.startTime.getTime() : result?.startTime),
    duration: wholeMs(result?.duration),
    timeout: wholeMs(test.timeout),
    parallelIndex: parallelIndexOf(result?.parallelIndex),
    annotations: list(result?.annotations ?? test.annotations).map((a) => compact({
      type: text(a?.type), description: a?.description, location: location(a?.location, ctx.root),
    })),
    errors: list(result?.errors).map((e) => error(e, ctx.root)),
    steps: list(result?.steps).map((s) => step(s, ctx.root)),
    stdio: stdioOf(result, ctx.writtenOf?.(result), wholeMs(result?.startTime instanceof Date ? result.startTime.getTime() : result?.startTime)),
    attachments,
  }));
  return handle;
}
