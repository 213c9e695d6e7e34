// The returning customer (issue 24): a paid fixed IP is allocated the moment the payment arrives when its region has a
// free IP (分配中 with a stated expectation otherwise), and the upgrade list offers only meals the package can really
// be upgraded to, priced as the engine charges after the package's credit.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { PENDING_STATE_TEXT } from '../../src/lib/package-states';
import { DAY_MS } from '../../src/lib/time';
import { userIdOf } from '../helpers/accounts';
import { callApi } from '../helpers/api';
import { payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { addPool } from '../helpers/delivery';
import { redPacketPackage } from '../helpers/money';
import { listSaleRegions } from '../../src/server/db/catalogue';
import { listFixedAllocations } from '../../src/server/db/fixed';

beforeEach(resetWithCatalogue);

/** The id of a region the fixed IPs are sold in. */
const regionId = async (name: string) => (await listSaleRegions(env.DB, 30)).find((r) => r.name === name)?.id ?? -1;

describe('a paid fixed IP', () => {
  it('is allocated when the payment arrives if its region has a free IP, else shows 分配中 (no job run)', async () => {
    await addPool([
      {
        ip: '203.0.113.70',
        pool: 30,
        ttlSeconds: 60 * 86_400 /* outlives the package */,
        province: '广东省',
        city: '深圳市',
      },
    ]);
    const phone = '13800024001';
    const cookie = await verifiedBuyer(phone);
    const uid = await userIdOf(phone);
    const shenzhen = await place(
      'PayOrder.BuyProxy',
      { mealId: 302_001, units: 1, regionId: await regionId('深圳') },
      cookie,
    );
    const shenyang = await place(
      'PayOrder.BuyProxy',
      { mealId: 302_001, units: 1, regionId: await regionId('沈阳') },
      cookie,
    );
    expect((await payInSimulator(shenzhen.codeUrl as string)).status).toBe(200);
    expect((await payInSimulator(shenyang.codeUrl as string)).status).toBe(200);

    const held = await listFixedAllocations(env.DB, { userId: uid, liveAt: null, offset: 0, limit: 100 });
    expect(held.list.filter((a) => a.releasedAt === 0).map((a) => ({ ip: a.ip, city: a.city }))).toEqual([
      { ip: '203.0.113.70', city: '深圳市' },
    ]);
    const list = await callApi('Proxy.GetProxys', { type: 30 }, { cookie });
    const states = (list.body.P?.list ?? []).map((p) => [p.pendingIps, p.stateText]).sort();
    expect(states).toEqual([
      [0, '使用中'],
      [1, PENDING_STATE_TEXT],
    ]);
    expect(PENDING_STATE_TEXT).toBe('分配中');

    // The renewal list (购买套餐 → 续费) names the same package the same way: 分配中 with the IP still awaited,
    // never 使用中.
    const renewals = await callApi('ProxyUpgrade.getProxyList', { type: 30 }, { cookie });
    const renewStates = (renewals.body.P?.list ?? []).map((p) => [p.pendingIps, p.stateText]).sort();
    expect(renewStates).toEqual([
      [0, '使用中'],
      [1, '分配中'],
    ]);
  });
});

describe('the upgrade list', () => {
  it('offers only larger meals of the same billing and IP duration, priced after the credit as the quote charges', async () => {
    const cookie = await verifiedBuyer('13800024002');
    const bought = await place('PayOrder.BuyProxy', { mealId: 101_010, units: 1 }, cookie);
    expect((await payInSimulator(bought.codeUrl as string)).status).toBe(200);
    const [meals, held] = await Promise.all([
      callApi('ProxyMeal.GetMealWithActivity', { type: 10 }),
      callApi('ProxyUpgrade.getProxyList', { type: 10 }, { cookie }),
    ]);
    const catalogue = meals.body.P?.meals ?? [];
    const from = catalogue.find((m) => m.id === 101_010);
    const pkg = held.body.P?.list[0];
    if (!from || !pkg) throw new Error('no package or meal');
    expect(pkg.upgradeTargets.length).toBeGreaterThan(0);
    // Never the meal it was bought from or a smaller one, never another billing method or IP duration.
    const smaller = catalogue.filter(
      (m) =>
        m.billingMethod === from.billingMethod && m.ipDurationMinutes === from.ipDurationMinutes && m.size <= from.size,
    );
    expect(smaller.length).toBeGreaterThan(0);
    for (const t of pkg.upgradeTargets) {
      const m = catalogue.find((x) => x.id === t.mealId);
      expect(m).toMatchObject({ billingMethod: from.billingMethod, ipDurationMinutes: from.ipDurationMinutes });
      expect(m?.size ?? 0).toBeGreaterThan(from.size);
      // What the dialog shows is what PayOrder.Quote charges.
      const quote = await callApi(
        'PayOrder.Quote',
        { request: { kind: 'merge', packageIds: [pkg.id], mealId: t.mealId, units: 1 } },
        { cookie },
      );
      expect(quote.body.P?.payFen).toBe(t.payFen);
    }
  });

  it('says a gift package cannot be renewed and names the same meal to buy', async () => {
    const phone = '13800024003';
    const cookie = await verifiedBuyer(phone);
    const uid = await userIdOf(phone);
    const now = Date.now();
    await redPacketPackage(uid, 101_010, now, now + DAY_MS);
    const held = await callApi('ProxyUpgrade.getProxyList', { type: 10 }, { cookie });
    expect(held.body.P?.list).toEqual([expect.objectContaining({ renewable: false, sameMealId: 101_010 })]);
  });
});
