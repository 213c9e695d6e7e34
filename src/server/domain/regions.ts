// The hot regions the pool covers (seed section 9: 20 hot cities) and name matching for region filters.

export interface HotCity {
  province: string;
  city: string;
}

/** The 20 hot cities shown on the region pages and seeded into the development pool. */
export const HOT_CITIES: readonly HotCity[] = [
  { province: '北京市', city: '北京市' },
  { province: '上海市', city: '上海市' },
  { province: '广东省', city: '广州市' },
  { province: '广东省', city: '深圳市' },
  { province: '浙江省', city: '杭州市' },
  { province: '四川省', city: '成都市' },
  { province: '重庆市', city: '重庆市' },
  { province: '湖北省', city: '武汉市' },
  { province: '陕西省', city: '西安市' },
  { province: '江苏省', city: '南京市' },
  { province: '天津市', city: '天津市' },
  { province: '江苏省', city: '苏州市' },
  { province: '湖南省', city: '长沙市' },
  { province: '河南省', city: '郑州市' },
  { province: '广东省', city: '东莞市' },
  { province: '山东省', city: '青岛市' },
  { province: '安徽省', city: '合肥市' },
  { province: '广东省', city: '佛山市' },
  { province: '浙江省', city: '宁波市' },
  { province: '福建省', city: '厦门市' },
];

export const CARRIERS = ['电信', '联通', '移动'] as const;
export type Carrier = (typeof CARRIERS)[number];

const SUFFIXES = [
  '维吾尔自治区',
  '壮族自治区',
  '回族自治区',
  '特别行政区',
  '自治区',
  '自治州',
  '省',
  '市',
  '地区',
  '盟',
];

/** A province or city name without its administrative suffix: 广东省 -> 广东, 深圳市 -> 深圳, 深圳 -> 深圳. */
export function regionKey(name: string): string {
  const trimmed = name.trim();
  for (const s of SUFFIXES) {
    if (trimmed.length > s.length + 1 && trimmed.endsWith(s)) return trimmed.slice(0, -s.length);
  }
  return trimmed;
}

/** The display text of a region: 广东省深圳市; a municipality once (北京市). */
export function regionText(province: string, city: string): string {
  return province === city ? province : `${province}${city}`;
}
