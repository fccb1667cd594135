import { test } from '@playwright/test';
import { work } from './work.js';

const cases = [['by title', 400], ['by author', 500], ['with typos', 900], ['with filters', 650],
  ['empty query', 300], ['sorts by date', 450], ['paginates', 550], ['suggests as you type', 800]];
for (const [name, ms] of cases) test(`search ${name}`, async () => { await work(ms); });
