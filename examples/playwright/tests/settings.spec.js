import { test } from '@playwright/test';
import { work } from './work.js';

test('changes the language', async () => { await work(300); });
test('switches to dark mode', async () => { await work(200); });
test('updates the avatar', async () => { await work(600); });
test('deletes the account', async () => { await work(450); });
