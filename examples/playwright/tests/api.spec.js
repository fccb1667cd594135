// Many quick tests: what a count-based split gets wrong.
import { test, expect } from '@playwright/test';
import { work } from './work.js';

const endpoints = [['health', 60], ['version', 80], ['users', 150], ['users/1', 120], ['orders', 200],
  ['orders/1', 110], ['search', 180], ['cart', 90], ['prices', 140], ['stock', 70]];
for (const [path, ms] of endpoints) {
  test(`GET /${path} answers`, async () => {
    await work(ms);
    expect(path.length).toBeGreaterThan(0);
  });
}
