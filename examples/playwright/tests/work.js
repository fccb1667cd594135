// Stand-in for real work: waits `ms` milliseconds (timers only, so shards running in parallel on
// one machine do not slow each other down).
export const work = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
