// The example project: tests that only wait on timers (no browser is launched or downloaded).
// With `--shard=i/n`, the shardwise reporter replaces Playwright's count-based split by one
// balanced on predicted durations (from SHARDWISE_BASE_URL / SHARDWISE_ACCESS_TOKEN, or a
// timings file), and uploads the run's report. The demo sets SW_JSON (Playwright's own JSON
// report, what actually ran), SW_OUTPUT (where shardwise saves the report) and SW_NATIVE=1 (leave
// shardwise out: Playwright's native sharding, for comparison).
import { defineConfig } from '@playwright/test';

const reporter = [['dot'], ['json', { outputFile: process.env.SW_JSON ?? 'test-results/results.json' }]];
if (process.env.SW_NATIVE !== '1')
  reporter.push(['shardwise/playwright', { outputFolder: process.env.SW_OUTPUT ?? 'shardwise-report' }]);

export default defineConfig({
  testDir: 'tests',
  // Every test may run on any shard, except the serial describe, which stays together.
  fullyParallel: true,
  workers: 1,
  reporter,
  outputDir: process.env.SW_OUTPUT ? `${process.env.SW_OUTPUT}-artifacts` : 'test-results',
});
