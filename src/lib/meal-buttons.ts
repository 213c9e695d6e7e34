// The account panel's package rows (Proxy.GetMealCount) and the seed's button rules for each row.

export const MEAL_ROWS = [
  { key: 'shortDynamicsNum', label: '短效动态 · 按量', kind: 'count', type: 10 },
  { key: 'shortDynamicsDate', label: '短效动态 · 包天', kind: 'time', type: 10 },
  { key: 'longDynamicsNum', label: '长效静态 · 按量', kind: 'count', type: 40 },
  { key: 'longDynamicsDate', label: '长效静态 · 包天', kind: 'time', type: 40 },
  { key: 'fixed', label: '固定IP', kind: 'fixed', type: 30 },
] as const;

export type MealRowKey = (typeof MEAL_ROWS)[number]['key'];
export type MealRowKind = (typeof MEAL_ROWS)[number]['kind'];

/** One row: num (IPs left, or fixed IPs held), state (live packages of the row), value (display text). */
export interface MealCount {
  num: number;
  state: number;
  value: string;
}

export type MealCounts = Record<MealRowKey, MealCount>;

export interface MealButton {
  text: '去购买' | '去提取' | '去补量' | '去查看';
  href: string;
}

/**
 * Seed section 4: count rows 去购买 at 0 else 去提取; time rows 去提取 above 0, 去购买 at 0 with state 0, else 去补量;
 * fixed 去查看 when it has IPs, else 去购买.
 */
export function mealButton(kind: MealRowKind, type: number, row: Pick<MealCount, 'num' | 'state'>): MealButton {
  const buy = { text: '去购买', href: `/buy?type=${type}` } as const;
  const extract = { text: '去提取', href: `/personalCenter/getAgent/api?type=${type}&proxyType=1` } as const;
  if (kind === 'count') return row.num === 0 ? buy : extract;
  if (kind === 'fixed') return row.num > 0 ? { text: '去查看', href: `/personalCenter/ipManager/${type}` } : buy;
  if (row.num > 0) return extract;
  return row.state === 0 ? buy : { text: '去补量', href: `/personalCenter/buy?type=${type}&tab=2` };
}
