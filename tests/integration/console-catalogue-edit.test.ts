// The console's catalogue: meals, activities and regions are validated against the catalogue's rules (bad input
// changes nothing), every write has its audit row, a price change applies to new orders only (an order placed before
// it is paid at its own price), and only admin writes (finance reads; support, content, ops and customers are refused).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ActionInput } from '../../src/lib/api-core';
import { userIdOf } from '../helpers/accounts';
import { callApi, callApiUntyped } from '../helpers/api';
import { payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { mealCount, packageOfOrder, storedRegion } from '../helpers/money';
import { auditRows, operatorLogin } from '../helpers/operators';
import { ON_OFF } from '../../src/lib/on-off-states';
import { ORDER_STATE } from '../../src/lib/order-states';
import { findMealForAdmin } from '../../src/server/db/console-catalogue-edit';
import { findOrder } from '../../src/server/db/orders';

beforeEach(resetWithCatalogue);

const MEAL = 101_010; // 短效 按量 50,000 · 3分钟 (seed)
// The audit log is append-only (the reset between tests keeps it): rows are told apart by their operator.
const audits = (action: string, operatorId: number) => auditRows({ action, operatorId });
const newMeal: ActionInput<'Admin.MealSave'> = {
  productType: 10,
  billingMethod: 1,
  name: '短效动态IP 按量 3000个 · 5分钟',
  ipDurationMinutes: 5,
  size: 3000,
  periodDays: 30,
  priceFen: 1990,
};

describe('catalogue writes', { timeout: 60_000 }, () => {
  it('creates a meal that the buy page sells, with its audit row; bad terms are refused and change nothing', async () => {
    const admin = await operatorLogin('admin');
    const meals = await mealCount();
    for (const [bad, message] of [
      [{ ipDurationMinutes: 7 }, 'IP时长须从该产品的可选时长中选择'],
      [
        { productType: 30, billingMethod: 1, ipDurationMinutes: 0, size: 1 },
        '该产品不支持此计费方式（固定IP与优质IP按天计费）',
      ],
      [{ productType: 30, billingMethod: 2, ipDurationMinutes: 0, size: 5 }, '固定IP与优质IP每份为1个IP'],
      [{ priceFen: 0 }, '价格（分）须为1-100000000的整数'],
      [{ priceFen: 12.5 }, '价格（分）须为1-100000000的整数'],
    ] as const) {
      const res = await callApiUntyped('Admin.MealSave', { ...newMeal, ...bad }, { cookie: admin.cookie });
      expect(res.body.E, JSON.stringify(bad)).toBe(message);
    }
    expect(await mealCount()).toBe(meals);
    expect(await audits('Admin.MealSave', admin.id)).toEqual([]);

    const created = await callApi('Admin.MealSave', newMeal, { cookie: admin.cookie });
    const id = created.body.P?.id ?? 0;
    expect(id).toBeGreaterThan(MEAL);
    const offered = await callApi('ProxyMeal.GetMealWithActivity', { type: 10 });
    expect(JSON.stringify(offered.body.P)).toContain(`"id":${id}`);
    expect(await audits('Admin.MealSave', admin.id)).toEqual([
      expect.objectContaining({ operatorId: admin.id, role: 'admin', target: 'meal:new' }),
    ]);

    // Withdrawn: no longer sold; the reason is required and kept.
    expect(
      (await callApi('Admin.CatalogueSetState', { kind: 'meal', id, state: 2, reason: '' }, { cookie: admin.cookie }))
        .body.E,
    ).toBe('请填写操作原因（2-200个字）');
    const off = await callApi(
      'Admin.CatalogueSetState',
      { kind: 'meal', id, state: 2, reason: '停售' },
      {
        cookie: admin.cookie,
      },
    );
    expect(off.body.P).toEqual({ state: 2 });
    expect((await findMealForAdmin(env.DB, id))?.state).toBe(ON_OFF.off);
    expect(
      (
        await callApi(
          'Admin.CatalogueSetState',
          { kind: 'meal', id, state: 2, reason: '再停' },
          { cookie: admin.cookie },
        )
      ).body.E,
    ).toBe('状态已变化，请刷新后重试');
    expect(await audits('Admin.CatalogueSetState', admin.id)).toHaveLength(1);
  });

  it('a price change applies to new orders; an order placed before keeps and is paid at its own price', async () => {
    const admin = await operatorLogin('admin');
    const buyer = await verifiedBuyer('13900001201');
    const before = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
    const meal = await findMealForAdmin(env.DB, MEAL);
    const oldPrice = meal?.priceFen ?? -1;
    const res = await callApi(
      'Admin.MealSave',
      {
        id: MEAL,
        productType: 10,
        billingMethod: 1,
        name: '涨价后的套餐',
        ipDurationMinutes: meal?.ipDurationMinutes ?? 0,
        size: meal?.size ?? 0,
        periodDays: meal?.periodDays ?? 0,
        priceFen: oldPrice * 2,
        reason: '成本上涨',
      },
      { cookie: admin.cookie },
    );
    expect(res.body.E).toBeUndefined();
    const [row] = await audits('Admin.MealSave', admin.id);
    expect(row).toMatchObject({ target: `meal:${MEAL}`, reason: '成本上涨' });
    expect(String(row?.before)).toContain(`"priceFen":${oldPrice}`);

    // The earlier order is paid at the price it was placed at, and delivers what it promised.
    await payInSimulator(before.codeUrl ?? '');
    const paid = await findOrder(env.DB, before.orderNo);
    expect(paid).toMatchObject({ state: ORDER_STATE.paid, payFen: before.payFen, listFen: oldPrice });
    expect((await packageOfOrder(before.orderNo))?.totalCount).toBe(meal?.size);
    // A new order is priced from the new price.
    const after = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
    expect((await findOrder(env.DB, after.orderNo))?.listFen).toBe(oldPrice * 2);
    expect(await userIdOf('13900001201')).toBeGreaterThan(0);
  });

  it('activities and regions: validated, audited, and the activity applies to what the buy page quotes', async () => {
    const admin = await operatorLogin('admin');
    const now = Date.now();
    const base: ActionInput<'Admin.ActivitySave'> = {
      name: '新活动',
      productType: 40,
      startsAt: now - 1000,
      endsAt: now + 86_400_000,
    };
    for (const [bad, message] of [
      [{ discountPercent: 0, bonusPercent: 0 }, '折扣比例与赠送比例至少填写一项'],
      [{ discountPercent: 95 }, '折扣比例（%）须为0-90的整数'],
      [{ discountPercent: 10, endsAt: now - 2000 }, '结束时间须晚于开始时间'],
      [{ productType: 30, bonusPercent: 10 }, '固定IP与优质IP不赠送数量，赠送比例须为0'],
      [{ discountPercent: 10, mealId: MEAL }, '指定的套餐不属于该产品或计费方式'],
    ] as const) {
      expect((await callApiUntyped('Admin.ActivitySave', { ...base, ...bad }, { cookie: admin.cookie })).body.E).toBe(
        message,
      );
    }
    expect(await audits('Admin.ActivitySave', admin.id)).toEqual([]);
    const ok = await callApi('Admin.ActivitySave', { ...base, discountPercent: 30 }, { cookie: admin.cookie });
    expect(ok.body.P?.id).toBeGreaterThan(0);
    const overview = await callApi('ProxyMeal.GetMealOverview', {});
    expect(overview.body.P?.meaDiscountMax['40']).toBe(30);
    const list = await callApi('Admin.CatalogueList', { productType: 40 }, { cookie: admin.cookie });
    expect(list.body.P?.activities.find((a) => a.id === ok.body.P?.id)).toMatchObject({
      live: true,
      ruleText: '订单原价减30%（优惠金额向下取整到分）',
    });

    expect(
      (
        await callApi(
          'Admin.RegionSave',
          { name: '东莞', province: '广东省', productTypes: [10] },
          { cookie: admin.cookie },
        )
      ).body.E,
    ).toBe('地区须至少用于固定IP或优质IP之一');
    const region = await callApi(
      'Admin.RegionSave',
      { name: '东莞市', province: '广东省', productTypes: [30, 50] },
      { cookie: admin.cookie },
    );
    expect(await storedRegion(region.body.P?.id ?? 0)).toMatchObject({
      productTypes: '30,50',
      provinceKey: '广东',
      cityKey: '东莞',
      state: ON_OFF.on,
    });
    expect(await audits('Admin.RegionSave', admin.id)).toHaveLength(1);
  });

  it('finance reads but cannot write; support, content, ops and customers are refused', async () => {
    const finance = await operatorLogin('finance');
    expect((await callApi('Admin.CatalogueList', { productType: 10 }, { cookie: finance.cookie })).status).toBe(200);
    expect((await callApi('Admin.MealSave', newMeal, { cookie: finance.cookie })).status).toBe(403);
    for (const role of ['support', 'content', 'ops'] as const) {
      const { cookie } = await operatorLogin(role);
      expect((await callApi('Admin.CatalogueList', { productType: 10 }, { cookie })).status, role).toBe(403);
      expect((await callApi('Admin.MealSave', newMeal, { cookie })).status, role).toBe(403);
    }
    const customer = await verifiedBuyer('13900001202');
    expect((await callApi('Admin.MealSave', newMeal, { cookie: customer })).status).toBe(403);
    expect((await callApi('Admin.CatalogueList', { productType: 10 }, { cookie: customer })).status).toBe(403);
    expect(await mealCount('短效动态IP 按量 3000个 · 5分钟')).toBe(0);
  });
});
