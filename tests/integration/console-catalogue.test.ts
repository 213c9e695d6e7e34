// The production import: the versioned catalogue and public content load into an empty database, twice without harm,
// and never create or touch a customer row.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { catalogueImportStatements } from '../../src/server/seed/catalogue-import';
import { callApi, resetDb } from '../helpers/api';

beforeEach(resetDb);

const count = (table: string) => env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<number>('n');

describe('catalogue import', { timeout: 30_000 }, () => {
  it('brings an empty database to a sellable catalogue with its help centre, and nothing about customers', async () => {
    const list = catalogueImportStatements(Date.now());
    expect(list.some((s) => /\busers\b|user_coupons|password/.test(s))).toBe(false);
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < list.length; i += 50) await env.DB.batch(list.slice(i, i + 50).map((s) => env.DB.prepare(s)));
    }
    expect(await count('users')).toBe(0);
    expect(await count('user_coupons')).toBe(0);
    expect(await count('meals')).toBeGreaterThan(10);
    expect(await count('articles')).toBeGreaterThan(5);
    const overview = await callApi('ProxyMeal.GetMealOverview', {});
    expect(overview.status).toBe(200);
    expect(Object.keys(overview.body.P?.meaDiscountMax ?? {})).not.toHaveLength(0);
  });
});
