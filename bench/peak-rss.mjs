// Shared by the benchmarks that measure a child process's memory.
import { readFileSync } from 'node:fs';

/**
 * This process's peak RSS. On Linux the mm's own high-water mark (VmHWM): getrusage's maxRSS
 * (`process.resourceUsage().maxRSS`) keeps, across exec, the high-water mark of the process
 * forked from, so a child spawned by a parent holding 130 MB reports at least 130 MB.
 */
export function peakRss() {
  try {
    const m = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Number(m[1]) * 1024;
  } catch {}
  return process.resourceUsage().maxRSS * 1024;
}
