// The personal centre's menu. An entry appears once its page exists (`ready`), so the menu never leads to a 404.

/** Where 去认证 leads: the personal verification form itself, not the status page one click before it. */
export const REAL_NAME_FORM = '/personalCenter/realNameAuth/auth?tab=personal';

export interface PcNavItem {
  label: string;
  href: string;
  ready: boolean;
  /** Also listed in the header's account menu (desktop dropdown and mobile account drawer). */
  inAccountMenu?: boolean;
}

export interface PcNavGroup {
  title: string;
  items: PcNavItem[];
}

export const PC_NAV: PcNavGroup[] = [
  { title: '总览', items: [{ label: '个人中心', href: '/personalCenter', ready: true, inAccountMenu: true }] },
  {
    title: '产品管理',
    items: [
      { label: '购买套餐', href: '/personalCenter/buy?type=10&tab=1', ready: true, inAccountMenu: true },
      { label: '短效套餐', href: '/personalCenter/packageManager/10', ready: true },
      { label: '长效套餐', href: '/personalCenter/packageManager/40', ready: true },
      { label: '长效IP管理', href: '/personalCenter/ipManager/30', ready: true },
    ],
  },
  {
    title: '获取代理',
    items: [
      { label: 'API提取', href: '/personalCenter/getAgent/api?type=10', ready: true, inAccountMenu: true },
      { label: '白名单', href: '/personalCenter/getAgent/whiteList', ready: true, inAccountMenu: true },
      { label: '提取记录', href: '/personalCenter/getAgent/record', ready: true, inAccountMenu: true },
      { label: '带宽统计', href: '/personalCenter/getAgent/bandwidth', ready: true },
    ],
  },
  {
    title: '财务',
    items: [
      { label: '订单管理', href: '/personalCenter/orderManager', ready: true, inAccountMenu: true },
      { label: '账户余额', href: '/personalCenter/balance', ready: true, inAccountMenu: true },
      { label: '优惠券', href: '/personalCenter/couponManager', ready: true, inAccountMenu: true },
      { label: '发票管理', href: '/personalCenter/invoice', ready: true },
      { label: '推广返利', href: '/personalCenter/promotionRebate', ready: true },
    ],
  },
  {
    title: '账户',
    items: [
      { label: '实名认证', href: '/personalCenter/realNameAuth', ready: true, inAccountMenu: true },
      { label: '账户设置', href: '/personalCenter/countManage', ready: true, inAccountMenu: true },
    ],
  },
];

/** The menu with only the pages that exist. */
export const readyNav = (): PcNavGroup[] =>
  PC_NAV.map((g) => ({ ...g, items: g.items.filter((i) => i.ready) })).filter((g) => g.items.length > 0);

/** The personal-centre pages the account menu lists, in menu order. */
export const accountMenuLinks = (): PcNavItem[] =>
  readyNav()
    .flatMap((g) => g.items)
    .filter((i) => i.inAccountMenu);
