// The console's catalogue list: one page of a type's meals (20 a page, on sale first) filtered by billing method, IP
// duration and state, with the filter's counts, the meal being edited whatever its page, and the type's meals on sale
// as activity choices; a filter the type cannot match or a bad page is refused in Chinese; only admin and finance read.
import { beforeEach, describe, expect, it } from 'vitest';
import type { ActionInput, ActionOutput } from '../../src/lib/api-core';
import { DEMO_MEALS } from '../../src/server/seed/commerce';
import { callApi, callApiUntyped } from '../helpers/api';
import { resetWithCatalogue } from '../helpers/commerce';
import { operatorLogin } from '../helpers/operators';

beforeEach(resetWithCatalogue);

type ListMeal = NonNullable<ActionOutput<'Admin.CatalogueList'>['meal']>;

const seedIds = (f: (m: (typeof DEMO_MEALS)[number]) => boolean) =>
  DEMO_MEALS.filter(f)
    .map((m) => m.id)
    .sort((a, b) => a - b);

async function list(cookie: string, input: ActionInput<'Admin.CatalogueList'>) {
  const res = await callApi('Admin.CatalogueList', input, { cookie });
  expect(res.body.E, JSON.stringify(input)).toBeUndefined();
  return res.body.P as ActionOutput<'Admin.CatalogueList'>;
}

