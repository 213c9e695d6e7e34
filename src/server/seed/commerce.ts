// Demo catalogue for local development and tests: meals of the four product types with stable ids, activities,
// sale regions and coupons, plus one coupon for the verified demo user. Idempotent SQL.
import { IP_DURATIONS } from '../../lib/catalogue-rules';
import { durationLabel, periodLabel } from '../../lib/commerce';
import { regionKey } from '../domain/regions';
import { DAY_MS } from '../../lib/time';
import { col, countOf, insert, notExists, type Row, update } from './sql';
import { USER_COUPON_STATE } from '../../lib/coupon-states';

const FOREVER = 4_102_444_800_000; // 2100-01-01

interface MealSeed {
  id: number;
  type: number;
  billing: number;
  name: string;
  minutes: number;
  size: number;
  days: number;
  price: number;
  overseas?: boolean;
}

/** Price rounded to whole jiao (10 fen) so list prices look like prices. */
const jiao = (fen: number) => Math.max(10, Math.round(fen / 10) * 10);

function extractableMeals(type: 10 | 40): MealSeed[] {
  const label = type === 10 ? '短效动态IP' : '长效静态IP';
  const minutes = IP_DURATIONS[type] ?? [];
  const perKCount = type === 10 ? [100, 150, 250, 350, 500] : [800, 1500, 2500, 3500, 6000];
  const perKDaily = type === 10 ? [150, 200, 300, 400, 600] : [1000, 1800, 3000, 4000, 7000];
  const countSizes = type === 10 ? [10_000, 50_000, 200_000, 1_000_000] : [1000, 5000, 20_000];
  const dailySizes = type === 10 ? [1000, 5000, 20_000] : [200, 1000, 5000];
  const volume = [100, 95, 90, 85];
  const periods = [1, 7, 30, 90];
  const periodFactor = [100, 90, 80, 75];
  const out: MealSeed[] = [];
  minutes.forEach((m, d) => {
    countSizes.forEach((size, s) => {
      out.push({
        id: type * 10_000 + 1000 + d * 100 + s * 10,
        type,
        billing: 1,
        name: `${label} 按量 ${size}个 · ${durationLabel(m)}`,
        minutes: m,
        size,
        days: 365,
        price: jiao(((perKCount[d] ?? 0) * size * (volume[s] ?? 100)) / 1000 / 100),
      });
    });
    dailySizes.forEach((size, s) => {
      periods.forEach((days, p) => {
        out.push({
          id: type * 10_000 + 2000 + d * 100 + s * 10 + p,
          type,
          billing: 2,
          name: `${label} 包天 ${size}个/天 · ${durationLabel(m)} · ${periodLabel(days)}`,
          minutes: m,
          size,
          days,
          price: jiao(((perKDaily[d] ?? 0) * size * days * (periodFactor[p] ?? 100)) / 1000 / 100),
        });
      });
    });
  });
  return out;
}

const DEDICATED: MealSeed[] = [
  ...[
    [7, 2000],
    [30, 6000],
    [90, 16_800],
    [180, 31_800],
    [365, 59_800],
  ].map(([days, price], i) => ({
    id: 302_000 + i,
    type: 30,
    billing: 2,
    name: `固定IP · ${periodLabel(days ?? 0)}`,
    minutes: 0,
    size: 1,
    days: days ?? 0,
    price: price ?? 0,
  })),
  ...[
    [30, 15_000],
    [90, 42_000],
    [180, 80_000],
    [365, 150_000],
  ].map(([days, price], i) => ({
    id: 502_000 + i,
    type: 50,
    billing: 2,
    name: `优质IP · 企业精选 · ${periodLabel(days ?? 0)}`,
    minutes: 0,
    size: 1,
    days: days ?? 0,
    price: price ?? 0,
  })),
  ...[
    [30, 9900],
    [90, 26_900],
    [365, 99_000],
  ].map(([days, price], i) => ({
    id: 502_100 + i,
    type: 50,
    billing: 2,
    name: `优质IP · 海外精选 · ${periodLabel(days ?? 0)}`,
    minutes: 0,
    size: 1,
    days: days ?? 0,
    price: price ?? 0,
    overseas: true,
  })),
];

/** Every demo meal (exported for tests that need a known price). */
export const DEMO_MEALS: MealSeed[] = [...extractableMeals(10), ...extractableMeals(40), ...DEDICATED];

const ACTIVITIES = [
  { id: 1, name: '短效按量限时折扣', type: 10, billing: 1, discount: 15, bonus: 0 },
  { id: 2, name: '短效包天赠量', type: 10, billing: 2, discount: 0, bonus: 20 },
  { id: 3, name: '长效静态IP特惠', type: 40, billing: 0, discount: 10, bonus: 0 },
  { id: 4, name: '固定IP长租优惠', type: 30, billing: 0, discount: 5, bonus: 0 },
];

