import { test } from '@playwright/test';
import { work } from './work.js';

// These steps share state: they always run together, in order, on one shard.
test.describe.serial('monthly report', () => {
  test('generates', async () => { await work(1500); });
  test('exports as CSV', async () => { await work(1200); });
  test('emails the team', async () => { await work(800); });
});

test('report list paginates', async () => { await work(700); });
test('report list filters by month', async () => { await work(500); });
