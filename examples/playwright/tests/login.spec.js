import { test } from '@playwright/test';
import { work } from './work.js';

test.describe('login', () => {
  test('with a password', async () => { await work(1200); });
  test('with a magic link', async () => { await work(1800); });
  test('rejects a bad password', async () => { await work(900); });
  test('locks after five attempts', async () => { await work(2000); });
  test('with single sign-on', async () => { await work(1500); });
});
