// The production import: the versioned catalogue and public content load into an empty database, twice without harm,
// and never create or touch a customer row.
import { beforeEach, describe, expect, it } from 'vitest';
import { catalogueImportStatements } from '../../src/server/seed/catalogue-import';
import { userCount } from '../helpers/accounts';
import { callApi, resetDb } from '../helpers/api';
import { contentRowCount, runCatalogueImport } from '../helpers/content';
import { mealCount, userCouponCount } from '../helpers/money';

beforeEach(resetDb);

describe('catalogue import', { timeout: 30_000 }, () => {
  it('brings an empty database to a sellable catalogue with its help centre, and nothing about customers', async () => {
    const list = catalogueImportStatements(Date.now());
    expect(list.some((s) => /\busers\b|user_coupons|password/.test(s))).toBe(false);
    for (let round = 0; round < 2; round++) await runCatalogueImport();
    expect(await userCount()).toBe(0);
    expect(await userCouponCount()).toBe(0);
    expect(await mealCount()).toBeGreaterThan(10);
    expect(await contentRowCount('articles')).toBeGreaterThan(5);
    const overview = await callApi('ProxyMeal.GetMealOverview', {});
    expect(overview.status).toBe(200);
    expect(Object.keys(overview.body.P?.meaDiscountMax ?? {})).not.toHaveLength(0);
  });
});
