// A few long end-to-end flows: what a count-based split piles onto one shard.
import { test, expect } from '@playwright/test';
import { work } from './work.js';

test.describe('checkout', () => {
  test('pays with a saved card', async () => { await work(4000); expect(1 + 1).toBe(2); });
  test('pays with a new card and 3-D Secure', async () => { await work(3600); });
  test('applies a discount code', async () => { await work(3000); });
  test('splits a shipment', async () => { await work(2600); });
  test('refunds an order', async () => { await work(2200); });
  test('sends the receipt', async () => { await work(1600); });
});
