// A test's page (#test=<key>): its attempts, each with its errors, steps, output, annotations and
// attachments, then its history across runs (history.mjs, from `shardwise serve`). The key (summary.mjs keyOf) names the test in every report; `#test=<n>` (a list
// position, as links were before keys) still opens, and the address then shows the test's key.
import { $, el, fill } from './dom.mjs';
import { ms, where } from './format.mjs';
import { KEY_PATTERN } from './summary.mjs';
import { attachmentList } from './attachments.mjs';
import { errorBox as errorView, folded } from './error-view.mjs';
import { ansi } from './ansi.mjs';
import { historySection } from './history.mjs';

/** A base64 `buffer` stdio entry as text: UTF-8, invalid bytes as U+FFFD. */
function bufferText(b64) {
  try {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return new TextDecoder('utf-8').decode(bytes);
  } catch {
    return '[not valid base64]';
  }
}

const errorBox = (e) => errorView(e, where);

function stepsTree(steps, depth = 0) {
  return el('ul', { className: 'steps' }, steps.map((s) => el('li', { className: s.error ? 'failed' : undefined },
    el('span', { className: 'step-title' }, String(s.title)), ' ', el('small', null, ms(s.duration ?? 0)),
    s.error ? errorBox(s.error) : undefined,
    s.steps?.length > 0 && depth < 64 && stepsTree(s.steps, depth + 1))));
}

/**
 * An attempt's output: its chunks as written, stderr apart by colour, terminal styles rendered;
 * folded behind its size when long.
 */
function stdioBlock(stdio) {
  const chunks = stdio.map((e) => ({ stream: e.stream, text: e.text !== undefined ? String(e.text) : bufferText(String(e.buffer ?? '')) }));
  // entries are chunks, as written
  const pre = el('pre', { className: 'stdio' }, chunks.map((c) => el('span', { className: c.stream === 2 ? 'stderr' : 'stdout' }, ansi(c.text))));
  return folded(pre, chunks.map((c) => c.text).join(''));
}

/** One attempt's box; `n`: its number in its environment. */
function attemptBox(a, n, envName, attachments) {
  const status = a.status ?? 'passed';
  const expected = a.expectedStatus ?? 'passed';
  const badge = status === expected ? (status === 'skipped' ? 'skipped' : 'passed') : 'failed';
  return el('div', { className: 'attempt', 'data-status': status, 'data-env': envName },
    el('h4', null, el('b', { className: `badge ${badge}` }, status),
      ` ${envName} · ${n === 1 ? 'attempt 1' : `retry ${n - 1}`} · ${ms(a.duration ?? 0)}`,
      status !== expected && el('small', null, ` (expected ${expected})`)),
    a.errors?.length > 0 && [el('h5', null, 'errors'), a.errors.map(errorBox)],
    a.steps?.length > 0 && [el('h5', null, 'steps'), stepsTree(a.steps)],
    a.stdio?.length > 0 && [el('h5', null, 'output'), stdioBlock(a.stdio)],
    a.annotations?.length > 0 && [el('h5', null, 'annotations'), el('ul', { className: 'annotations' }, a.annotations.map((x) => el('li', null,
      el('b', null, String(x.type)), x.description !== undefined ? `: ${x.description}` : '', x.location ? el('small', null, ` ${where(x.location)}`) : undefined)))],
    a.attachments?.length > 0 && [el('h5', null, 'attachments'), attachments(a.attachments)]);
}

/** @param {{state: ReturnType<import('./state.mjs').createState>, worker: ReturnType<import('./worker-client.mjs').createWorkerClient>, tests: {markOpen(key?: string): void}}} page */
export function createTestPage(page) {
  const { state, worker } = page;
  const my = state.testPage;

  /** An object URL for `blob`, revoked when the test page closes. */
  const objectUrl = (blob) => {
    const u = URL.createObjectURL(blob);
    my.objectUrls.push(u);
    return u;
  };
  const revoke = () => {
    for (const u of my.objectUrls) URL.revokeObjectURL(u);
    my.objectUrls = [];
  };

  function close() {
    my.openRef = undefined;
    my.openKey = undefined;
    revoke();
    const d = $('test-detail');
    d.hidden = true;
    d.textContent = '';
    delete d.dataset.id;
    page.tests.markOpen(undefined);
  }

  /** Opens the test the address names (once a report is open), or closes the page. */
  function openFromHash() {
    const m = /^#test=([0-9a-f]{14}|\d{1,13})$/.exec(location.hash);
    if (!m) { close(); return; }
    if (!state.report.summary) return; // asked again once the report is open
    my.openRef = m[1];
    worker.send('test', { ref: my.openRef });
  }
  window.addEventListener('hashchange', openFromHash);

  function onTest({ ref, test }) {
    if (ref !== my.openRef) return;
    const d = $('test-detail');
    revoke();
    d.textContent = '';
    d.hidden = false;
    delete d.dataset.key;
    d.dataset.id = ref;
    if (!test) { d.append(el('p', { className: 'error' }, `This report has no test ${KEY_PATTERN.test(ref) ? `with the key ${ref}` : `#${ref}`}.`)); return; }
    d.dataset.id = String(test.id);
    d.dataset.key = test.key;
    my.openKey = test.key;
    if (ref !== test.key) history.replaceState(null, '', `${location.pathname}${location.search}#test=${test.key}`); // an older link: the address shows the stable one
    const byEnv = new Map();
    const boxes = test.attempts.map((a) => {
      const env = a.environmentIdx ?? 0;
      const n = (byEnv.get(env) ?? 0) + 1;
      byEnv.set(env, n);
      return attemptBox(a, n, test.environments[env] ?? `#${env}`, (atts) => attachmentList(atts, state.report.attachments, objectUrl));
    });
    fill(d,
      el('button', { type: 'button', className: 'close', onclick: () => { history.pushState(null, '', `${location.pathname}${location.search}`); close(); } }, 'close'),
      el('h3', { className: 'test-title' }, test.title),
      el('p', { className: 'links' }, el('a', { className: 'permalink', href: `#test=${test.key}`, title: 'opens this test, in this report and in the next ones' }, 'link to this test')),
      el('p', { className: 'meta' }, [where({ file: test.file, line: test.line }), test.tags?.length ? test.tags.map((t) => (String(t).startsWith('@') ? String(t) : `@${t}`)).join(' ') : undefined].filter(Boolean).join(' · ')),
      el('div', { className: 'attempts' }, boxes, test.attempts.length === 0 && el('p', null, 'No attempts: the test did not run.')),
      historySection(test.key, { fromDisk: state.report.source?.url === undefined }));
    page.tests.markOpen(test.key);
    d.scrollIntoView({ block: 'nearest' });
  }

  return { openFromHash, close, onTest };
}
