// The report preview's test list and test pages, for real: a report with failures, a flaky test,
// steps, output, annotations and an image attachment uploaded to the local service, the page in
// headless Chromium. The list (filters, search, sort, virtualised at 100,000 tests), a test's page
// opened by click and by its #test= URL, and a report whose titles, messages and output are
// markup that must stay text.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as api from 'shardwise';
import { createServer } from '../pkg/server/index.mjs';
import { AttachmentStore, saveReport } from '../pkg/src/runner/report.mjs';
import { launchChromium, pageWithErrors } from './helpers/chromium.mjs';
import { runRows, reportDocument, COMMIT } from './helpers/reports.mjs';
import { png, webm } from './helpers/media.mjs';

const PKG = fileURLToPath(new URL('../pkg/', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));
const OUT = fileURLToPath(new URL('./.out/preview-tests/', import.meta.url));
// PREVIEW_STATIC: a folder laid out like pkg/ (for trying pkg-template/preview without a build)
const STATIC = process.env.PREVIEW_STATIC ?? PKG;
const XSS = '<img src=x onerror="window.pwned=1">';
const START = 1_760_000_000_000;

// What the list must show for the debugging report: title -> [outcome, ms, retries, file:line].
const EXPECTED = {
  'checkout › pays by card': ['failed', 3400, 1, 'tests/checkout.spec.ts:10'],
  'checkout › applies coupon': ['flaky', 850, 1, 'tests/checkout.spec.ts:20'],
  'login › remembers me': ['skipped', 0, 0, 'tests/login.spec.ts:5'],
  'login › logs in': ['passed', 200, 0, 'tests/login.spec.ts:12'],
  'login › logs out': ['passed', 9000, 0, 'tests/login.spec.ts:30'],
  'search › finds nothing': ['failed', 700, 0, 'tests/search.spec.ts:3'],
  [XSS]: ['failed', 50, 0, 'tests/xss.spec.ts:1'],
};

const DUMP = Buffer.from([0, 1, 2, 0xfe, 0xff, 0x80, 0x7f]);

/**
 * The debugging report, through the package's ReportBuilder, with its attachments (also written
 * to `store`'s folder, as the reporters do: the runner's own AttachmentStore).
 */
function debugReport({ video, store }) {
  const b = new api.ReportBuilder({ category: 'playwright', commitId: COMMIT, startTimestamp: START, title: 'debug run' });
  b.addEnvironment({ name: 'chromium' });
  b.addEnvironment({ name: 'firefox' });
  const attach = (x) => store.add(b, x);
  const shot = attach({ name: 'screenshot', contentType: 'image/png', data: png(40, 20, [0x10, 0x80, 0xf0]) });
  const trace = attach({ name: 'trace.txt', contentType: 'text/plain', data: Buffer.from('trace line 1\n<b>not bold</b>\n') });
  const vid = attach({ name: 'video.webm', contentType: 'video/webm', data: video });
  const dump = attach({ name: 'dump.bin', contentType: 'application/octet-stream', data: DUMP });
  const xssAtt = attach({ name: XSS, contentType: 'text/html', data: Buffer.from(XSS) });
  const add = (file, titlePath, line, attempts) => {
    const h = b.addTest({ titlePath, file, line, column: 1 });
    for (const a of attempts) b.addAttempt(h, { startTimestamp: START, status: 'passed', expectedStatus: 'passed', ...a });
  };
  const error = {
    message: 'expect(received).toBe(expected)\n\nExpected: 200\nReceived: 402',
    stack: 'Error: expect(received).toBe(expected)\n    at pay (tests/checkout.spec.ts:14:5)',
    snippet: '> 14 |     expect(res.status).toBe(200);\n     |                        ^',
    location: { file: 'tests/checkout.spec.ts', line: 14, column: 5 },
  };
  add('tests/checkout.spec.ts', ['checkout', 'pays by card'], 10, [
    {
      environmentIdx: 0, status: 'failed', duration: 1200, errors: [error],
      steps: [
        { title: 'open the cart', duration: 300, steps: [{ title: 'page.goto(/cart)', duration: 250 }] },
        { title: 'pay', duration: 800, error: { message: 'payment declined' }, steps: [{ title: 'click "Pay"', duration: 40 }, { title: 'expect status', duration: 5 }] },
      ],
      stdio: [
        { stream: 1, dts: 5, text: 'paying 12.00 EUR\n' },
        { stream: 2, dts: 9, text: 'warning: card expires soon\n' },
        { stream: 1, dts: 1, buffer: Buffer.from([0x62, 0x79, 0x74, 0x65, 0x73, 0x20, 0xff, 0xfe, 0x20, 0x6f, 0x6b, 0x0a]).toString('base64') },
      ],
      annotations: [{ type: 'issue', description: 'PAY-123 card payments fail on Mondays' }],
      attachments: [shot, trace, vid, dump],
    },
    { environmentIdx: 0, status: 'failed', duration: 1300, errors: [{ ...error, message: 'second try: Received: 402' }] },
    { environmentIdx: 1, status: 'passed', duration: 900 },
  ]);
  add('tests/checkout.spec.ts', ['checkout', 'applies coupon'], 20, [
    { environmentIdx: 0, status: 'failed', duration: 300, errors: [{ message: 'coupon service timed out' }] },
    { environmentIdx: 0, status: 'passed', duration: 350 },
    { environmentIdx: 1, status: 'passed', duration: 200 },
  ]);
  add('tests/login.spec.ts', ['login', 'remembers me'], 5, [
    { environmentIdx: 0, status: 'skipped', expectedStatus: 'skipped', duration: 0, annotations: [{ type: 'skip', description: 'not on CI' }] },
    { environmentIdx: 1, status: 'skipped', expectedStatus: 'skipped', duration: 0 },
  ]);
  add('tests/login.spec.ts', ['login', 'logs in'], 12, [{ environmentIdx: 0, duration: 100 }, { environmentIdx: 1, duration: 100 }]);
  add('tests/login.spec.ts', ['login', 'logs out'], 30, [{ environmentIdx: 0, duration: 5000 }, { environmentIdx: 1, duration: 4000 }]);
  add('tests/search.spec.ts', ['search', 'finds nothing'], 3, [{ environmentIdx: 1, status: 'failed', duration: 700, errors: [{ message: 'no results' }] }]);
  add('tests/xss.spec.ts', [XSS], 1, [{
    environmentIdx: 0, status: 'failed', duration: 50,
    errors: [{ message: XSS, stack: `${XSS}\n    at ${XSS}`, snippet: XSS }],
    steps: [{ title: XSS, duration: 1 }],
    stdio: [{ stream: 1, text: XSS }, { stream: 2, text: XSS }, { stream: 1, buffer: Buffer.from(XSS).toString('base64') }],
    annotations: [{ type: XSS, description: XSS }],
    attachments: [xssAtt],
  }]);
  const report = b.build();
  report.duration = 20_000;
  return { report, attachments: b.attachments() };
}