const CITIES = [
  ['北京', '北京'],
  ['上海', '上海'],
  ['广州', '广东'],
  ['深圳', '广东'],
  ['杭州', '浙江'],
  ['成都', '四川'],
  ['重庆', '重庆'],
  ['武汉', '湖北'],
  ['西安', '陕西'],
  ['南京', '江苏'],
  ['天津', '天津'],
  ['苏州', '江苏'],
  ['长沙', '湖南'],
  ['郑州', '河南'],
  ['青岛', '山东'],
  ['厦门', '福建'],
  ['福州', '福建'],
  ['合肥', '安徽'],
  ['济南', '山东'],
  ['沈阳', '辽宁'],
];
const OVERSEAS = ['中国香港', '日本东京', '新加坡', '美国洛杉矶', '德国法兰克福', '英国伦敦'];

export const DEMO_COUPONS = [
  { id: 1, name: '新人专享券', kind: 1, value: 500, threshold: 1000, types: '10,40', days: 30, limit: 1 },
  { id: 2, name: '全场9折券', kind: 2, value: 10, threshold: 5000, types: '', days: 15, limit: 2 },
  { id: 3, name: '固定IP立减20元', kind: 1, value: 2000, threshold: 10_000, types: '30,50', days: 30, limit: 1 },
];

/** Seeded catalogue rows are inserted once: operators' edits of them stay. */
const once = { onConflict: { columns: ['id'], doNothing: true } } as const;

/** The demo catalogue (meals, activities, regions, coupons), one statement each, without any row about customers. */
export function demoCatalogueStatements(): string[] {
  return [
    ...insert(
      'meals',
      DEMO_MEALS.map(
        (m, i): Row<'meals'> => ({
          id: m.id,
          product_type: m.type,
          billing_method: m.billing,
          name: m.name,
          ip_duration_minutes: m.minutes,
          size: m.size,
          period_days: m.days,
          price_fen: m.price,
          is_overseas: m.overseas === true,
          sort: i,
        }),
      ),
      once,
    ),
    ...insert(
      'activities',
      ACTIVITIES.map(
        (a): Row<'activities'> => ({
          id: a.id,
          name: a.name,
          product_type: a.type,
          billing_method: a.billing,
          discount_percent: a.discount,
          bonus_percent: a.bonus,
          starts_at: 0,
          ends_at: FOREVER,
        }),
      ),
      once,
    ),
    ...insert(
      'meal_regions',
      CITIES.map(
        ([name = '', province = ''], i): Row<'meal_regions'> => ({
          id: i + 1,
          name,
          province,
          province_key: regionKey(province),
          city_key: regionKey(name),
          product_types: '30,50',
          is_overseas: false,
          sort: i,
        }),
      ),
      once,
    ),
    ...insert(
      'meal_regions',
      OVERSEAS.map(
        (name, i): Row<'meal_regions'> => ({
          id: 101 + i,
          name,
          province: '海外',
          product_types: '50',
          is_overseas: true,
          sort: 100 + i,
        }),
      ),
      once,
    ),
    ...insert(
      'coupons',
      DEMO_COUPONS.map(
        (c): Row<'coupons'> => ({
          id: c.id,
          name: c.name,
          kind: c.kind,
          value: c.value,
          threshold_fen: c.threshold,
          product_types: c.types,
          valid_days: c.days,
          per_user_limit: c.limit,
          starts_at: 0,
          ends_at: FOREVER,
        }),
      ),
      once,
    ),
  ];
}

/** SQL that loads the demo catalogue and coupons, and a coupon for the verified demo user (idempotent). */
export function demoCommerceSql(now: number): string {
  const userId = col('users', 'id');
  return [
    ...demoCatalogueStatements(),
    ...insert(
      'user_coupons',
      [
        {
          user_id: userId,
          coupon_id: 1,
          state: USER_COUPON_STATE.unused,
          valid_from: now,
          expires_at: now + 30 * DAY_MS,
          received_at: now,
        },
      ],
      {
        select: {
          from: 'users',
          where: [{ phone: '13800138000' }, notExists('user_coupons', { user_id: userId, coupon_id: 1 })],
        },
      },
    ),
    recountIssuedCoupons(),
  ].join('\n');
}

/** Each coupon's `issued` set to the coupons users hold (after seeding user coupons). */
export function recountIssuedCoupons(): string {
  return update('coupons', { issued: countOf('user_coupons', { coupon_id: col('coupons', 'id') }) });
}
