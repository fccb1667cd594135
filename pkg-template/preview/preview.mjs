// The report preview page: opens a report by URL (?url=, the text field, or the list of reports
// the local service holds), from a file (.json.br or .json) or from a report folder (the
// reporters' outputFolder, picked whole, read from disk with its attachments), and shows totals
// by status, flaky tests, duration per environment, the slowest tests, how `planShards` would
// split the run over N shards (select a shard to list its tests), the list of every test
// (filtered, searched and sorted in the worker, shown as a virtualised window of rows) whose
// rows open a test's page (#test=<key>: the key is the test's in every report, so a link
// survives the next run), a sharded run's shards side by side (predicted against actual), and
// the open report compared with another, and (served by `shardwise serve`) each test's history
// across the runs the service holds and a page of the flakiest and slowed-down tests (#history).
//
// This module only starts the page: one state object (state.mjs) and one worker client
// (worker-client.mjs, speaking protocol.mjs) are handed to each section, one module each, and
// each reply of the worker goes to the section that asked. Nothing of a report is ever markup:
// every element is built by dom.mjs `el()`, whose text is text. Decoding and planning run in
// worker.mjs with the package's wasm; this thread only renders: each section is written once
// per change, lists are capped behind "show more", and nothing reads layout back.
export { summarize, walkTests, outcomeOf } from './summary.mjs';
import { createState } from './state.mjs';
import { createWorkerClient } from './worker-client.mjs';
import { createOpener } from './open.mjs';
import { createOverview } from './overview.mjs';
import { createShardChart } from './shard-chart.mjs';
import { createTestList } from './test-list.mjs';
import { createTestPage } from './test-page.mjs';
import { createFolder } from './folder.mjs';
import { createShardRun } from './shard-run.mjs';
import { createComparison } from './compare.mjs';
import { createHistoryPage } from './history.mjs';

const state = createState();
const worker = createWorkerClient();
// The sections call each other through `page` (the shard view opens a folder's report, a
// status card filters the test list, …); each is made before anything can call it.
const page = { state, worker };
page.report = createOpener(page);
page.overview = createOverview(page);
page.chart = createShardChart(page);
page.tests = createTestList(page);
page.testPage = createTestPage(page);
page.folder = createFolder(page);
page.shardRun = createShardRun(page);
page.compare = createComparison(page);
page.history = createHistoryPage(page);

/** Where a failed request's error goes: the section that made it (by the request's type). */
const failed = {
  shard: () => {}, // a shard's tests asked of a plan since replaced: the new plan's follow
  shards: page.shardRun.onError,
  compare: page.compare.onError,
  tests: page.tests.onError,
  plan: page.chart.onError,
};
/** A failed request, said as `CODE: message`; anything else failed opening the report. */
function onError(data) {
  const text = `${data.code ? `${data.code}: ` : ''}${data.message}`;
  (Object.hasOwn(failed, data.of) ? failed[data.of] : page.report.onError)({ ...data, text });
}

worker.listen({
  report: page.report.onReport,
  plan: page.chart.onPlan,
  rows: page.overview.onRows,
  shard: page.chart.onShard,
  tests: page.tests.onTests,
  test: page.testPage.onTest,
  shards: page.shardRun.onShards,
  compare: page.compare.onCompare,
  error: onError,
}, (message) => onError({ of: 'open', message }));

page.report.offerReports();
page.history.openFromHash();
const initial = new URLSearchParams(location.search);
const param = initial.get('url') ?? initial.get('report');
if (param) page.report.openUrl(param);