let srv, browser, small;
const FOLDER = `${OUT}test-results/`; // a reporter's outputFolder

before(async () => {
  srv = await createServer({ staticDir: STATIC, computeDelayMs: 0 });
  browser = await launchChromium();
  const p = await browser.newPage();
  await p.goto(`${srv.baseUrl}/api/reports`); // WebCodecs wants a secure context: loopback http is one
  const video = await webm(p, { width: 64, height: 48, frames: 10, fps: 10 });
  await p.close();
  rmSync(OUT, { recursive: true, force: true });
  const store = new AttachmentStore(FOLDER);
  const { report, attachments } = debugReport({ video, store });
  saveReport(FOLDER, api.encodeReport(report), store.list());
  const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report, attachments });
  small = { report, url: `/api/reports/${up.webUrl.split('/').pop()}/report.json.br`, reportUrl: up.reportUrl };
});

after(async () => {
  await browser?.close();
  await srv?.close();
});

/** A page that fails the test on any uncaught page error or console error. */
const newPage = () => pageWithErrors(browser);

const listed = (page, count, timeout = 30_000) => page.waitForSelector(`#tests[data-count="${count}"]:not([aria-busy])`, { timeout });

/** The rows the list shows, in order. */
const readRows = (page) => page.$$eval('#tests-rows .trow', (rows) => rows.map((r) => {
  const c = r.children;
  return { id: Number(r.dataset.id), key: r.dataset.key, outcome: c[0].textContent, title: c[1].textContent, where: c[2].textContent, ms: Number(r.dataset.ms), retries: Number(c[4].textContent) };
}));

async function openSmall(page, hash = '') {
  await page.goto(`${srv.baseUrl}/preview/?url=${encodeURIComponent(small.url)}${hash}`);
  await page.waitForSelector('#status[data-state="ready"]');
  await listed(page, 7);
}

/** The open test page, read from the DOM. */
const readDetail = (page) => page.$eval('#test-detail', (d) => ({
  id: d.dataset.id,
  title: d.querySelector('.test-title')?.textContent,
  meta: d.querySelector('.meta')?.textContent,
  attempts: [...d.querySelectorAll('.attempt')].map((a) => ({
    head: a.querySelector('h4').textContent,
    status: a.dataset.status,
    env: a.dataset.env,
    messages: [...a.querySelectorAll(':scope > .error pre.message')].map((p) => p.textContent),
    stacks: [...a.querySelectorAll(':scope > .error pre.stack')].map((p) => p.textContent),
    snippets: [...a.querySelectorAll(':scope > .error pre.snippet')].map((p) => p.textContent),
    steps: [...a.querySelectorAll('ul.steps li')].map((li) => {
      let depth = 0;
      for (let p = li.parentElement; p && p.matches('ul.steps, li'); p = p.parentElement) if (p.matches('ul.steps')) depth++;
      return `${depth}:${li.querySelector(':scope > .step-title').textContent} ${li.querySelector(':scope > small').textContent}`;
    }),
    stepErrors: [...a.querySelectorAll('ul.steps .error pre.message')].map((p) => p.textContent),
    stdout: [...a.querySelectorAll('pre.stdio .stdout')].map((s) => s.textContent).join(''),
    stderr: [...a.querySelectorAll('pre.stdio .stderr')].map((s) => s.textContent).join(''),
    annotations: [...a.querySelectorAll('ul.annotations li')].map((li) => li.textContent),
    attachments: [...a.querySelectorAll('ul.attachments li')].map((li) => `${li.querySelector('.name').textContent} ${li.querySelector('small').textContent}`),
  })),
}));

