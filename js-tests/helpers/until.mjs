/**
 * Waits on a condition, not for a time: resolves with `check()`'s first truthy value, asking
 * every `everyMs`; after `timeoutMs` resolves `undefined` (the caller's assertion then says what
 * was missing, with what it sees).
 */
export async function until(check, { timeoutMs = 10_000, everyMs = 25 } = {}) {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() >= end) return undefined;
    await new Promise((ok) => setTimeout(ok, everyMs));
  }
}