describe('Admin.CatalogueList filter and pages', { timeout: 60_000 }, () => {
  it('pages a type through all its meals, 20 a page, with the counts per billing method, duration and state', async () => {
    const { cookie } = await operatorLogin('admin');
    const all = seedIds((m) => m.type === 10);
    expect(all).toHaveLength(80);
    const seen: number[] = [];
    for (const page of [1, 2, 3, 4]) {
      const p = await list(cookie, { productType: 10, page });
      expect(p).toMatchObject({ total: 80, page, pageSize: 20 });
      expect(p.meals).toHaveLength(20);
      expect(p.meals.every((m) => m.productType === 10)).toBe(true);
      seen.push(...p.meals.map((m) => m.id));
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(all);
    // Display order: 按量 before 包天, then the seed's sort.
    expect(seen.slice(0, 20).every((id) => seedIds((m) => m.type === 10 && m.billing === 1).includes(id))).toBe(true);
    const past = await list(cookie, { productType: 10, page: 5 });
    expect(past.meals).toEqual([]);
    expect(past.total).toBe(80);

    const first = await list(cookie, { productType: 10 });
    expect(first.counts.reduce((n, c) => n + c.n, 0)).toBe(80);
    expect(first.counts).toContainEqual({ billingMethod: 1, ipDurationMinutes: 3, state: 1, n: 4 });
    expect(first.counts).toContainEqual({ billingMethod: 2, ipDurationMinutes: 30, state: 1, n: 12 });
    expect(first.mealChoices.map((m) => m.id).sort((a, b) => a - b)).toEqual(all);
    // The live 15 % activity on 短效 按量 is in the price the list shows.
    const meal = first.meals[0] as ListMeal;
    expect(meal.billingMethod).toBe(1);
    expect(meal.payFen).toBe(meal.priceFen - Math.floor((meal.priceFen * 15) / 100));
  });

  it('filters by billing method, IP duration and state; a withdrawn meal comes last and leaves the choices', async () => {
    const admin = await operatorLogin('admin');
    const byCount = await list(admin.cookie, { productType: 10, billingMethod: 1 });
    expect(byCount.total).toBe(20);
    expect(byCount.meals.map((m) => m.id).sort((a, b) => a - b)).toEqual(
      seedIds((m) => m.type === 10 && m.billing === 1),
    );
    const daily5 = await list(admin.cookie, { productType: 10, billingMethod: 2, ipDurationMinutes: 5 });
    expect(daily5.total).toBe(12);
    expect(daily5.meals.map((m) => m.id).sort((a, b) => a - b)).toEqual(
      seedIds((m) => m.type === 10 && m.billing === 2 && m.minutes === 5),
    );
    const fixed = await list(admin.cookie, { productType: 30, billingMethod: 2, ipDurationMinutes: 0 });
    expect(fixed.meals.map((m) => m.id).sort((a, b) => a - b)).toEqual(seedIds((m) => m.type === 30));

    const withdrawn = 101_010;
    const off = await callApi(
      'Admin.CatalogueSetState',
      { kind: 'meal', id: withdrawn, state: 2, reason: '暂停销售' },
      { cookie: admin.cookie },
    );
    expect(off.body.P).toEqual({ state: 2 });
    const onlyOff = await list(admin.cookie, { productType: 10, state: 2 });
    expect(onlyOff.total).toBe(1);
    expect(onlyOff.meals.map((m) => m.id)).toEqual([withdrawn]);
    expect((await list(admin.cookie, { productType: 10, state: 1 })).total).toBe(79);
    const last = await list(admin.cookie, { productType: 10, page: 4 });
    expect(last.meals.at(-1)?.id).toBe(withdrawn);
    expect(last.counts).toContainEqual({ billingMethod: 1, ipDurationMinutes: 3, state: 2, n: 1 });
    expect(last.mealChoices.map((m) => m.id)).not.toContain(withdrawn);
    expect(last.mealChoices).toHaveLength(79);
  });

  it('returns the meal being edited whatever page it is on, and none of another type', async () => {
    const { cookie } = await operatorLogin('admin');
    const daily = seedIds((m) => m.type === 10 && m.billing === 2).at(-1) ?? 0;
    const p = await list(cookie, { productType: 10, billingMethod: 1, mealId: daily });
    expect(p.meals.map((m) => m.id)).not.toContain(daily);
    expect(p.meal).toMatchObject({ id: daily, productType: 10, billingMethod: 2, state: 1 });
    expect(p.meal?.payFen).toBeGreaterThan(0);
    expect((await list(cookie, { productType: 40, mealId: daily })).meal).toBeNull();
    expect((await list(cookie, { productType: 10, mealId: 999_999 })).meal).toBeNull();
  });

  it('refuses a bad filter or page in Chinese', async () => {
    const { cookie } = await operatorLogin('admin');
    for (const [bad, message] of [
      [{ page: 0 }, '页码无效'],
      [{ page: 1.5 }, '页码无效'],
      [{ page: '2' }, '页码无效'],
      [{ billingMethod: 3 }, '计费方式须为0（全部）、1（按量）或2（包天）'],
      [{ state: 9 }, '状态须为0（全部）、1（在售）或2（已下架）'],
      [{ ipDurationMinutes: -1 }, 'IP时长（分钟）须为0-1440的整数'],
      [{ ipDurationMinutes: 7 }, 'IP时长须从该产品的可选时长中选择'],
      [{ productType: 30, billingMethod: 1 }, '该产品不支持此计费方式（固定IP与优质IP按天计费）'],
      [{ productType: 30, ipDurationMinutes: 5 }, 'IP时长须从该产品的可选时长中选择'],
      [{ mealId: 0 }, '请选择要修改的项目'],
      [{ productType: 20 }, '产品类型必须是 10、40、30 或 50'],
    ] as const) {
      const res = await callApiUntyped('Admin.CatalogueList', { productType: 10, ...bad }, { cookie });
      expect(res.body.E, JSON.stringify(bad)).toBe(message);
      expect(res.body.P, JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('finance reads a filtered page; support, content and ops are refused', async () => {
    const input: ActionInput<'Admin.CatalogueList'> = {
      productType: 10,
      billingMethod: 2,
      ipDurationMinutes: 10,
      state: 1,
      page: 1,
    };
    const finance = await operatorLogin('finance');
    expect((await list(finance.cookie, input)).total).toBe(12);
    for (const role of ['support', 'content', 'ops'] as const) {
      const { cookie } = await operatorLogin(role);
      const res = await callApi('Admin.CatalogueList', input, { cookie });
      expect(res.status, role).toBe(403);
      expect(res.body.P, role).toBeUndefined();
    }
  });
});
