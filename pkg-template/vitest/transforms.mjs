// What Vitest's main process spent transforming the suite's own modules, by the test file that
// asked for each first (costs.mjs `firstLoads`): vite transforms a module once per run, and every
// later file reads it from its cache, so a file's collect time holds the transforms it was first
// to ask for, which another shard's order gives to other files. Taken off the files' costs, their
// sum is recorded as a cost a shard pays once per module its files load (Rust `plan::cost`).
//
// Vitest keeps each module's transform time, but not as public API: Vitest 3 in its vite-node
// server (`project.vitenode.durations`: per mode, a Map of module path to durations), Vitest 4
// and later in its state (`ctx.state.metadata[project name].duration`: module url to durations).
// The modules each file loads come from vite's module graph. Read where present; where not, the
// files keep their costs whole and the record has no `transformMs`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportPath } from '../src/runner/options.mjs';
import { firstLoads } from '../src/runner/costs.mjs';

/** A module id or url as a path: without its query, `/@fs/` prefix or NUL marker. */
function pathOf(id, root) {
  if (typeof id !== 'string' || id.startsWith('\0')) return undefined;
  let p = id.replace(/[?#].*$/, '');
  if (p.startsWith('/@fs/')) p = p.slice(4);
  else if (p.startsWith('file://')) p = fileURLToPath(p);
  else if (p.startsWith('/') && root && !p.startsWith(root + '/') && !p.startsWith(root + path.sep)) p = path.join(root, p);
  return path.isAbsolute(p) ? path.normalize(p) : undefined;
}

/** The root a project's module urls are relative to. */
const rootOf = (ctx, project) => project?.config?.root ?? ctx?.config?.root;

/** Per module path, its transforms' time in this run (ms), from every project. */
function transformDurations(ctx) {
  const out = new Map();
  const add = (p, times) => {
    if (!p || !Array.isArray(times)) return;
    const ms = times.reduce((a, t) => a + (Number.isFinite(t) && t > 0 ? t : 0), 0);
    out.set(p, (out.get(p) ?? 0) + ms);
  };
  for (const project of ctx?.projects ?? []) {
    const root = rootOf(ctx, project);
    const byMode = project?.vitenode?.durations; // Vitest 3
    if (byMode) {
      for (const mode of Object.values(byMode)) if (mode instanceof Map) for (const [id, times] of mode) add(pathOf(id, root), times);
      continue;
    }
    const byUrl = ctx?.state?.metadata?.[project?.name]?.duration; // Vitest 4+
    if (byUrl && typeof byUrl === 'object') for (const [url, times] of Object.entries(byUrl)) add(pathOf(url, root), times);
  }
  return out;
}

/** vite's module graphs of a project, where a test file's imports can be read. */
function graphsOf(project) {
  const graphs = [project?.vitenode?.server?.moduleGraph];
  for (const env of Object.values(project?.vite?.environments ?? {})) graphs.push(env?.moduleGraph);
  graphs.push(project?.vite?.moduleGraph);
  return graphs.filter((g) => typeof g?.getModuleById === 'function');
}

/**
 * The module paths a test file loads, directly or through others, in the graphs, that no file
 * before it reached (`visited`: the graphs' nodes reached so far): a node reached before was
 * reached with all it imports, so each node is read once however many files load it (a suite
 * whose every test file imports the whole app). Lazy: read as `firstLoads` takes the files, in
 * the order they began loading.
 */
function* reached(graphs, file, root, visited) {
  for (const g of graphs) {
    const stack = [g.getModuleById(file)];
    while (stack.length) {
      const node = stack.pop();
      if (!node || visited.has(node)) continue;
      visited.add(node);
      const p = pathOf(node.file ?? node.id, root);
      if (p && p !== file) yield p;
      for (const next of node.importedModules ?? []) stack.push(next);
    }
  }
}

/**
 * The run's transforms of the suite's own modules (under `root`, outside `node_modules`, not a
 * test file), by the test file (as the report names it) that asked for each first, and by module
 * (as the report names files), for `RunCosts.transforms`; undefined where Vitest keeps no such
 * figures.
 * @param {object} ctx Vitest's context (`onInit`'s)
 * @param {ReadonlyArray<object>} testModules the run's test modules (`onTestRunEnd`'s)
 * @param {string} root the repository root (report paths are relative to it)
 */
export function vitestTransforms(ctx, testModules, root) {
  const durations = transformDurations(ctx);
  if (!durations.size) return undefined;
  const tests = new Set(testModules.map((m) => m?.moduleId).filter((id) => typeof id === 'string'));
  const own = (p) => p.startsWith(root + path.sep) && !p.split(path.sep).includes('node_modules') && !tests.has(p);
  const suite = new Map([...durations].filter(([p]) => own(p)));
  if (!suite.size) return undefined;
  const files = [];
  const graphs = new Map();
  const visited = new Set();
  for (const m of testModules) {
    const file = typeof m?.moduleId === 'string' ? reportPath(root, m.moduleId) : undefined;
    if (file === undefined) continue;
    const project = m.project;
    if (!graphs.has(project)) graphs.set(project, graphsOf(project));
    const d = typeof m.diagnostic === 'function' ? m.diagnostic() : undefined;
    // the file began loading before its suite started: its collection and set-up files before it
    const started = m.task?.result?.startTime;
    const start = Number.isFinite(started) ? started - (Number(d?.collectDuration) || 0) - (Number(d?.setupDuration) || 0) : Infinity;
    files.push({ file, start, modules: reached(graphs.get(project), m.moduleId, rootOf(ctx, project) ?? root, visited) });
  }
  const loads = firstLoads(files, suite);
  const byModule = new Map();
  for (const [p, ms] of loads.byModule) {
    const id = reportPath(root, p);
    if (id !== undefined) byModule.set(id, ms);
  }
  return { ...loads, byModule };
}
