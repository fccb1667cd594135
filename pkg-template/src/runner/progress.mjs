// CLI progress: a rewritten status line on a TTY, nothing otherwise (the caller prints one summary).
export function progress(stream = process.stderr) {
  if (!stream.isTTY) return { onEvent: undefined, done() {} };
  let shown = false;
  return {
    onEvent(e) {
      const status = e?.status ? ` (HTTP ${e.status})` : '';
      const retry = e?.attempt > 1 ? `, try ${e.attempt}` : '';
      stream.write(`\r\x1b[K${e?.step ?? ''}${retry}${status}`);
      shown = true;
    },
    done() { if (shown) stream.write('\r\x1b[K'); },
  };
}
