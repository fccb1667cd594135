// The reporter skeleton every runner integration fills in (Playwright, Jest, Vitest; the next ones
// the same way): what a reporter does whatever its runner, in one place. The runner's class extends
// `RunReporter` and supplies only its translation: at its start, where the run is and what it is
// (`begin`: folder, shard, version, workers, environments, the context its translation reads);
// each result through `record`; a balanced shard's plan when it is not the sequencers' hand-off
// (`balancedShard`); and at its end, `end`.
//
// Here: the options, the injectable `api` (the package namespace, or a fake in tests), the lines
// (`log`, held until the runner's summary has printed when the runner wants that: `hold`), the OS
// of the environments (`systemData`), the report's builder and context, the run's costs, the one
// "reporting stopped" line, and the one end of a run: the report finished, the shard's
// predicted-against-actual lines and record, the save and upload, a stopped shard's failure.
import os from 'node:os';
import path from 'node:path';
import * as shardwise from '../../node.mjs';
import { resolveOptions, gitInfo, runUrlFromEnv, runAttemptFromEnv, outsideRootOnce, relativePosix } from './options.mjs';
import { AttachmentStore, addShardPlan, clearSaved, reportPlace, runStart, saveAndUpload } from './report.mjs';
import { actualLines, attemptsMs, shardPrediction, shardStop } from './plan.mjs';
import { writeShardRecord } from './shard-record.mjs';
import { recordNotes, guarded } from './record.mjs';
import { RunCosts } from './costs.mjs';
import { RunErrors } from './run-errors.mjs';

/** The machine's OS, as every environment of a report says it (`systemData`). */
export const systemData = () => ({ osName: os.type(), osVersion: os.release(), osArch: os.arch() });

/** The one line a reporter says when it stops reporting (the tests run on). */
export const stoppedLine = (e) => `[shardwise] reporting stopped (${e?.code ?? 'ERROR'}: ${e?.message ?? e}); the tests are unaffected`;

/** The line of a run without a commit id: it is not reported. */
export const NO_COMMIT_LINE = '[shardwise] no commit id (not a git checkout; set SHARDWISE_COMMIT_ID): the run is not reported';

export class RunReporter {
  /**
   * @param {object} [options] the user's options (`resolveOptions`), and `api`: the package
   *   namespace, a fake in tests
   * @param {{runner: string, unit: 'test'|'file'}} kind `runner`: the report's category, its
   *   test runner's name and the costs record's runner; `unit`: what its shards are balanced by
   */
  constructor(options = {}, { runner, unit }) {
    this.runner = runner;
    this.unit = unit;
    this.options = resolveOptions(options);
    this.api = options.api ?? shardwise;
    this.log = (line) => { if (!this.options.quiet) process.stdout.write(`${line}\n`); };
    /** What ran, in the runner's terms (`balancedShard` makes unit ids of them). */
    this.ran = new Set();
    /** The report's builder while reporting; undefined before `begin`, without a commit id, once stopped. */
    this.builder = undefined;
    /** What the runner's translation reads: `{root, envIndex, store, notes, onOutsideRoot, ...}`. */
    this.ctx = undefined;
    /** The folder the report and the shard's record are saved in. */
    this.folder = undefined;
    this.costs = undefined;
    /** The line of a shard that must not run (`stopShard`, or its sequencer's `setShardStop`): the run fails, no report is saved. */
    this.shardStopLine = undefined;
    this.reportingStopped = false;
    this.held = undefined;
    /** The run's errors outside its tests (files that failed to load, a global set-up): `runError`. */
    this.runErrors = new RunErrors();
    /** What report paths are relative to: the repository's root once `begin` found it. */
    this.root = process.cwd();
  }

  /**
   * An error outside any test, as the runner reports it: `file` the test file it belongs to,
   * `loaded: false` when that file failed to load. Kept in the report's `unattributedErrors` and
   * counted by the closing line, even when the run is not reported (no commit id).
   */
  runError(e, { file, loaded = true } = {}) {
    try {
      this.runErrors.add(e, { root: this.root, file, loaded });
    } catch { /* an error of an unforeseen shape: the runner says it anyway */ }
  }

  /** This run's start (see runStart), the same for the report and a balanced shard's "took" line. */
  runStart() {
    this.started ??= runStart();
    return this.started;
  }

  /**
   * Starts the run's report; never throws (a failure stops reporting, said once).
   * @param {object} run
   * @param {string} run.cwd the runner's root directory: the output folder and the repository are found from it
   * @param {{index: number, count: number}} [run.shard] this run's shard, 1-based
   * @param {string} [run.version] the runner's version
   * @param {number} [run.workers] the runner's parallel workers (the costs record)
   * @param {(systemData: object) => Array<{name: string}>} run.environments the report's
   *   environments, each given the OS (`ctx.envIndex` maps their names to their indices)
   * @param {object} [run.context] what else the runner's translation reads in `ctx`
   * @returns {boolean} whether the run is reported
   */
  begin({ cwd, shard, version, workers, environments, context = {} }) {
    try {
      this.runStart();
      const { folder, title } = reportPlace(path.resolve(cwd, this.options.outputFolder), shard?.index, shard?.count);
      this.folder = folder;
      clearSaved(folder); // an earlier run's report, attachments and records: never beside this run's
      const { root, commitId } = gitInfo(cwd, this.options.commitId);
      this.root = root;
      this.shard = shard;
      if (!commitId) {
        this.log(NO_COMMIT_LINE);
        return false;
      }
      const url = runUrlFromEnv();
      this.builder = new this.api.ReportBuilder({
        category: this.runner, commitId, startTimestamp: this.runStart(),
        ...(title ? { title } : {}), ...(url ? { url } : {}),
        ...(version ? { testRunner: { name: this.runner, version } } : {}),
      });
      const envIndex = new Map();
      for (const env of environments(systemData())) envIndex.set(env.name, this.builder.addEnvironment(env));
      const log = (line) => this.log(line);
      this.ctx = { root, envIndex, store: new AttachmentStore(folder), notes: recordNotes(log), onOutsideRoot: outsideRootOnce(log, root), ...context };
      this.costs = new RunCosts(this.runner, workers);
      return true;
    } catch (e) {
      this.stop(e);
      return false;
    }
  }

