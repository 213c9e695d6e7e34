// What each business-scenario page says: the problem, how proxies help, the recommended setup and questions buyers ask.

export interface ScenarioContent {
  title: string;
  lead: string;
  pains: { title: string; text: string }[];
  solution: string[];
  /** The recommended product and how to use it: extraction parameters (shown as a GET /extract call) or, for
   * products that are allocated rather than extracted (fixed IPs), the steps in the personal centre. */
  setup: { product: string; href: string } & ({ params: string } | { steps: string[] });
  faqs: { q: string; a: string }[];
  articles: { label: string; href: string }[];
}

const PY = { label: 'Python requests 使用代理', href: '/helpDetails/python-requests-proxy.html' };
const PARAMS = { label: '提取参数详解', href: '/helpDetails/extract-parameters.html' };
const TTL = { label: 'min_ttl 参数：只提取剩余寿命足够的IP', href: '/helpDetails/min-ttl-usage.html' };
const DEDUP = { label: '去重策略：不去重、当日去重与排除使用中', href: '/helpDetails/dedup-strategy.html' };
const CHOOSE = { label: '短效动态IP与长效静态IP如何选择', href: '/helpDetails/short-vs-long-ip.html' };
const BROWSER = { label: 'Selenium 与 Playwright 配置代理', href: '/helpDetails/selenium-playwright-proxy.html' };