test('test list: every test with its status, duration, file:line and retries; filter by status, environment, file; search; sort by a clicked column', async () => {
  const page = await newPage();
  await openSmall(page);
  let rows = await readRows(page);
  assert.equal(rows.length, 7);
  assert.deepEqual(Object.fromEntries(rows.map((r) => [r.title, [r.outcome, r.ms, r.retries, r.where]])), EXPECTED);
  assert.equal(await page.textContent('#tests-count'), '(7 tests)');
  const totals = await page.$$eval('#totals [data-total]', (cs) => Object.fromEntries(cs.map((c) => [c.dataset.total, Number(c.dataset.value)])));
  const byOutcome = {};
  for (const r of rows) byOutcome[r.outcome] = (byOutcome[r.outcome] ?? 0) + 1;
  assert.deepEqual(byOutcome, { failed: 3, flaky: 1, skipped: 1, passed: 2 });
  for (const k of Object.keys(byOutcome)) assert.equal(totals[k], byOutcome[k], `the ${k} card agrees with the list`);

  await page.selectOption('#f-status', 'failed');
  await listed(page, 3);
  rows = await readRows(page);
  assert.deepEqual(rows.map((r) => r.outcome), ['failed', 'failed', 'failed']);
  assert.deepEqual(rows.map((r) => r.title).sort(), ['checkout › pays by card', 'search › finds nothing', XSS].sort());
  assert.equal(await page.textContent('#tests-count'), '(3 of 7 tests)');

  // In firefox only: the XSS test did not run there, "pays by card" passed there.
  await page.selectOption('#f-status', '');
  await page.selectOption('#f-env', '1');
  await listed(page, 6);
  rows = await readRows(page);
  assert.ok(!rows.some((r) => r.title === XSS));
  assert.deepEqual(rows.find((r) => r.title === 'checkout › pays by card'), { ...rows.find((r) => r.title === 'checkout › pays by card'), outcome: 'passed', ms: 900, retries: 0 });
  await page.selectOption('#f-status', 'failed');
  await listed(page, 1);
  assert.deepEqual((await readRows(page)).map((r) => r.title), ['search › finds nothing']);
  await page.selectOption('#f-status', '');
  await page.selectOption('#f-env', '');
  await listed(page, 7);
  // A status card lists its tests.
  await page.click('#totals [data-total="flaky"]');
  await listed(page, 1);
  assert.deepEqual((await readRows(page)).map((r) => [r.title, r.outcome]), [['checkout › applies coupon', 'flaky']]);
  assert.equal(await page.inputValue('#f-status'), 'flaky');
  await page.click('#totals [data-total="tests"]');
  await listed(page, 7);

  await page.fill('#f-file', 'login');
  await listed(page, 3);
  assert.ok((await readRows(page)).every((r) => r.where.startsWith('tests/login.spec.ts:')));
  await page.fill('#f-file', '');
  await page.fill('#f-text', 'LOGS out');
  await listed(page, 1);
  assert.deepEqual((await readRows(page)).map((r) => r.title), ['login › logs out']);
  await page.fill('#f-text', 'coupon');
  await listed(page, 1);
  await page.fill('#f-text', 'no such test');
  await listed(page, 0);
  assert.deepEqual(await readRows(page), []);
  await page.fill('#f-text', '');
  await listed(page, 7);

  // Sorting: duration (longest first, then reversed), status (failures first), file:line.
  const byMs = Object.entries(EXPECTED).sort((a, b) => b[1][1] - a[1][1]);
  await page.click('#tests .vhead button[data-sort="duration"]');
  await listed(page, 7);
  rows = await readRows(page);
  assert.deepEqual(rows.map((r) => r.ms), byMs.map((e) => e[1][1]));
  assert.equal(rows[0].title, 'login › logs out');
  assert.equal(await page.getAttribute('#tests .vhead button[data-sort="duration"]', 'aria-sort'), 'descending');
  await page.click('#tests .vhead button[data-sort="duration"]');
  await listed(page, 7);
  assert.deepEqual((await readRows(page)).map((r) => r.ms), byMs.map((e) => e[1][1]).reverse());
  await page.click('#tests .vhead button[data-sort="status"]');
  await listed(page, 7);
  assert.deepEqual((await readRows(page)).map((r) => r.outcome), ['failed', 'failed', 'failed', 'flaky', 'passed', 'passed', 'skipped']);
  await page.click('#tests .vhead button[data-sort="file"]');
  await listed(page, 7);
  assert.deepEqual((await readRows(page)).map((r) => r.where), Object.values(EXPECTED).map((e) => e[3]).sort((a, b) => {
    const [fa, la] = a.split(':'); const [fb, lb] = b.split(':');
    return fa < fb ? -1 : fa > fb ? 1 : la - lb;
  }));
  assert.deepEqual(page.errors, []);
  await page.close();
});

