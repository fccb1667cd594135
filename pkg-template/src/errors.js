/**
 * The one error type of shardwise. Every failure, whether raised in Rust or in this package's
 * JavaScript, is a `ShardwiseError` with a `code`, and for the exchanges the `step` that failed.
 */
export class ShardwiseError extends Error {
  /**
   * @param {string} message what happened and what to do about it
   * @param {{code: string, step?: string, status?: number, attempts?: number, cause?: unknown}} [details]
   */
  constructor(message, details = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ShardwiseError';
    this.code = details.code ?? 'INVALID_INPUT';
    if (details.step !== undefined) this.step = details.step;
    if (details.status !== undefined) this.status = details.status;
    if (details.attempts !== undefined) this.attempts = details.attempts;
  }
}