  /**
   * Records one result while reporting: `translate(builder, ctx)`. An unexpected failure loses
   * that result only (said once: record.mjs `guarded`), never the report.
   */
  record(what, translate) {
    if (!this.builder) return undefined;
    return guarded(this.ctx, what, () => translate(this.builder, this.ctx));
  }

  /**
   * This shard's plan when it was balanced, with the unit ids it ran:
   * `{index, count, predictedMs, expected, record, ran}`, else undefined. Here, the hand-off of
   * the runners whose sequencer plans files (Jest, Vitest: `setShardPrediction`), whose units are
   * the files relative to the repository, `ran` holding their absolute paths; a runner that plans
   * in its reporter gives its own.
   */
  balancedShard() {
    const p = shardPrediction();
    if (!p?.record) return undefined;
    return { ...p, ran: [...this.ran].map((f) => relativePosix(p.root, f)) };
  }

  /**
   * A shard that must not run (`ShardStop` of plan.mjs): its line now (once), and the run fails
   * (`end`), saving no report: the shard ran nothing, and a report of nothing is not one to upload.
   */
  stopShard(line) {
    this.shardStopLine = line;
    this.log(line);
  }

  /**
   * The end of the run: the report finished (its duration, the costs record, a balanced shard's
   * plan), the shard's predicted-against-actual lines and its record (shard.json), the report
   * saved and uploaded, and a stopped shard's line again. Never throws.
   * @returns {Promise<{failed: boolean}>} `failed`: the shard stopped, and the run must fail
   */
  async end() {
    let report;
    const stop = (e) => {
      report = undefined;
      this.stop(e);
    };
    let shard;
    try {
      shard = this.balancedShard();
    } catch (e) {
      stop(e);
    }
    const builder = this.builder;
    if (builder) {
      try {
        report = builder.build();
        report.duration = Math.max(0, Date.now() - this.runStart());
        this.costs.modulesShare = shard?.expected?.modulesShare;
        this.costs.addTo(report, this.api.shardCosts);
        this.runErrors.addTo(report);
      } catch (e) {
        stop(e);
      }
    }
    try {
      if (shard) {
        const { index, count, predictedMs, expected, record, ran } = shard;
        const run = this.options.runId ? { id: this.options.runId, attempt: runAttemptFromEnv() } : undefined;
        if (report) addShardPlan(report, { record, predictedMs, unit: this.unit, run });
        const actualMs = Date.now() - this.runStart();
        for (const line of actualLines({ shardIndex: index, shardCount: count, predictedMs, actualMs, testsMs: report && attemptsMs(builder), expected })) this.say(line);
        if (this.folder) writeShardRecord(this.folder, record, ran);
      }
    } catch (e) {
      stop(e);
    }
    const stopped = this.shardStopLine ?? shardStop();
    // a stopped shard's runner ends its run of nothing as failed: that is the stop, said already
    if (stopped) this.runErrors.stoppedEarly = undefined;
    for (const line of this.runErrors.lines()) this.say(line);
    if (report && !stopped) {
      try {
        await saveAndUpload({ api: this.api, report, store: this.ctx.store, options: this.options, log: (line) => this.say(line) });
      } catch (e) {
        stop(e);
      }
    }
    if (stopped && report) this.say(`[shardwise] no report saved: shard ${this.shard?.index}/${this.shard?.count} ran nothing (see its line above)`);
    return { failed: Boolean(stopped) };
  }

  /** Stops reporting (the tests run on), said once. */
  stop(e) {
    this.builder = undefined;
    if (this.reportingStopped) return;
    this.reportingStopped = true;
    this.say(stoppedLine(e));
  }

  /**
   * From now on the reporter's lines are held, to be printed by `flush` (or at the process's
   * exit): for a runner that prints its summary after its reporters have ended (Jest).
   */
  hold() {
    this.held = [];
    this.onExit = () => this.flush();
    process.once('exit', this.onExit);
  }

  /** Prints the held lines (once), and stops holding. */
  flush() {
    const lines = this.held ?? [];
    this.held = undefined;
    if (this.onExit) process.off('exit', this.onExit);
    this.onExit = undefined;
    for (const line of lines) this.log(line);
  }

  /** A line now, or held (see `hold`). */
  say(line) {
    if (this.held) this.held.push(line);
    else this.log(line);
  }
}