/** What the open test page's attachments show, once every inline one has loaded. */
async function readAttachments(page) {
  await page.waitForFunction(() => {
    const d = document.getElementById('test-detail');
    return [...d.querySelectorAll('.attachments img')].every((i) => i.complete && i.naturalWidth > 0)
      && [...d.querySelectorAll('.attachments video')].every((v) => v.readyState >= 1)
      && [...d.querySelectorAll('.attachments pre.text')].every((p) => p.textContent.length > 0);
  });
  return page.$eval('#test-detail', async (d) => {
    const img = d.querySelector('.attachments img');
    let pixel;
    if (img) {
      const g = new OffscreenCanvas(img.naturalWidth, img.naturalHeight).getContext('2d');
      g.drawImage(img, 0, 0);
      pixel = [...g.getImageData(20, 10, 1, 1).data];
    }
    const video = d.querySelector('.attachments video');
    const links = [...d.querySelectorAll('.attachments a')].map((a) => ({ href: a.getAttribute('href'), download: a.getAttribute('download') }));
    return {
      images: [...d.querySelectorAll('.attachments img')].map((i) => ({ w: i.naturalWidth, h: i.naturalHeight, alt: i.alt, blob: i.src.startsWith('blob:') })),
      pixel,
      video: video && { duration: video.duration, w: video.videoWidth, h: video.videoHeight, blob: video.src.startsWith('blob:') },
      texts: [...d.querySelectorAll('.attachments pre.text')].map((p) => p.textContent),
      links,
    };
  });
}

