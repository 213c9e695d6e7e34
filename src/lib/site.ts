// Site-wide facts shown in the shell: brand, contacts, filings and the navigation. Content pages come from D1.

export const SITE = {
  name: '云枢代理',
  slogan: '企业级高匿代理IP服务平台',
  hotline: '400-820-6688',
  businessPhone: '138-0013-8000',
  email: 'service@example-proxy.cn',
  businessWechat: 'yunshu-proxy',
  /** The QR code of the business WeChat, as an image (src/edge/routes/qr.ts). */
  businessWechatQr: '/qr/business-wechat.svg',
  icp: '沪ICP备2026000000号-1',
  police: '沪公网安备 31010402000000号',
  operatorLicence: '增值电信业务经营许可证：B1-20260000',
  companyName: '上海云枢网络科技有限公司',
  overseasDynamicUrl: 'https://global.example-proxy.com',
  overseasStaticUrl: 'https://static.example-proxy.com',
  /** The external site-operator convention page (spec: external links). */
  operatorConventionUrl: 'https://www.example-proxy.com/operator-convention',
} as const;

/** The one title rule: "{page} - 云枢代理" (a title that already names the site is kept as it is). */
export const pageTitle = (title: string): string => (title.includes(SITE.name) ? title : `${title} - ${SITE.name}`);

export { GET_PROXY_LINKS, HELP_LINKS, type NavLink, PRODUCT_LINKS, SCENARIOS } from './site-links';

/** Pages whose hero sits under a transparent header (seed: "home-like pages"). */
export const isHomeLikePath = (path: string): boolean =>
  path === '/' || path.startsWith('/businessScen/') || HERO_PATHS.has(path);

/** Further public pages that open with a dark hero under the transparent header. */
const HERO_PATHS = new Set(['/firmsServer', '/rebate', '/region', '/demo']);
