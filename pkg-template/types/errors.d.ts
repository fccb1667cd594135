/** What went wrong. */
export type ErrorCode =
  | 'INVALID_INPUT'
  | 'HTTP_STATUS'
  | 'NETWORK'
  | 'TIMEOUT'
  | 'ABORTED'
  | 'INVALID_RESPONSE'
  | 'BROTLI_CORRUPT'
  | 'LIMIT_EXCEEDED';

/** Which call of an exchange failed. */
export type Step =
  | 'create'
  | 'upload-test-list'
  | 'submit'
  | 'poll'
  | 'start'
  | 'upload-report'
  | 'attachments'
  | 'upload-attachment'
  | 'finish';

/**
 * Every failure of shardwise. Messages say what to do; they never contain a token or a
 * presigned URL's query string.
 */
export declare class ShardwiseError extends Error {
  constructor(message: string, details?: { code: ErrorCode; step?: Step; status?: number; attempts?: number; cause?: unknown });
  readonly name: 'ShardwiseError';
  readonly code: ErrorCode;
  /** For the exchanges: the call that failed. */
  readonly step?: Step;
  /** The HTTP status of the last response, when there was one. */
  readonly status?: number;
  /** How many tries were made of the failing call. */
  readonly attempts?: number;
}
