// A report folder (the reporters' outputFolder), picked whole (<input webkitdirectory>): each
// report in it with its attachments beside it, as src/layout.js lays the folder out. Everything
// is read from disk: no request is made. A sharded run's folder opens its first shard's report
// and shows every shard side by side.
import { $, el, fill } from './dom.mjs';
import { REPORT_FILE, reportsIn, byShardFolder, shardOfFolder } from '../src/layout.js';

/** @param {{state: ReturnType<import('./state.mjs').createState>, report: {open: Function, setStatus: Function, forgetUrl(): void}, shardRun: {close(): void, request(members: object[]): void}}} page */
export function createFolder(page) {
  const my = page.state.folder;

  /** `files`: every file of the picked folder (their paths start with its name). */
  function open(files) {
    const below = (f) => (f.webkitRelativePath || f.name).split('/').slice(1).join('/');
    my.reports = reportsIn(files, below);
    my.name = (files[0]?.webkitRelativePath ?? '').split('/')[0] || 'the folder';
    page.report.forgetUrl();
    const dirs = [...my.reports.keys()].sort(byShardFolder);
    const select = fill($('folder-reports'), dirs.map((d) => el('option', { value: d }, `${my.name}/${d}${REPORT_FILE}`)));
    select.hidden = dirs.length < 2;
    if (!dirs.length) {
      page.shardRun.close();
      page.report.setStatus(`No ${REPORT_FILE} in ${my.name}: pick the reporter's output folder (outputFolder)`, 'error');
      $('report').hidden = true;
      return;
    }
    // a sharded run's folder: every shard side by side, and the first shard's report open
    const shards = dirs.filter((d) => shardOfFolder(d));
    page.shardRun.close();
    if (shards.length) page.shardRun.request(shards.map((d) => ({ name: `${my.name}/${d}${REPORT_FILE}`, load: () => my.reports.get(d).report.arrayBuffer(), open: { dir: d } })));
    openReport(dirs[0], { keepShardRun: true });
  }

  /** Opens the report of the picked folder's `dir` ('' or 'shard-1-of-3/'). */
  function openReport(dir, { keepShardRun = false } = {}) {
    const entry = my.reports.get(dir);
    if (!entry) return;
    $('folder-reports').value = dir;
    page.report.open(() => entry.report.arrayBuffer(), `${my.name}/${dir}${REPORT_FILE}`, { kind: 'folder', files: entry.attachments }, { dir, keepShardRun });
  }

  $('folder').addEventListener('change', () => open([...$('folder').files]));
  $('folder-reports').addEventListener('change', () => openReport($('folder-reports').value, { keepShardRun: true }));

  return { open, openReport };
}
