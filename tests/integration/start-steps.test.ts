// The personal centre's 开始使用 checklist (User.GetStartSteps, docs/decisions/231): 购买套餐 ticks once an order is
// paid, 添加白名单并提取 once an address is on the whitelist and an extraction has returned IPs; all from real data.
import { beforeEach, describe, expect, it } from 'vitest';
import { userIdOf } from '../helpers/accounts';
import { callApi } from '../helpers/api';
import { payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { allowIp, extractCall, makePackage, simplePool } from '../helpers/delivery';

beforeEach(resetWithCatalogue);

const steps = async (cookie: string) => (await callApi('User.GetStartSteps', {}, { cookie })).body.P;

describe('User.GetStartSteps', () => {
  it('ticks 购买套餐 when an order is paid, not when it is only placed', async () => {
    const cookie = await verifiedBuyer('13800023001');
    expect(await steps(cookie)).toEqual({ bought: false, whitelisted: false, extracted: false });
    const order = await place('PayOrder.BuyProxy', { mealId: 101_000, units: 1 }, cookie);
    expect((await steps(cookie))?.bought).toBe(false);
    expect((await payInSimulator(order.codeUrl ?? '')).status).toBe(200);
    expect((await callApi('Order.GetDetail', { orderNo: order.orderNo }, { cookie })).body.P?.state).toBe(2);
    expect((await steps(cookie))?.bought).toBe(true);
    // Another customer's purchase ticks nothing for this one.
    expect((await steps(await verifiedBuyer('13800023002')))?.bought).toBe(false);
  });

  it('ticks 添加白名单并提取 only after an address is allowed and an extraction returned IPs', async () => {
    const cookie = await verifiedBuyer('13800023003');
    const id = await userIdOf('13800023003');
    await simplePool(5);
    await makePackage(id);
    const key = (await callApi('Extract.GetMealAndRegion', { type: 10 }, { cookie })).body.P?.apiKey ?? '';
    // Refused without a whitelist: nothing was extracted.
    expect((await extractCall({ key })).status).not.toBe(200);
    expect(await steps(cookie)).toMatchObject({ whitelisted: false, extracted: false });
    await allowIp(id, '192.0.2.50');
    expect(await steps(cookie)).toMatchObject({ whitelisted: true, extracted: false });
    expect((await extractCall({ key, num: 2 })).status).toBe(200);
    expect(await steps(cookie)).toMatchObject({ whitelisted: true, extracted: true });
  });
});
