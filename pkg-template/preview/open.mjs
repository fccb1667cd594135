// Opening a report: by URL (?url=, the text field, or the list of reports the local service
// holds) or from a file (.json.br or .json); the status line; and, once the worker has decoded
// it, handing it to each section of the page.
import { $, el } from './dom.mjs';
import { fmt, count, reportLabel } from './format.mjs';
import { fetchBytes, listReports, reportIdOf, reportRoute, attachmentsBase } from './service.mjs';

/**
 * @param {{state: ReturnType<import('./state.mjs').createState>, worker: ReturnType<import('./worker-client.mjs').createWorkerClient>,
 *   overview: any, chart: any, tests: any, shardRun: any, compare: any}} page
 */
export function createOpener(page) {
  const { state, worker } = page;
  const my = state.report;

  function setStatus(text, kind) {
    const s = $('status');
    s.textContent = text;
    s.dataset.state = kind;
    s.className = kind === 'error' ? 'error' : '';
  }

  /**
   * Opens a report: `load` resolves with its bytes; `attachments` is where its attachments are read
   * ({kind: 'service', base} | {kind: 'folder', files: Map<id, File>} | undefined); `source` what it
   * is ({url, id?} from a URL, {dir} from a folder), for the shard view and the comparison.
   */
  async function open(load, label, attachments, source = {}) {
    my.summary = undefined;
    my.attachments = attachments;
    my.source = source;
    if (!source.keepShardRun) page.shardRun.close();
    if (source.dir === undefined) $('folder-reports').hidden = true; // not a report of the picked folder
    page.compare.close();
    $('report').hidden = true;
    setStatus(`Loading ${label}…`, 'loading');
    let bytes;
    try {
      bytes = await load();
    } catch (e) {
      setStatus(`Cannot open ${label}: ${e.message}`, 'error');
      return;
    }
    my.label = label;
    my.meta = undefined;
    my.downloaded = bytes.downloadedBytes;
    setStatus(`Decoding ${label} (${fmt(bytes.byteLength)} bytes)…`, 'loading');
    worker.send('open', { bytes }, [bytes]);
  }

  /** Opens the report at a URL, kept in the address (?url=) to share. */
  function openUrl(value, { keepShardRun = false } = {}) {
    const url = new URL(value, location.href).href;
    $('url').value = url;
    const q = new URLSearchParams(location.search);
    q.set('url', value);
    q.delete('report');
    history.replaceState(null, '', `?${q}${location.hash}`);
    // served by `shardwise serve`: the report's attachments are read back next to it
    const id = reportIdOf(url);
    open(() => fetchBytes(url), url, id !== undefined ? { kind: 'service', base: attachmentsBase(id) } : undefined, { url, id, keepShardRun });
  }

  /** The address no longer names a report by URL (one was opened from disk). */
  function forgetUrl() {
    const q = new URLSearchParams(location.search);
    if (q.has('url') || q.has('report')) { q.delete('url'); q.delete('report'); history.replaceState(null, '', `?${q}${location.hash}`); }
  }

  function onReport({ summary, meta }) {
    my.summary = summary;
    my.meta = meta;
    page.overview.show(summary, meta);
    page.chart.reset(summary);
    $('report').hidden = false;
    const size = my.downloaded ? `${fmt(my.downloaded)} bytes downloaded (${fmt(meta.bytes)} decoded)` : count(meta.bytes, 'byte');
    setStatus(`${my.label}: ${size}, ${count(summary.totals.tests, 'test')}, decoded in ${fmt(meta.decodeMs)} ms`, 'ready');
    page.chart.request(); // first: the plan is what the page always showed; the test list follows it
    page.tests.reset(summary);
    page.shardRun.offer();
  }

  function onError({ text }) {
    my.summary = undefined;
    $('report').hidden = true;
    setStatus(`Cannot open ${my.label ?? 'the report'}: ${text}`, 'error');
  }

  /** The service's reports, offered to open and to compare with (newest first). */
  async function offerReports() {
    const list = await listReports();
    if (!list?.length) return;
    my.reports = list;
    const options = () => list.slice().reverse().map((r) => {
      const when = r.finishedAt ? new Date(r.finishedAt).toLocaleString() : '';
      return el('option', { value: reportRoute(r.id) }, [reportLabel(r), when].filter(Boolean).join(' · ') || r.id);
    });
    $('recent').append(...options());
    $('recent').hidden = false;
    $('compare-with').append(...options());
    $('compare-with').hidden = false;
    page.shardRun.offer();
  }

  $('open').addEventListener('submit', (e) => { e.preventDefault(); if ($('url').value.trim()) openUrl($('url').value.trim()); });
  $('file').addEventListener('change', () => {
    const f = $('file').files[0];
    forgetUrl();
    if (f) open(() => f.arrayBuffer(), f.name);
  });
  $('recent').addEventListener('change', () => { if ($('recent').value) openUrl($('recent').value); });

  return { open, openUrl, forgetUrl, setStatus, onReport, onError, offerReports };
}
