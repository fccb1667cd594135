// Recording an attempt without losing it. The builder checks every attempt by the report rules
// (ReportBuilder.addAttempt); one whose details it refuses (a location the format cannot express,
// say) is recorded with its plain fields, the status and times the report needs most, and the
// reporter is told once, instead of stopping and losing the report. Pure: no wasm, no IO.

/** An attempt's plain fields: numbers and statuses the runner gives as the format wants them. */
const PLAIN = ['environmentIdx', 'status', 'expectedStatus', 'startTimestamp', 'duration', 'timeout', 'parallelIndex'];

/**
 * `builder.addAttempt(handle, attempt)`, or, when the builder refuses the attempt's details, the
 * attempt without them, then `ctx.onDetailsDropped?.(error)`. Anything else is thrown.
 */
export function addAttempt(builder, ctx, handle, attempt) {
  try {
    builder.addAttempt(handle, attempt);
  } catch (error) {
    const plain = Object.fromEntries(PLAIN.filter((k) => attempt[k] !== undefined).map((k) => [k, attempt[k]]));
    if (error?.code !== 'INVALID_INPUT' || Object.keys(plain).length === Object.keys(attempt).length) throw error;
    builder.addAttempt(handle, plain);
    ctx.onDetailsDropped?.(error);
  }
}

/** `ctx.onDetailsDropped` for a reporter: says it once, with the first reason. */
export function detailsDroppedOnce(log) {
  let said = false;
  return (error) => {
    if (said) return;
    said = true;
    log(`[shardwise] an attempt's details were not recorded (${error?.message ?? error}); its status and times were. Later ones are not reported here.`);
  };
}
