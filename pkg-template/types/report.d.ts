// The report document (the service's format; see @flakiness/flakiness-report) and its API.
// Times are Unix epoch milliseconds, durations milliseconds, lines and columns 1-based, file
// paths POSIX and relative to the repository root.

export type TestStatus = 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
export interface Location { file: string; line: number; column: number }
export interface NameVersion { name: string; version: string }
export interface Environment {
  /** 1..512 characters. Equal environments (whole content) are one environment. */
  name: string;
  systemData?: { osName?: string; osVersion?: string; osArch?: string };
  userSuppliedData?: Record<string, string | number | boolean>;
  metadata?: Record<string, string | number | boolean>;
}
export interface ReportError { message?: string; stack?: string; snippet?: string; value?: string; location?: Location }
export interface Attachment { name: string; contentType: string; /** lowercase hex SHA-1 of the content */ id: string }
export interface Annotation { type: string; description?: string; location?: Location }
export interface TestStep {
  title: string; duration?: number; location?: Location; snippet?: string; error?: ReportError;
  attachments?: Attachment[]; steps?: TestStep[];
}
/** Exactly one of `text` or `buffer` (base64). `stream`: 1 stdout (default), 2 stderr. */
export type TimedSTDIOEntry = { stream?: 1 | 2; dts?: number } & ({ text: string } | { buffer: string });
/** Output without timing (the older form `stdout`/`stderr`): exactly one of `text` or `buffer` (base64). */
export type STDIOEntry = { text: string } | { buffer: string };
export interface RunAttempt {
  /** Index into `environments`; default 0. */
  environmentIdx?: number;
  status?: TestStatus;
  expectedStatus?: TestStatus;
  startTimestamp: number;
  duration?: number;
  timeout?: number;
  annotations?: Annotation[];
  errors?: ReportError[];
  parallelIndex?: number;
  steps?: TestStep[];
  stdio?: TimedSTDIOEntry[];
  stdout?: STDIOEntry[];
  stderr?: STDIOEntry[];
  attachments?: Attachment[];
}
export interface Test { title: string; location?: Location; tags?: string[]; attempts: RunAttempt[] }
export interface Suite { type: 'file' | 'suite' | 'anonymous suite'; title: string; location?: Location; suites?: Suite[]; tests?: Test[] }
export interface Source { filePath: string; text: string; lineOffset?: number; contentType?: string }
/** The machine's load during the run: samples `dts` ms apart, percentages 0..100. */
export interface SystemUtilization {
  totalMemoryBytes: number;
  startTimestamp: number;
  samples: Array<{ dts: number; cpuUtilization: number; memoryUtilization: number }>;
}
export interface Report {
  /** e.g. 'playwright', 'jest', 'vitest' (1..100 characters). */
  category: string;
  /** The commit under test: 40 lowercase hex characters. */
  commitId: string;
  environments: Environment[];
  startTimestamp: number;
  duration: number;
  title?: string;
  /** The CI run's URL. */
  url?: string;
  configPath?: string;
  relatedCommitIds?: string[];
  flakinessProject?: string;
  generatedBy?: NameVersion;
  testRunner?: NameVersion;
  runtime?: NameVersion;
  suites?: Suite[];
  /** Tests outside any suite. */
  tests?: Test[];
  unattributedErrors?: ReportError[];
  sources?: Source[];
  cpuCount?: number;
  ramBytes?: number;
  cpuAvg?: Array<[number, number]>;
  cpuMax?: Array<[number, number]>;
  ram?: Array<[number, number]>;
  systemUtilization?: SystemUtilization;
}

/** Checked as the report's head would be (validateReport's rules): an invalid init throws INVALID_INPUT. */
export interface ReportInit {
  category: string;
  commitId: string;
  /** Default: the earliest attempt's start. */
  startTimestamp?: number;
  /** Default: from the earliest start to the latest attempt end. */
  duration?: number;
  title?: string;
  url?: string;
  configPath?: string;
  relatedCommitIds?: string[];
  flakinessProject?: string;
  generatedBy?: NameVersion;
  testRunner?: NameVersion;
  runtime?: NameVersion;
  cpuCount?: number;
  ramBytes?: number;
}

export interface TestInput {
  /** Suite titles, outermost first, then the test's title. */
  titlePath: string[];
  /** Repository-relative POSIX path; the test is put in a `file` suite for it. */
  file?: string;
  line?: number;
  column?: number;
  tags?: string[];
}

/** Builds a valid report incrementally (100,000+ tests in linear time). */
export declare class ReportBuilder {
  constructor(init: ReportInit);
  /** Returns the environment's index; equal environments collapse to one index. */
  addEnvironment(env: Environment): number;
  /** Returns a handle; the same title path and file give the same handle. */
  addTest(test: TestInput): number;
  /**
   * Checked at once by validateReport's rules (known fields only, `environmentIdx` within the
   * environments added so far, relative paths, stdio entries, attachment ids): an invalid
   * attempt throws INVALID_INPUT naming the field (`attempt.stdio[0]: ...`) and is not added.
   */
  addAttempt(handle: number, attempt: RunAttempt): void;
  /** Hashes the content (SHA-1): equal content gives one id. Put the result in an attempt's `attachments`. */
  addAttachment(attachment: { name: string; contentType: string; data: Uint8Array }): Attachment;
  /** The attachments' contents, one per id, ready for `uploadReport({ attachments })`. */
  attachments(): Array<{ id: string; contentType: string; data: Uint8Array }>;
  build(): Report;
  /** JSON, Brotli quality 9: what the service stores. */
  encode(): Uint8Array;
  free(): void;
}

/** Validates (throws INVALID_INPUT naming the problems) then encodes: JSON, Brotli quality 9, in the smallest window (lgwin 10-22) that holds the JSON. */
export declare function encodeReport(report: Report): Uint8Array;
/**
 * Reads Brotli-compressed or plain JSON bytes and returns the document as stored (nothing filled
 * in or dropped) once it passes the published schema's rules (`@flakiness/flakiness-report`);
 * anything else throws a ShardwiseError. The stricter rules are validateReport's.
 */
export declare function decodeReport(bytes: Uint8Array): Report;
export interface ValidationIssue { path: string; message: string }
/**
 * Every problem by the published schema's rules and shardwise's stricter ones
 * (docs/report-format.md §5), e.g.
 * `suites[2].tests[0].attempts[1].environmentIdx: 3 is out of range (2 environments)`. Empty when
 * valid. Never throws for a value that is not a report: that is one issue at `(report)`.
 */
export declare function validateReport(report: unknown): ValidationIssue[];
/** Merges equal environments and duplicate tests, drops default-valued fields. Idempotent. */
export declare function normalizeReport(report: Report): Report;
