// An attempt's attachments on a test's page: each named, and read from where the report came
// from (the service, with the token; or the report's folder on disk): images inline, video
// playable, text shown (as text), anything else to download. Every read is of this page's
// origin or a local file.
import { el } from './dom.mjs';
import { fmt, count } from './format.mjs';
import { readFetch, traceViewer, traceViewerUrl } from './service.mjs';

const IMAGE = /^image\/(png|jpeg|gif|webp|avif|bmp)(\s*;.*)?$/i;
const VIDEO = /^video\/(webm|mp4|ogg)(\s*;.*)?$/i;
const TEXT = /^(text\/[\w.+-]+|application\/([\w.-]+\+)?(json|xml)|application\/(x-ndjson|javascript|x-sh|yaml|x-yaml))(\s*;.*)?$/i;
/** A Playwright trace: its `trace` attachment (a zip), or a zip named as one. */
const isTrace = (name, type) => /^application\/zip\b/i.test(type) && /^trace(\b|$)|\btrace\.zip$/i.test(name);
/** A text attachment is shown up to this many bytes (the rest by its download link). */
const TEXT_SHOWN_BYTES = 256 * 1024;

/**
 * The list of `atts` (an attempt's attachment references).
 * @param {Array<{name: unknown, contentType?: unknown, id?: unknown}>} atts
 * @param {{kind: 'service', base: string} | {kind: 'folder', files: Map<string, Blob>} | undefined} source
 *   where the open report's attachments are read
 * @param {(blob: Blob) => string} objectUrl an object URL for a blob, revoked when the test's page closes
 */
export function attachmentList(atts, source, objectUrl) {
  const ul = el('ul', { className: 'attachments' });
  for (const a of atts) {
    const type = String(a.contentType ?? '');
    const li = el('li', { 'data-type': type }, el('span', { className: 'name' }, String(a.name)), ' ', el('small', null, type));
    ul.append(li);
    if (!source || typeof a.id !== 'string') continue;
    let load;
    if (source.kind === 'service') {
      const url = source.base + encodeURIComponent(a.id);
      load = async () => {
        const res = await readFetch(url);
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        return new Blob([await res.arrayBuffer()], { type });
      };
      // read with the token (a service listening beyond loopback wants it), saved from memory
      const link = el('a', {
        href: url,
        download: String(a.name),
        onclick: (e) => {
          e.preventDefault();
          load().then((blob) => el('a', { href: objectUrl(blob), download: String(a.name) }).click())
            .catch((err) => link.after(el('small', { className: 'error' }, ` (cannot download: ${err.message})`)));
        },
      }, 'download');
      li.append(' ', link);
      if (isTrace(String(a.name), type)) {
        // opened in Playwright's trace viewer, served by `shardwise serve` from the user's playwright-core
        const slot = el('span', { className: 'trace-link' });
        li.append(' ', slot);
        traceViewer().then((tv) => slot.append(tv.available
          ? el('a', { href: traceViewerUrl(url), target: '_blank', rel: 'noopener' }, 'open in the trace viewer')
          : el('small', null, `(${tv.hint ?? 'the trace viewer is served by shardwise serve'})`)));
      }
    } else {
      const file = source.files.get(a.id);
      if (!file) { li.append(el('small', { className: 'error' }, ' (not in the folder)')); continue; }
      const blob = new Blob([file], { type });
      li.append(' ', el('a', { href: objectUrl(blob), download: String(a.name) }, 'download'));
      load = async () => blob;
    }
    const kind = IMAGE.test(type) ? 'image' : VIDEO.test(type) ? 'video' : TEXT.test(type) ? 'text' : undefined;
    if (!kind) continue;
    const view = kind === 'image' ? el('img', { alt: String(a.name) })
      : kind === 'video' ? el('video', { controls: true, preload: 'metadata' })
      : el('pre', { className: 'text' });
    li.append(view);
    load().then(async (blob) => {
      if (kind === 'text') {
        view.textContent = await blob.slice(0, TEXT_SHOWN_BYTES).text();
        if (blob.size > TEXT_SHOWN_BYTES) li.append(el('small', null, ` (first ${fmt(TEXT_SHOWN_BYTES)} of ${count(blob.size, 'byte')} shown)`));
      } else view.src = objectUrl(blob);
    }).catch((e) => view.replaceWith(el('small', { className: 'error' }, ` (cannot load: ${e.message})`)));
  }
  return ul;
}