test('test page: a failed test opened by click, by its link (after a reload, from the reporters\' printed URL, an older #test=<n>) shows each attempt, its errors, steps, output, annotations and attachments', async () => {
  const page = await newPage();
  await openSmall(page);
  await page.click('#tests-rows .trow:has-text("pays by card")');
  await page.waitForSelector('#test-detail:not([hidden]) .attempt');
  const row = (await readRows(page)).find((r) => r.title === 'checkout › pays by card');
  const key = row.key;
  assert.match(key, /^[0-9a-f]{14}$/);
  assert.equal(new URL(page.url()).hash, `#test=${key}`);
  assert.match(new URL(page.url()).search, /url=/, 'the URL still says which report: it can be shared');
  assert.equal(await page.getAttribute('#test-detail .permalink', 'href'), `#test=${key}`);
  const detail = await readDetail(page);
  assert.equal(detail.title, 'checkout › pays by card');
  assert.equal(detail.meta, 'tests/checkout.spec.ts:10');
  assert.equal(detail.attempts.length, 3);
  const [first, retry, ff] = detail.attempts;
  assert.deepEqual([first.status, first.env, retry.status, retry.env, ff.status, ff.env], ['failed', 'chromium', 'failed', 'chromium', 'passed', 'firefox']);
  assert.match(first.head, /chromium · attempt 1 · 1\.2 s/);
  assert.match(retry.head, /chromium · retry 1 · 1\.3 s/);
  assert.deepEqual(first.messages, ['expect(received).toBe(expected)\n\nExpected: 200\nReceived: 402']);
  // the stack without the message's first line it repeats after the error's name
  assert.deepEqual(first.stacks, ['    at pay (tests/checkout.spec.ts:14:5)']);
  assert.deepEqual(first.snippets, ['> 14 |     expect(res.status).toBe(200);\n     |                        ^']);
  assert.deepEqual(retry.messages, ['second try: Received: 402']);
  assert.deepEqual(first.steps, ['1:open the cart 300 ms', '2:page.goto(/cart) 250 ms', '1:pay 800 ms', '2:click "Pay" 40 ms', '2:expect status 5 ms']);
  assert.deepEqual(first.stepErrors, ['payment declined']);
  assert.equal(first.stdout, 'paying 12.00 EUR\nbytes \ufffd\ufffd ok\n', 'a base64 buffer is decoded as UTF-8 text, bad bytes as U+FFFD');
  assert.equal(first.stderr, 'warning: card expires soon\n');
  assert.deepEqual(first.annotations, ['issue: PAY-123 card payments fail on Mondays']);
  assert.deepEqual(first.attachments, ['screenshot image/png', 'trace.txt text/plain', 'video.webm video/webm', 'dump.bin application/octet-stream']);
  assert.deepEqual([ff.messages, ff.steps, ff.stdout, ff.attachments], [[], [], '', []]);
  // The attachments, read back from the service's attachment route: the image decoded (its
  // pixels), the video playable (its length), the text shown as text, each one a link.
  const att = await readAttachments(page);
  assert.deepEqual(att.images, [{ w: 40, h: 20, alt: 'screenshot', blob: true }], 'only the image is an <img>');
  assert.deepEqual(att.pixel, [0x10, 0x80, 0xf0, 255]);
  assert.deepEqual(att.video, { duration: 1, w: 64, h: 48, blob: true });
  assert.deepEqual(att.texts, ['trace line 1\n<b>not bold</b>\n']);
  assert.equal(att.links.length, 4);
  for (const { href } of att.links) assert.equal((await fetch(new URL(href, srv.baseUrl))).status, 200, href);
  // anything else is downloaded (read with the token the page holds, saved from memory)
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#test-detail .attachments li[data-type="application/octet-stream"] a')]);
  assert.equal(download.suggestedFilename(), 'dump.bin');
  assert.deepEqual([...readFileSync(await download.path())], [...DUMP]);
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: `${ARTIFACTS}preview-test-page.png`, fullPage: true });

  // A reload opens the same test (its key is in the address).
  await page.reload();
  await page.waitForFunction((k) => document.getElementById('test-detail').dataset.key === k && document.querySelector('#test-detail .attempt'), key);
  assert.deepEqual(await readDetail(page), detail);

  // The flaky one: failed then passed in chromium.
  await page.click('#tests-rows .trow:has-text("applies coupon")');
  await page.waitForFunction(() => document.querySelector('#test-detail .test-title')?.textContent === 'checkout › applies coupon');
  const flaky = await readDetail(page);
  assert.deepEqual(flaky.attempts.map((a) => `${a.env} ${a.status}`), ['chromium failed', 'chromium passed', 'firefox passed']);
  assert.deepEqual(flaky.attempts[0].messages, ['coupon service timed out']);
  // Closing clears the hash.
  await page.click('#test-detail .close');
  assert.equal(await page.isHidden('#test-detail'), true);
  assert.equal(new URL(page.url()).hash, '');
  // The flaky list and the slowest list link to their tests' pages.
  await page.click('#flaky li a');
  await page.waitForFunction(() => document.querySelector('#test-detail .test-title')?.textContent === 'checkout › applies coupon');
  await page.click('#slowest tr[data-title="login › logs out"] a');
  await page.waitForFunction(() => document.querySelector('#test-detail .test-title')?.textContent === 'login › logs out');
  assert.deepEqual(page.errors, []);
  await page.close();

  // The link the reporters print after an upload (uploadReport's reportUrl: the service's
  // /reports/<id>), with a test's key, opens that report on that test.
  const shared = await newPage();
  assert.match(small.reportUrl, /^http:\/\/127\.0\.0\.1:\d+\/reports\/[\w-]+$/);
  await shared.goto(`${small.reportUrl}#test=${key}`);
  await shared.waitForSelector('#test-detail:not([hidden]) .attempt', { timeout: 30_000 });
  assert.deepEqual(await readDetail(shared), detail);
  assert.equal(new URL(shared.url()).hash, `#test=${key}`);
  // A link made before keys (a list position) still opens its test, and the address then shows the key.
  await shared.evaluate((i) => { location.hash = `test=${i}`; }, row.id);
  await shared.waitForFunction((k) => location.hash === `#test=${k}`, key);
  const skippedKey = (await readRows(shared)).find((r) => r.title === 'login › remembers me').key;
  await shared.evaluate((k) => { location.hash = `test=${k}`; }, skippedKey);
  await shared.waitForFunction(() => document.querySelector('#test-detail .test-title')?.textContent === 'login › remembers me');
  assert.deepEqual((await readDetail(shared)).attempts.map((a) => [a.status, a.annotations]), [['skipped', ['skip: not on CI']], ['skipped', []]]);
  await shared.evaluate(() => { location.hash = 'test=999'; });
  await shared.waitForFunction(() => document.getElementById('test-detail').textContent.includes('no test #999'));
  await shared.evaluate(() => { location.hash = 'test=00000000000000'; });
  await shared.waitForFunction(() => document.getElementById('test-detail').textContent.includes('no test with the key 00000000000000'));
  assert.deepEqual(shared.errors, []);
  await shared.close();
});

