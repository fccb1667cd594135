// The two exchanges with the test-analytics service (docs/service-contract.md) and shardGroupKeyFor.
import type { Report } from './report.js';
import type { Step } from './errors.js';

/** A progress event: one per try of a call of an exchange. */
export interface ExchangeEvent {
  step: Step;
  /** 1 for the first try of this call, 2 for the first retry, ... */
  attempt: number;
  /** HTTP status of the answer; absent when the request got no answer (network error). */
  status?: number;
  /** Request body size for uploads. */
  bytes?: number;
}

/** Options both exchanges share. */
export interface ExchangeOptions {
  /** The service root, e.g. `https://analytics.example.com` or `http://host/prefix/` (a path prefix is kept). */
  baseUrl: string;
  /** A CI access token or an OIDC token, without `Bearer `. Never appears in errors. */
  accessToken: string;
  /** Bounds the whole exchange, retries and polling included. Default 120000. Rejects with `TIMEOUT`. */
  timeoutMs?: number;
  /** Aborting rejects at once with `ABORTED` and cancels the requests in flight. */
  signal?: AbortSignal;
  /**
   * A fetch implementation to use instead of `globalThis.fetch` (and, for `uploadReport` in
   * Node, instead of its own keep-alive `http`/`https` requests, which cost a quarter of the CPU
   * of Node's fetch per request; those are not used when the process configured fetch's path:
   * a proxy or mock dispatcher set by `setGlobalDispatcher`, `NODE_USE_ENV_PROXY`, or
   * `globalThis.fetch` replaced after the package loaded).
   */
  fetch?: typeof globalThis.fetch;
  /** Progress callback. */
  onEvent?: (event: ExchangeEvent) => void;
}

export interface FetchDurationsOptions extends ExchangeOptions {
  /** The commit under test: 40 lowercase hex characters. */
  commitId: string;
  /** `^[a-zA-Z0-9_-]+$`, 1..250 characters, equal on every shard of one run: see `shardGroupKeyFor`. */
  shardGroupKey: string;
  /** May be omitted when the token is bound to one project. */
  orgSlug?: string;
  projectSlug?: string;
  /** The test list: a report whose tests have empty `attempts` (or its encoded bytes). */
  report: Report | Uint8Array;
}

/**
 * Runs create -> PUT test list -> submit -> poll and resolves with the annotated report: each
 * test's `attempts` holds one attempt per environment with a prediction (`duration`, ms).
 * Network errors and 408/425/429/5xx are retried with backoff (honouring `Retry-After`);
 * other statuses reject at once with a `ShardwiseError` naming the step.
 */
export declare function fetchDurations(opts: FetchDurationsOptions): Promise<Report>;

/** An attachment to upload: exactly one of `data` or `path`. */
export interface UploadAttachment {
  /** The id the report references (1..256 characters, unique). */
  id: string;
  /**
   * Text-like types (text/*, JSON, XML, JavaScript, logs) are sent Brotli-compressed when that is
   * smaller (and their first 8 KiB do not look incompressible); others as they are.
   */
  contentType: string;
  /** The bytes, sent from this array as they are (not copied); do not change them during the upload. */
  data?: Uint8Array;
  /** A file path, streamed from disk when its upload starts. Node only. */
  path?: string;
}

export interface UploadReportOptions extends ExchangeOptions {
  /** The report document, or its encoded bytes (Brotli or plain JSON). */
  report: Report | Uint8Array;
  attachments?: UploadAttachment[];
  /**
   * Attachment uploads in flight at once, kept as given. Default: adaptive, from 8 up to 64 (one
   * more per attachment stored at the first try, half after a retry). At most 64 MiB of
   * attachments are in flight whatever the concurrency.
   */
  concurrency?: number;
}

export interface UploadReportResult {
  /** The service's tracking path (relative). */
  webUrl: string;
  /** `webUrl` resolved against `baseUrl`. */
  reportUrl: string;
  /** Attachments uploaded. */
  attachments: number;
  /** Bytes sent to storage: the compressed report plus every attachment as sent. */
  bytes: number;
}

/**
 * Runs start -> PUT report -> attachment URLs (batches of at most 1000) -> PUT attachments ->
 * finish. `finish` is called only once the report and every attachment are stored; a failed
 * attachment rejects with step `upload-attachment` and its id in the message.
 */
export declare function uploadReport(opts: UploadReportOptions): Promise<UploadReportResult>;

export interface ShardGroupKeyInput {
  commitId: string;
  /**
   * The CI run. When absent, the package fills it from the environment where there is one
   * (SHARDWISE_RUN_ID, GITHUB_RUN_ID, CI_PIPELINE_ID, BUILDKITE_BUILD_ID, CIRCLE_WORKFLOW_ID,
   * BUILD_BUILDID); without any, runs of one commit share a key. GITHUB_RUN_ATTEMPT is left out:
   * a re-run of one job must plan as the first run did.
   */
  runId?: string;
  testRunner?: string;
  /** Any JSON value distinguishing concurrent runs of one commit (e.g. a project name). */
  config?: unknown;
}

/** A valid shardGroupKey (`sw-` + 40 hex), equal on every shard given equal inputs. */
export declare function shardGroupKeyFor(input: ShardGroupKeyInput): string;
