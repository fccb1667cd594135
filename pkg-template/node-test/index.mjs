// shardwise/node-test: a node:test reporter (Node >= 20) that saves the run's report and uploads
// it when a token is set. Beside the reporter you read:
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//               --test-reporter=shardwise/node-test --test-reporter-destination=stdout
// node:test gives a reporter no options: they come from SHARDWISE_* variables (the report goes to
// `shardwise-report/`, or SHARDWISE_OUTPUT_FOLDER). The reporter's work is the skeleton's
// (src/runner/reporter.mjs); here, node:test's translation (translate.mjs). Run by
// `shardwise node-test --shard=i/n` (cli/node-test.mjs), it is handed the shard's plan
// (src/runner/cli-shard.mjs): shard.json and the predicted-against-actual line, as for Jest.
import os from 'node:os';
import { RunReporter } from '../src/runner/reporter.mjs';
import { reportPath } from '../src/runner/options.mjs';
import { setShardPrediction } from '../src/runner/plan.mjs';
import { readShardHandoff, SHARD_HANDOFF_ENV } from '../src/runner/cli-shard.mjs';
import { ENVIRONMENT, NodeTestRun, concurrencyOf } from './translate.mjs';

export class ShardwiseNodeTestReporter extends RunReporter {
  constructor(options = {}) {
    super({ outputFolder: process.env.SHARDWISE_OUTPUT_FOLDER || undefined, ...options }, { runner: 'node-test', unit: 'file' });
  }

  /** The run begins (before its first event). */
  onStart({ cwd = process.cwd() } = {}) {
    const workers = concurrencyOf(undefined, os.availableParallelism?.() ?? os.cpus().length);
    // a shard `shardwise node-test` planned: its plan (shard.json, the predicted-against-actual
    // line), and its start, the planning's included
    const planned = readShardHandoff();
    const launchMs = Number.isFinite(planned?.launchMs) ? planned.launchMs : 0;
    if (planned) {
      // its wall holds what it paid before node:test started (planning): so does its prediction
      setShardPrediction({ ...planned, predictedMs: planned.predictedMs + launchMs });
      this.started = planned.startedAt;
    } else if (process.env[SHARD_HANDOFF_ENV]) {
      this.log(`[shardwise] the shard's plan could not be read (${SHARD_HANDOFF_ENV}=${process.env[SHARD_HANDOFF_ENV]}): this run is reported as a whole run, with no shard record for shardwise verify`);
    }
    const reported = this.begin({
      cwd,
      shard: planned && { index: planned.index, count: planned.count },
      version: process.versions.node,
      workers,
      environments: (systemData) => [{ name: ENVIRONMENT, systemData }],
      context: { environmentIdx: 0, cwd },
    });
    if (reported && launchMs > 0) this.costs.launchMs = launchMs;
    this.run = reported && new NodeTestRun(this.builder, this.ctx, {
      runError: (e, at) => this.runError(e, at),
      fileCost: (file, ms) => this.record('a test file\'s cost', (_b, ctx) => this.costs.add(reportPath(ctx.root, file), ms)),
      ran: (file) => this.ran.add(file),
    });
    if (!reported) {
      // not reported (no commit id): the run's errors outside its tests are still counted
      this.run = new NodeTestRun(nullBuilder, { root: cwd, cwd, environmentIdx: 0 }, { runError: (e, at) => this.runError(e, at) });
    }
  }

  /** The run's end: its last tests (each waited for its diagnostics) recorded, then the skeleton's end. */
  async end() {
    if (!this.reportingStopped) {
      try {
        this.run?.flush();
      } catch (e) {
        this.stop(e);
      }
    }
    return super.end();
  }

  onEvent(event) {
    if (this.reportingStopped) return;
    try {
      this.run?.onEvent(event);
    } catch (e) {
      this.stop(e);
    }
  }
}

/** A builder that records nothing (a run that is not reported still follows its events). */
const nullBuilder = { addTest: () => undefined, addAttempt: () => {} };

/**
 * The reporter node:test loads: an async generator over the run's events. It yields nothing (the
 * other reporter prints the run); its own lines go to stdout at the end.
 * @param {AsyncIterable<{type: string, data?: object}>} source
 */
export default async function* shardwiseNodeTest(source) {
  const reporter = new ShardwiseNodeTestReporter();
  reporter.onStart();
  for await (const event of source) reporter.onEvent(event);
  await reporter.end();
}