test('a report folder picked whole: the report and its attachments come from disk (image, video, text, a download), nothing is requested, markup stays text', async () => {
  const page = await newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${srv.baseUrl}/preview/`);
  await page.waitForLoadState('networkidle');
  const before = requests.length;
  await page.setInputFiles('#folder', FOLDER);
  await page.waitForSelector('#status[data-state="ready"]');
  await listed(page, 7);
  assert.match(await page.textContent('#status'), /^test-results\/report\.json\.br: /);
  const key = (await readRows(page)).find((r) => r.title === 'checkout › pays by card').key;
  await page.click(`#tests-rows .trow[data-key="${key}"]`);
  await page.waitForSelector('#test-detail:not([hidden]) .attempt');
  assert.deepEqual((await readDetail(page)).attempts[0].attachments, ['screenshot image/png', 'trace.txt text/plain', 'video.webm video/webm', 'dump.bin application/octet-stream']);
  const att = await readAttachments(page);
  assert.deepEqual(att.images, [{ w: 40, h: 20, alt: 'screenshot', blob: true }]);
  assert.deepEqual(att.pixel, [0x10, 0x80, 0xf0, 255]);
  assert.deepEqual(att.video, { duration: 1, w: 64, h: 48, blob: true });
  assert.deepEqual(att.texts, ['trace line 1\n<b>not bold</b>\n']);
  assert.deepEqual(att.links.map((l) => [l.download, l.href.startsWith('blob:')]), [['screenshot', true], ['trace.txt', true], ['video.webm', true], ['dump.bin', true]]);
  // the download holds the file's bytes
  const dump = await page.evaluate(async (href) => [...new Uint8Array(await (await fetch(href)).arrayBuffer())], att.links[3].href);
  assert.deepEqual(dump, [...DUMP]);
  // The markup report's attachment (text/html) is shown as text; its name too.
  const xss = (await readRows(page)).find((r) => r.title === XSS);
  await page.click(`#tests-rows .trow[data-key="${xss.key}"]`);
  await page.waitForFunction(() => document.querySelector('#test-detail .test-title')?.textContent.startsWith('<img'));
  const xa = await readAttachments(page);
  assert.deepEqual(xa.texts, [XSS]);
  assert.deepEqual(xa.images, []);
  assert.equal(await page.$$eval('img', (is) => is.length), 0, 'no <img> made from the report');
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  // Everything after the page loaded came from disk: no request but blob: URLs of this page.
  const after = requests.slice(before);
  assert.ok(after.every((u) => u.startsWith('blob:')), after.join('\n'));
  assert.ok(requests.every((u) => u.startsWith(`${srv.baseUrl}/`) || u.startsWith('blob:') || u.startsWith('data:')), `no other origin: ${requests.join('\n')}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('test page: a title, error, output, step, annotation and attachment name that are markup stay text; nothing runs', async () => {
  const page = await newPage();
  await openSmall(page);
  const row = (await readRows(page)).find((r) => r.title === XSS);
  assert.ok(row, 'the title is listed as its literal text');
  await page.click(`#tests-rows .trow[data-id="${row.id}"]`);
  await page.waitForSelector('#test-detail:not([hidden]) .attempt');
  const d = await readDetail(page);
  assert.equal(d.title, XSS);
  assert.deepEqual(d.attempts[0].messages, [XSS]);
  assert.deepEqual(d.attempts[0].stacks, [`    at ${XSS}`], 'the stack after the message it repeats (shown once), as text');
  assert.deepEqual(d.attempts[0].snippets, [XSS]);
  assert.equal(d.attempts[0].stdout, `${XSS}${XSS}`);
  assert.equal(d.attempts[0].stderr, XSS);
  assert.deepEqual(d.attempts[0].steps, [`1:${XSS} 1 ms`]);
  assert.deepEqual(d.attempts[0].annotations, [`${XSS}: ${XSS}`]);
  assert.deepEqual(d.attempts[0].attachments, [`${XSS} text/html`]);
  // Until the page has settled, not for a fixed time: its text attachment (read from the service
  // as the page was drawn) is shown, and an image asked of the service after that has failed to
  // load (a stylesheet, fetched afresh): an <img onerror> made from the report was asked for
  // before both, and has fired.
  await page.waitForFunction(() => document.querySelector('#test-detail .attachments pre.text')?.textContent.length > 0);
  await page.evaluate(() => new Promise((resolve) => {
    const probe = new Image();
    probe.onload = probe.onerror = resolve;
    probe.src = `preview.css?probe=${Date.now()}`;
  }));
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(await page.$$eval('img', (is) => is.length), 0, 'no <img> made from the report');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('test list: 100,000 tests, virtualised; first paint, filter and scroll timed; failed rows drawn in the failure colour', { timeout: 300_000 }, async () => {
  const N = 100_000;
  const rows = runRows(N, 7, { failed: 0.15, flaky: 0.1, skipped: 0.05 });
  const failed = rows.filter((r) => r.outcome === 'failed').length;
  const up = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: api.encodeReport(reportDocument(rows)) });
  const url = `/api/reports/${up.webUrl.split('/').pop()}/report.json.br`;
  const page = await newPage();
  const t0 = Date.now();
  await page.goto(`${srv.baseUrl}/preview/?url=${encodeURIComponent(url)}`);
  await page.waitForSelector('#status[data-state="ready"]', { timeout: 120_000 });
  const readyMs = Date.now() - t0;
  await listed(page, N, 120_000);
  const firstPaintMs = Date.now() - t0;
  const inPage = Number(await page.getAttribute('#tests', 'data-first-paint-ms'));
  const shown = await readRows(page);
  assert.ok(shown.length > 10 && shown.length < 40, `${shown.length} rows rendered`);
  assert.deepEqual(shown.map((r) => r.id), shown.map((_, i) => i), 'report order');
  const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);

  // The screenshot of the list: a failed row's status cell has the failure colour, a passed one not.
  const boxes = await page.$$eval('#tests-rows .trow', (rs) => {
    const top = document.getElementById('tests').getBoundingClientRect();
    return rs.map((r) => { const b = r.querySelector('.badge').getBoundingClientRect(); return { outcome: r.dataset.outcome, x: b.left - top.left, y: b.top - top.top, w: b.width, h: b.height }; })
      .filter((b) => b.y + b.h < document.getElementById('tests').getBoundingClientRect().height);
  });
  const pngBytes = await page.locator('#tests').screenshot();
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(`${ARTIFACTS}preview-test-list.png`, pngBytes);
  const red = await page.evaluate(async ({ b64, boxes }) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const g = new OffscreenCanvas(img.width, img.height).getContext('2d');
    g.drawImage(img, 0, 0);
    const { data, width } = g.getImageData(0, 0, img.width, img.height);
    // share of the badge's pixels in the failure colour (#c62828)
    return boxes.map((b) => {
      let n = 0; let all = 0;
      for (let y = Math.ceil(b.y); y < Math.floor(b.y + b.h); y++) for (let x = Math.ceil(b.x); x < Math.floor(b.x + b.w); x++) {
        const i = (y * width + x) * 4;
        all++;
        if (Math.abs(data[i] - 0xc6) < 20 && Math.abs(data[i + 1] - 0x28) < 20 && Math.abs(data[i + 2] - 0x28) < 20) n++;
      }
      return { outcome: b.outcome, share: n / Math.max(1, all) };
    });
  }, { b64: pngBytes.toString('base64'), boxes });
  assert.ok(red.some((b) => b.outcome === 'failed'), `a failed row is on the first screen: ${red.map((b) => b.outcome)}`);
  for (const b of red) {
    if (b.outcome === 'failed') assert.ok(b.share > 0.5, `a failed badge is mostly the failure colour: ${b.share}`);
    else assert.ok(b.share < 0.05, `a ${b.outcome} badge is not: ${b.share}`);
  }

  // Filter: only the failed tests, counted by the worker, shown a window at a time.
  const t1 = Date.now();
  await page.selectOption('#f-status', 'failed');
  await listed(page, failed, 60_000);
  const filterMs = Date.now() - t1;
  const filterWorkerMs = Number(await page.getAttribute('#tests', 'data-worker-ms'));
  assert.ok((await readRows(page)).every((r) => r.outcome === 'failed'));
  // Search over 100,000 titles, then sort them all by duration.
  const t2 = Date.now();
  await page.selectOption('#f-status', '');
  await page.fill('#f-text', 'case 9999');
  // every word, anywhere in the title
  await listed(page, rows.filter((r) => ['case', '9999'].every((w) => r.titlePath.join(' › ').includes(w))).length, 60_000);
  const searchMs = Date.now() - t2;
  await page.fill('#f-text', '');
  await listed(page, N, 60_000);
  const t3 = Date.now();
  await page.click('#tests .vhead button[data-sort="duration"]');
  await page.waitForSelector('#tests:not([aria-busy])');
  const sortMs = Date.now() - t3;
  const top = await readRows(page);
  const maxMs = Math.max(...rows.map((r) => r.attempts.reduce((s, a) => s + a.duration, 0)));
  assert.equal(top[0].ms, maxMs);
  // Scrolled to the middle, the rows there arrive from the worker.
  const t4 = Date.now();
  await page.$eval('#tests-scroll', (s) => { s.scrollTop = 50_000 * 26; });
  await page.waitForFunction(() => [...document.querySelectorAll('#tests-rows .trow')].some((r) => Number(r.dataset.index) === 50_000));
  const scrollMs = Date.now() - t4;
  const mid = await readRows(page);
  assert.ok(mid.every((r, i) => i === 0 || mid[i - 1].ms >= r.ms), 'still by duration');
  const domAfter = await page.evaluate(() => document.getElementsByTagName('*').length);
  const figures = `100,000 tests: report ready ${readyMs} ms, first list paint ${firstPaintMs} ms after navigation (${inPage} ms after the report was shown); `
    + `filter "failed" (${failed.toLocaleString('en-US')}) ${filterMs} ms (worker ${filterWorkerMs} ms); search ${searchMs} ms; sort by duration ${sortMs} ms; `
    + `scroll to row 50,000 ${scrollMs} ms; DOM elements ${domNodes} / ${domAfter}`;
  console.log(figures);

  // Generous bounds (a shared 2-core machine).
  assert.ok(firstPaintMs < 120_000, figures);
  assert.ok(filterMs < 20_000, figures);
  assert.ok(domNodes < 2_000 && domAfter < 2_000, figures);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('compare: the open report against an earlier one (from the service\'s list, then from a file): exactly the new failures, fixed, newly flaky and the largest duration moves, as text', async () => {
  // [title, attempts before, attempts now]: each attempt [status, ms]; undefined: not in that report
  const SPEC = [
    ['a fails now', [['passed', 100]], [['failed', 130]]],
    ['b fixed', [['failed', 300]], [['passed', 310]]],
    ['c flaky now', [['passed', 200]], [['failed', 100], ['passed', 100]]],
    ['d still flaky', [['failed', 50], ['passed', 50]], [['failed', 50], ['passed', 50]]],
    ['e still failing', [['failed', 400]], [['failed', 400]]],
    ['f new and failing', undefined, [['failed', 70]]],
    ['g slower', [['passed', 100]], [['passed', 900]]],
    ['h faster', [['passed', 500]], [['passed', 400]]],
    [XSS, [['passed', 10]], [['failed', 10]]],
    ['r removed', [['passed', 10]], undefined],
    ['s skipped', [['skipped', 0]], [['skipped', 0]]],
    ['fixed to flaky', [['failed', 60]], [['failed', 30], ['passed', 30]]],
  ];
  const build = (which, title) => {
    const b = new api.ReportBuilder({ category: 'playwright', commitId: COMMIT, startTimestamp: START, title });
    b.addEnvironment({ name: 'chromium' });
    for (const [name, ...runs] of SPEC) {
      if (!runs[which]) continue;
      const h = b.addTest({ titlePath: ['cmp', name], file: 'tests/cmp.spec.ts', line: 1, column: 1 });
      for (const [status, duration] of runs[which]) b.addAttempt(h, { environmentIdx: 0, startTimestamp: START, status, expectedStatus: status === 'skipped' ? 'skipped' : 'passed', duration });
    }
    const r = b.build();
    r.duration = 5000;
    return r;
  };
  const base = build(0, 'compare: before');
  const head = build(1, 'compare: now');
  const upBase = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: base });
  const upHead = await api.uploadReport({ baseUrl: srv.baseUrl, accessToken: srv.accessToken, report: head });
  const baseUrl = `/api/reports/${upBase.webUrl.split('/').pop()}/report.json.br`;
  const t = (x) => `cmp › ${x}`;
  const WANT = {
    newFailures: [[t(XSS), 'was passed'], [t('a fails now'), 'was passed'], [t('f new and failing'), 'new test']],
    fixed: [[t('b fixed'), 'now passed'], [t('fixed to flaky'), 'now flaky']],
    newlyFlaky: [[t('c flaky now'), 'was passed'], [t('fixed to flaky'), 'was failed']],
    moved: [[t('g slower'), '+800 ms (100 ms → 900 ms)'], [t('h faster'), '−100 ms (500 ms → 400 ms)'], [t('a fails now'), '+30 ms (100 ms → 130 ms)'], [t('b fixed'), '+10 ms (300 ms → 310 ms)']],
  };
  const readCompare = (page) => page.evaluate(() => Object.fromEntries(['newFailures', 'fixed', 'newlyFlaky', 'moved'].map((n) => [n,
    [...document.querySelectorAll(`#cmp-${n} li[data-key]`)].map((li) => [li.querySelector('a').textContent, li.querySelector('small').textContent])])));

  const page = await newPage();
  const requests = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(`${srv.baseUrl}/preview/?url=${encodeURIComponent(`/api/reports/${upHead.webUrl.split('/').pop()}/report.json.br`)}`);
  await page.waitForSelector('#status[data-state="ready"]');
  await page.waitForSelector(`#compare-with option[value="${baseUrl}"]`, { state: 'attached' });
  assert.equal(await page.isVisible('#compare'), false, 'no comparison before one is asked for');
  await page.selectOption('#compare-with', baseUrl);
  await page.waitForSelector('#compare-section[data-state="ready"]');
  assert.deepEqual(await readCompare(page), WANT);
  assert.match(await page.textContent('#compare-summary'), /^Against .*compare: before.*: 11 tests now, 11 then; 1 added, 1 removed; 3 new failures, 2 fixed, 2 newly flaky$/);
  assert.equal(await page.textContent('#cmp-moved-count'), '(4 of the 4 tests whose duration changed)');
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.locator('#compare-section').screenshot({ path: `${ARTIFACTS}preview-compare.png` });

  // The same from a file, and a listed test opens its page in the open report.
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}before.json.br`, api.encodeReport(base));
  await page.selectOption('#compare-with', '');
  await page.setInputFiles('#compare-file', `${OUT}before.json.br`);
  await page.waitForFunction(() => document.getElementById('compare-summary').textContent.startsWith('Against before.json.br:') && document.getElementById('compare-section').dataset.state === 'ready');
  assert.deepEqual(await readCompare(page), WANT);
  await page.click('#cmp-newFailures li:nth-child(2) a');
  await page.waitForFunction(() => document.querySelector('#test-detail .test-title')?.textContent === 'cmp › a fails now');
  assert.equal(await page.$$eval('#compare img', (i) => i.length), 0, 'a title is text, never markup');
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.ok(requests.every((u) => u.startsWith(`${srv.baseUrl}/`) || u.startsWith('blob:') || u.startsWith('data:')), `no other origin: ${requests.join('\n')}`);
  assert.deepEqual(page.errors, []);
  await page.close();
});
