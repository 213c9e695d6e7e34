// Site-wide facts shown in the shell: brand, contacts, filings and the navigation. Content pages come from D1.

export const SITE = {
  name: '云枢代理',
  slogan: '企业级高匿代理IP服务平台',
  hotline: '400-820-6688',
  businessPhone: '138-0013-8000',
  email: 'service@example-proxy.cn',
  businessWechat: 'yunshu-proxy',
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

export interface NavLink {
  label: string;
  href: string;
  desc?: string;
}

export const PRODUCT_LINKS: NavLink[] = [
  { label: '短效动态IP', href: '/buy?type=10', desc: '3-30分钟有效，按量或包天计费' },
  { label: '长效静态IP', href: '/buy?type=40', desc: '1-24小时有效，稳定不掉线' },
  { label: '固定IP', href: '/buy?type=30', desc: '独享固定出口，按月使用' },
  { label: '优质IP', href: '/buy?type=50', desc: '企业定制与精选线路' },
];

export const GET_PROXY_LINKS: NavLink[] = [
  { label: '短效代理提取', href: '/getProxy/10', desc: '生成API链接，批量提取' },
  { label: '长效代理提取', href: '/getProxy/40', desc: '长效静态IP提取与管理' },
  { label: 'API文档', href: '/getProxy/10#api', desc: '参数、返回格式与错误码' },
  { label: '代码示例', href: '/getProxy/10#code', desc: '8种语言接入示例下载' },
];

export const HELP_LINKS: NavLink[] = [
  { label: '帮助中心', href: '/help', desc: '使用教程与常见问题' },
  { label: '热门地区', href: '/region', desc: '300+城市节点' },
  { label: '企业服务', href: '/firmsServer', desc: '定制方案与专属客服' },
  { label: '推广返利', href: '/rebate', desc: '邀请好友赚取佣金' },
];

export const SCENARIOS: { type: string; label: string; desc: string }[] = [
  { type: 'dataCrawl', label: '数据采集', desc: '海量IP轮换，稳定抓取公开数据' },
  { type: 'adVerification', label: '广告验证', desc: '多地区真实视角核验投放' },
  { type: 'marketResearch', label: '市场调研', desc: '跨区域获取一手市场信息' },
  { type: 'seoOptimization', label: 'SEO优化', desc: '多地排名监测与收录检查' },
  { type: 'mediaMatrix', label: '新媒体矩阵', desc: '多账号运营的独立网络环境' },
  { type: 'priceMonitoring', label: '价格监控', desc: '电商价格与库存实时追踪' },
  { type: 'financialData', label: '金融数据', desc: '行情与公告数据稳定获取' },
  { type: 'websiteTesting', label: '网站测试', desc: '多地访问速度与可用性测试' },
];

/** Pages whose hero sits under a transparent header (seed: "home-like pages"). */
export const isHomeLikePath = (path: string): boolean =>
  path === '/' || path.startsWith('/businessScen/') || HERO_PATHS.has(path);

/** Further public pages that open with a dark hero under the transparent header. */
const HERO_PATHS = new Set(['/firmsServer', '/rebate', '/region', '/demo']);
