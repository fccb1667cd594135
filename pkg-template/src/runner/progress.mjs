// CLI progress: a rewritten status line on a TTY, nothing otherwise (the caller prints one summary).
// It follows the exchange's events (one per answered request): the call in progress, attachments
// stored so far out of `attachments`, bytes sent, and the try and HTTP status of a retried call.

const ok = (status) => status >= 200 && status < 300;

/** "512 B", "1.5 MB". */
export function fmtBytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u += 1; }
  return `${v.toFixed(1)} ${units[u]}`;
}

/**
 * @param {NodeJS.WriteStream | {isTTY?: boolean, write(s: string): unknown}} [stream]
 * @param {{attachments?: number}} [totals] how many attachments the upload has
 */
export function progress(stream = process.stderr, { attachments = 0 } = {}) {
  if (!stream.isTTY) return { onEvent: undefined, done() {} };
  let shown = false;
  let stored = 0;
  let sent = 0;
  return {
    onEvent(e) {
      if (ok(e?.status)) {
        sent += e?.bytes ?? 0;
        if (e?.step === 'upload-attachment') stored += 1;
      }
      const parts = [e?.step ?? ''];
      if (attachments > 0 && (e?.step === 'upload-attachment' || e?.step === 'attachments'))
        parts.push(`${stored}/${attachments} attachments`);
      if (sent > 0) parts.push(`${fmtBytes(sent)} sent`);
      if (e?.attempt > 1) parts.push(`try ${e.attempt}`);
      if (e?.status && !ok(e.status)) parts.push(`HTTP ${e.status}`);
      else if (!e?.status) parts.push('no answer');
      stream.write(`\r\x1b[K${parts.join(', ')}`);
      shown = true;
    },
    done() { if (shown) stream.write('\r\x1b[K'); },
  };
}