export const SCENARIO_CONTENT: Record<string, ScenarioContent> = {
  dataCrawl: {
    title: '数据采集代理IP解决方案',
    lead: '大规模采集公开数据时，单一出口很快会被限速或封禁。海量IP轮换 + 合理的并发与重试策略，让采集任务稳定跑完。',
    pains: [
      { title: '频繁触发限流', text: '同一IP短时间大量请求，目标站点返回 429 或验证码，任务被迫中断。' },
      { title: '代理质量参差', text: '免费或劣质代理延迟高、存活短，重试成本远高于代理本身。' },
      { title: '接入维护麻烦', text: '账号密码认证、IP过期处理、失败重试，每个项目都要重写一遍。' },
    ],
    solution: [
      '短效动态IP池覆盖全国300+城市，每次提取即得新出口，单次最多200个。',
      '当日去重（dedup=1）保证同一天内不会拿到重复IP，降低关联风险。',
      'min_ttl 只返回剩余寿命足够的IP，长页面抓取不中途断线。',
      '白名单认证免账号密码，Scrapy、requests、Playwright 均一行配置接入。',
    ],
    setup: {
      product: '短效动态IP · 按量计费 · 5分钟',
      href: '/buy?type=10',
      params: 'num=50&format=json&dedup=1&min_ttl=60',
    },
    faqs: [
      {
        q: '并发多少合适？',
        a: '建议每个代理同时只跑1个连接，并发数与提取数量保持一致；遇到 1005 频率限制时增大单次 num，而不是提高调用频率。',
      },
      {
        q: '采集的数据合法吗？',
        a: '仅可采集公开、允许访问的数据，遵守目标网站的 robots 协议与服务条款，不得采集个人隐私信息或绕过访问控制。',
      },
    ],
    articles: [{ label: 'Scrapy 下载中间件接入代理', href: '/helpDetails/scrapy-proxy-middleware.html' }, PY, DEDUP],
  },
  adVerification: {
    title: '广告验证代理IP解决方案',
    lead: '广告在不同城市、不同运营商网络下的展示是否正确？用当地真实出口核验投放，发现地域定向错误与违规素材。',
    pains: [
      { title: '只能看到本地效果', text: '投放团队在一个城市，无法确认其他地区用户看到的广告内容。' },
      { title: '流量作弊难发现', text: '渠道虚报展示与点击，缺少独立的第三方视角核验。' },
      { title: '运营商差异', text: '同一城市不同运营商的落地页加载和跳转链路可能不同。' },
    ],
    solution: [
      '按省份、城市与运营商精确提取（region、carrier 参数），模拟目标受众的真实网络。',
      '长效静态IP保持同一出口 1-24 小时，完整走完曝光、点击、落地页链路。',
      '配合 Playwright 截图留证，自动比对各地区素材与落地页。',
    ],
    setup: {
      product: '长效静态IP · 按量计费 · 1小时',
      href: '/buy?type=40',
      params: 'type=40&num=10&region=广东省&carrier=电信&format=json',
    },
    faqs: [
      {
        q: '可以指定到区县吗？',
        a: '提取接口支持省级与城市级筛选；需要更细粒度的地区覆盖，可通过企业服务定制专属IP池。',
      },
      { q: '一次核验需要多少IP？', a: '通常每个“城市 × 运营商”组合 1-2 个长效IP即可完成一轮核验。' },
    ],
    articles: [PARAMS, BROWSER, CHOOSE],
  },
  marketResearch: {
    title: '市场调研代理IP解决方案',
    lead: '跨区域收集商品、服务与舆情的公开信息，获取不受地域限制的一手资料，支持决策。',
    pains: [
      { title: '地域内容差异', text: '电商、本地生活平台按地区展示不同的商品、价格与排序。' },
      { title: '样本覆盖不足', text: '只从公司网络访问，样本集中在少数城市，结论偏差大。' },
      { title: '周期性任务', text: '每周、每月重复调研，需要稳定可复现的采集环境。' },
    ],
    solution: [
      '300+城市节点按需组合，构建覆盖全国的调研样本。',
      '包天计费套餐适合周期性任务，在有效期内每天按额度提取。',
      'JSON 返回附带地区与运营商字段（fields=region,carrier），样本来源可追溯。',
    ],
    setup: {
      product: '短效动态IP · 包天计费 · 10分钟',
      href: '/buy?type=10',
      params: 'num=20&fields=region,carrier&format=json',
    },
    faqs: [
      {
        q: '按量还是包天更划算？',
        a: '每日用量稳定的周期任务选包天计费；用量波动大、偶尔使用选按量计费。详见帮助中心的计费说明。',
      },
      {
        q: '能否导出地区分布？',
        a: '提取记录中可查看每次调用的时间与结果，配合 fields=region 可在本地统计样本的地区分布。',
      },
    ],
    articles: [{ label: '按量计费与包天计费的区别', href: '/helpDetails/count-vs-time-billing.html' }, PARAMS, PY],
  },
  seoOptimization: {
    title: 'SEO优化代理IP解决方案',
    lead: '搜索结果因地区而异。在多个城市监测关键词排名、收录与竞品变化，让 SEO 决策基于真实数据。',
    pains: [
      { title: '排名因地而异', text: '同一关键词在北京与广州的排名可能相差数页。' },
      { title: '查询量大被限制', text: '大量关键词批量查询时，单一出口很快被要求验证。' },
      { title: '结果不可复现', text: '缺少固定的监测环境，前后数据无法对比。' },
    ],
    solution: [
      '按城市提取出口，在目标市场的真实网络环境中查询排名。',
      '短效IP轮换分散查询压力，配合合理间隔避免触发验证。',
      '固定IP用于长期基线监测，保证前后数据口径一致。',
    ],
    setup: {
      product: '短效动态IP · 按量计费 · 3分钟',
      href: '/buy?type=10',
      params: 'num=10&region=北京市,上海市,广州市&dedup=1',
    },
    faqs: [
      {
        q: '会影响网站的搜索排名吗？',
        a: '代理只用于查询与监测公开结果。请勿用于刷点击、刷排名等作弊行为，这违反搜索引擎规则和用户协议。',
      },
      { q: '查询频率多少合适？', a: '建议同一出口每分钟不超过数次查询，并在请求之间加入随机间隔。' },
    ],
    articles: [
      PARAMS,
      DEDUP,
      { label: '代理IP的典型业务场景与产品搭配', href: '/helpDetails/business-scenarios.html' },
    ],
  },
  mediaMatrix: {
    title: '新媒体矩阵代理IP解决方案',
    lead: '运营多个品牌账号时，为每个账号提供独立、稳定的网络环境，避免账号之间的网络关联。',
    pains: [
      { title: '账号关联风险', text: '多个账号在同一网络登录，平台可能判定为关联账号。' },
      { title: '出口频繁变化', text: '账号登录地频繁跳变会触发安全验证。' },
      { title: '团队协作', text: '多名运营人员分布在不同地点，需要统一管理出口。' },
    ],
    solution: [
      '固定IP一账号一出口，长期稳定，登录地保持一致。',
      '长效静态IP适合短期活动账号，1-24小时内出口不变。',
      '白名单统一管理团队设备，员工离职时一键停用。',
    ],
    setup: {
      product: '固定IP · 按月',
      href: '/buy?type=30',
      steps: [
        '按账号数量购买固定IP，每个账号对应一个独享出口。',
        '在个人中心“长效IP管理”查看每个固定IP的地址与端口，用备注记下对应的账号。',
        '在“白名单”中添加运营设备的公网IP。',
        '在浏览器或运营工具中为每个账号配置对应的固定IP（ip:端口）。',
      ],
    },
    faqs: [
      {
        q: '一个固定IP可以登录几个账号？',
        a: '建议一个固定IP只对应同一平台的一个账号，并遵守各平台关于多账号运营的规则。',
      },
      {
        q: '可以用来批量注册账号吗？',
        a: '不可以。批量注册、养号、刷量等行为违反平台规则和我们的用户协议，一经发现将停止服务。',
      },
    ],
    articles: [
      { label: '固定IP与优质/企业定制IP介绍', href: '/helpDetails/fixed-and-enterprise-ip.html' },
      { label: '如何添加白名单与查看当前IP', href: '/helpDetails/add-whitelist.html' },
      CHOOSE,
    ],
  },
  priceMonitoring: {
    title: '价格监控代理IP解决方案',
    lead: '实时追踪电商平台的价格、库存与促销变化。高频、多地区的公开数据采集，需要稳定的代理出口。',
    pains: [
      { title: '价格按地区展示', text: '运费、库存与到手价按收货地区不同。' },
      { title: '高频采集被限', text: '每小时多次刷新数万商品，单出口无法承受。' },
      { title: '数据时效性', text: '促销开始的几分钟内就需要发现价格变化。' },
    ],
    solution: [
      '短效动态IP大批量轮换，支撑每小时数十万次的公开页面访问。',
      '排除使用中（dedup=2）避免多个采集进程同时使用同一出口。',
      'min_ttl 与本地代理池配合，保持池中始终有足够寿命的IP。',
    ],
    setup: {
      product: '短效动态IP · 包天计费 · 5分钟',
      href: '/buy?type=10',
      params: 'num=100&dedup=2&min_ttl=90&format=json&fields=ttl',
    },
    faqs: [
      { q: '如何降低成本？', a: '合并同一店铺的商品请求、缓存不常变化的页面，并包天计费套餐锁定每日额度。' },
      { q: '遇到 1007 怎么办？', a: '说明筛选条件过严，依次放宽 min_ttl、去重方式与地区限制后重试。' },
    ],
    articles: [TTL, DEDUP, { label: '提取接口错误码说明', href: '/helpDetails/error-codes.html' }],
  },
  financialData: {
    title: '金融数据代理IP解决方案',
    lead: '稳定获取公开的行情、公告与研报摘要。对时效与连续性要求高的金融数据业务，需要低延迟、不掉线的出口。',
    pains: [
      { title: '连接中断', text: '长连接或分页拉取过程中代理过期，导致数据缺失。' },
      { title: '延迟敏感', text: '行情数据晚几秒就失去价值。' },
      { title: '合规要求', text: '金融机构需要可审计、实名的网络服务供应商。' },
    ],
    solution: [
      '长效静态IP与固定IP提供稳定出口，适合长时间连续拉取。',
      '按城市选择离数据源更近的节点，降低网络延迟。',
      '全部用户实名认证，日志留存不少于6个月，满足合规审计要求。',
    ],
    setup: {
      product: '长效静态IP · 包天计费 · 4小时',
      href: '/buy?type=40',
      params: 'type=40&num=5&region=上海市&min_ttl=3600',
    },
    faqs: [
      { q: '支持对公付款和发票吗？', a: '支持。企业认证后可申请对公转账与增值税发票，详见帮助中心“发票与对公付款”。' },
      { q: '可以获取非公开数据吗？', a: '不可以。只能获取公开披露的信息，禁止绕过登录、付费墙等访问控制。' },
    ],
    articles: [{ label: '发票与对公付款', href: '/helpDetails/invoice-and-corporate-payment.html' }, CHOOSE, TTL],
  },
  websiteTesting: {
    title: '网站测试代理IP解决方案',
    lead: '从全国不同城市和运营商访问自己的网站，测试可用性、加载速度、CDN 调度与地域化内容。',
    pains: [
      { title: '只在办公网测试', text: '上线后才发现某些地区、某家运营商访问缓慢或打不开。' },
      { title: 'CDN 调度难验证', text: '不同地区是否命中了正确的边缘节点，难以确认。' },
      { title: '地域化功能', text: '按地区展示的内容与价格需要在真实环境下验收。' },
    ],
    solution: [
      '按“城市 × 运营商”提取出口，批量跑可用性与测速脚本。',
      '配合 Playwright 或 Selenium 进行端到端测试与截图。',
      '长效静态IP在一次测试会话中保持出口不变，结果可复现。',
    ],
    setup: {
      product: '长效静态IP · 按量计费 · 1小时',
      href: '/buy?type=40',
      params: 'type=40&num=30&carrier=联通&fields=region,carrier',
    },
    faqs: [
      {
        q: '可以做压力测试吗？',
        a: '代理出口带宽有限，不适合做压测；请仅对自己拥有或获授权的网站进行可用性与功能测试。',
      },
      { q: '支持 HTTPS 与 SOCKS5 吗？', a: '支持 HTTP、HTTPS 与 SOCKS5 三种协议，通过 protocol 参数选择。' },
    ],
    articles: [BROWSER, { label: 'Node.js（undici / axios）使用代理', href: '/helpDetails/nodejs-proxy.html' }, PARAMS],
  },
};
