// Everything the page remembers, in one object made at start-up and handed to each section
// (preview.mjs): one part per section, each written by that section only (others may read it).

/** The capped lists' rows shown at first, and added by each "show more". */
export const FIRST_ROWS = 20;
export const MORE_ROWS = 50;
/** Rows fetched from the worker at a time. */
export const PAGE_ROWS = 1000;

/** A query of the test list that selects every test, in report order. */
export const allTests = () => ({ status: '', env: '', file: '', text: '', sort: '', desc: false });

export function createState() {
  return {
    /** open.mjs: the open report */
    report: {
      summary: undefined, // from the worker; its lists hold {count, rows} (the first rows only)
      meta: undefined, // what the report is (title, commit, …), from the worker
      label: undefined, // what it was opened from (a URL, a file's name)
      attachments: undefined, // where its attachments are read: {kind: 'service', base} | {kind: 'folder', files: Map<id, File>} | undefined
      source: {}, // {url, id?} from a URL, {dir} from a folder: for the shard view
      reports: undefined, // the service's list of reports, when the page is served by `shardwise serve`
    },
    /** overview.mjs: the capped lists (slowest, flaky) */
    lists: {
      shown: { slowest: FIRST_ROWS, flaky: FIRST_ROWS },
      fetching: {}, // list name -> true while rows are on their way
    },
    /** shard-chart.mjs: the plan and the listed shard */
    plan: {
      seq: 0, // last plan request
      planning: false, // a plan request is in the worker
      pending: false, // the shard count changed while planning
      plan: undefined, // the last plan shown
      shard: undefined, // the shard whose tests are listed: {index, units, count, fetching}
    },
    /** test-list.mjs: every test, virtualised */
    tests: {
      seq: 0, // the current query; replies to older ones are dropped
      query: allTests(),
      count: undefined, from: 0, rows: [], rowsSeq: undefined, // the last window received
      asked: undefined, // {seq, from, to} on its way
      t0: 0, firstPaint: undefined,
      typing: undefined, // the timer of a filter being typed
      scrolling: false, // a window is asked for on the next frame
    },
    /** test-page.mjs: the open test's page */
    testPage: {
      openRef: undefined, // the #test= asked for (a key, or a list position in older links)
      openKey: undefined, // the key of the test whose page is open
      objectUrls: [], // its attachments' object URLs, revoked when it closes
    },
    /** folder.mjs: the picked report folder */
    folder: {
      name: '',
      reports: new Map(), // dir ('' or 'shard-1-of-3/', below the picked folder) -> {report: File, attachments: Map<id, File>}
    },
    /** shard-run.mjs: the shards of a sharded run */
    shardRun: { seq: 0, members: [] },
    /** compare.mjs */
    compare: { seq: 0 },
  };
}
