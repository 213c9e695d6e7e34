// Demo content for the help centre (帮助中心) and the site news list, used by the database seed.
// Article bodies are HTML limited to h2 h3 p ul ol li strong em code pre a(href)
// table thead tbody tr th td blockquote br; code samples are HTML-escaped inside <pre><code class="language-…">.
// Examples use documentation addresses (203.0.113.0/24, 198.51.100.0/24) and the host www.example-proxy.cn.
// Category 9 (视频教程) intentionally has no articles, to exercise the "keep categories having articles" rule.

export interface HelpCategorySeed {
  id: number;
  /** 0 使用教程, 2 产品与功能 */
  topCategory: 0 | 2;
  name: string;
  desc: string;
  /** ascii slug, e.g. 'getting-started' */
  url: string;
  sort: number;
}

export interface HelpArticleSeed {
  id: number;
  categoryId: number;
  /** ascii slug, unique across articles and categories */
  url: string;
  title: string;
  summary: string;
  keywords: string[];
  bodyHtml: string;
  isHot: boolean;
  /** shown on the buy page */
  showOnBuy: boolean;
  /** epoch ms */
  publishedAt: number;
  views: number;
}

export interface NewsArticleSeed {
  id: number;
  url: string;
  title: string;
  summary: string;
  bodyHtml: string;
  /** epoch ms */
  publishedAt: number;
}

export const helpCategories: HelpCategorySeed[] = [
  {
    id: 1,
    topCategory: 0,
    name: '新手入门',
    desc: '从注册、实名认证、购买到第一次使用代理，新用户从这里开始。',
    url: 'getting-started',
    sort: 1,
  },
  {
    id: 2,
    topCategory: 0,
    name: 'API提取教程',
    desc: '获取提取链接，掌握提取参数、返回格式、错误码、min_ttl 与去重策略。',
    url: 'api-extraction',
    sort: 2,
  },
  {
    id: 3,
    topCategory: 0,
    name: '白名单与认证方式',
    desc: 'IP白名单的添加、生效与排查，以及API提取密钥的安全使用。',
    url: 'whitelist-and-auth',
    sort: 4,
  },
  {
    id: 4,
    topCategory: 0,
    name: '各语言接入示例',
    desc: 'Python、Node.js、Java、Go、PHP、C#、Scrapy、Selenium/Playwright 接入代理的完整示例。',
    url: 'code-examples',
    sort: 5,
  },
  {
    id: 5,
    topCategory: 0,
    name: '常见问题',
    desc: '连接失败排查、提取记录与带宽统计、使用中的常见疑问。',
    url: 'faq',
    sort: 6,
  },
  {
    id: 6,
    topCategory: 2,
    name: '产品介绍',
    desc: '短效动态IP、长效静态IP、固定IP与优质/企业定制IP的特点和适用场景。',
    url: 'products',
    sort: 1,
  },
  {
    id: 7,
    topCategory: 2,
    name: '计费与套餐',
    desc: '按量与包天计费、续费补量升级、优惠券、发票与对公付款。',
    url: 'billing',
    sort: 2,
  },
  {
    id: 8,
    topCategory: 2,
    name: '账户与实名',
    desc: '实名认证说明、账号安全设置与推广返利规则。',
    url: 'account',
    sort: 3,
  },
  {
    id: 9,
    topCategory: 0,
    name: '视频教程',
    desc: '常用操作的视频演示，正在录制整理中，敬请期待。',
    url: 'video-tutorials',
    sort: 3,
  },
];

export const helpArticles: HelpArticleSeed[] = [
  {
    id: 101,
    categoryId: 1,
    url: 'register-and-verify',
    title: '注册账号与完成实名认证',
    summary: '手机号注册账号，并通过人脸核验完成个人认证或上传营业执照完成企业认证，认证后即可购买代理IP。',
    keywords: ['注册', '实名认证', '个人认证', '企业认证', '人脸核验', '营业执照'],
    bodyHtml: `<h2>一、注册账号</h2>
<ol>
<li>打开官网，点击页面右上角的“注册”按钮，或直接访问 <a href="/login?type=sms">注册页面</a>。</li>
<li>输入本人常用的手机号，点击“获取验证码”，填写收到的短信验证码。</li>
<li>按页面提示设置登录密码，阅读并同意《用户协议》与《隐私政策》后提交，即完成注册并自动登录。</li>
</ol>
<p>如果提交后提示“账号不可用”，说明该手机号暂时无法注册或已被限制使用，请联系在线客服处理。注册完成后，可以在个人中心修改登录密码或更换绑定手机号。</p>
<h2>二、为什么要先完成实名认证</h2>
<p>根据网络服务实名制的相关规定，购买代理IP前必须完成实名认证。未认证的账号可以正常浏览网站和帮助文档，但会看到实名提醒，也无法下单。登录后点击右上角的手机号，账户面板会显示当前的认证状态：<strong>未认证</strong>、<strong>个人已认证</strong> 或 <strong>企业已认证</strong>。</p>
<h2>三、个人实名认证</h2>
<ol>
<li>进入 <a href="/personalCenter/realNameAuth">个人中心 → 实名认证</a>，选择“个人认证”。</li>
<li>填写真实姓名与身份证号码，确认无误后进入下一步。</li>
<li>使用手机扫描页面上的二维码，按提示完成人脸核验。请在光线充足的环境下正对镜头，摘下帽子、口罩和墨镜。</li>
<li>核验通过后回到电脑端页面，状态会更新为“个人已认证”。如果页面没有自动变化，手动刷新一次即可。</li>
</ol>
<h2>四、企业实名认证</h2>
<p>以公司名义采购、需要对公付款或开具企业抬头发票的用户，建议完成企业认证：</p>
<ol>
<li>在实名认证页选择“企业认证”，按页面要求填写企业名称、统一社会信用代码等信息。</li>
<li>上传清晰、完整、在有效期内的营业执照照片，四角需完整可见，不要遮挡或添加水印。</li>
<li>提交后等待人工审核。审核期间账户按个人认证状态使用，审核通过后显示“企业已认证”；如被驳回，按提示修改资料后重新提交。</li>
</ol>
<blockquote>提示：认证信息须与账号的实际使用人一致，请勿使用他人身份信息代为认证。个人信息的收集与使用规则请查看 <a href="/privacyPolicy">《隐私政策》</a>。</blockquote>`,
    isHot: true,
    showOnBuy: true,
    publishedAt: 1767663000000, // 2026-01-06 09:30 (UTC+8)
    views: 18642,
  },
  {
    id: 102,
    categoryId: 1,
    url: 'buy-and-pay',
    title: '如何购买套餐并完成支付',
    summary: '从选择产品、计费方式、IP时长到微信扫码支付的完整下单流程，以及支付中断后如何继续付款。',
    keywords: ['购买', '下单', '微信支付', '扫码支付', '订单管理', '待支付'],
    bodyHtml: `<h2>购买前的准备</h2>
<ul>
<li>已注册并登录账号；</li>
<li>已完成个人或企业实名认证，未认证时无法下单；</li>
<li>手机上已安装微信，目前线上支付方式为微信扫码支付。</li>
</ul>
<h2>选择产品与规格</h2>
<ol>
<li>在顶部导航“产品购买”中选择产品，或直接打开对应的购买页：<a href="/buy?type=10">短效动态IP</a>、<a href="/buy?type=40">长效静态IP</a>、<a href="/buy?type=30">固定IP</a>、<a href="/buy?type=50">优质/企业定制IP</a>。</li>
<li>选择计费方式：按量（购买一定数量的IP）或包天（在有效期内持续提取）。两者的区别见 <a href="/helpDetails/count-vs-time-billing.html">按量计费与包天计费的区别</a>。</li>
<li>选择IP时长：短效动态IP可选 3、5、10、15、30 分钟；长效静态IP可选 1、4、8、12、24 小时。</li>
<li>选择套餐规格和购买数量。规格旁的“折扣”或“赠量”标签表示该规格当前享有的优惠。</li>
<li>如果账户里有可用的优惠券，在结算区域勾选使用，应付金额会同步更新。</li>
</ol>
<h2>微信扫码支付</h2>
<p>确认金额后点击“立即购买”，页面会弹出微信支付二维码。打开微信“扫一扫”完成付款后，页面会自动查询订单状态，显示支付成功即代表套餐已经生效。短效、长效套餐可在 <a href="/personalCenter/packageManager/10">套餐管理</a> 中查看余量和有效期，固定IP在 <a href="/personalCenter/ipManager/30">长效IP管理</a> 中查看。</p>
<h2>支付中断怎么办</h2>
<p>如果不小心关闭了支付弹窗，或二维码已经过期，订单会保留为“待支付”状态，个人中心也会提示待支付订单的数量。进入 <a href="/personalCenter/orderManager">订单管理</a> 找到该订单点击继续支付即可；不再需要的未支付订单可以直接删除。</p>
<p>请不要对同一笔订单重复扫码付款。如果微信已经扣款而订单状态长时间没有更新，请保留微信支付凭证（账单详情中的交易单号）并联系客服核实处理。</p>
<h2>价格与退款</h2>
<p>所有价格以购买页实时显示的金额为准；退款规则按照 <a href="/userAgreement">《用户协议》</a> 的约定执行。</p>`,
    isHot: true,
    showOnBuy: true,
    publishedAt: 1768546020000, // 2026-01-16 14:47 (UTC+8)
    views: 15230,
  },
  {
    id: 103,
    categoryId: 1,
    url: 'quick-start',
    title: '五分钟快速上手：从购买到第一次使用代理',
    summary: '按“实名 → 购买 → 白名单 → 提取 → 使用”五步走，用 curl 完成第一次代理请求。',
    keywords: ['快速入门', '新手', 'curl', '第一次使用', '提取代理'],
    bodyHtml: `<p>本文用最少的步骤带你完成第一次代理请求。示例使用命令行工具 curl，Windows 10 及以上、macOS 和主流 Linux 发行版都已自带。</p>
<h2>第一步：注册并实名</h2>
<p>手机号注册后，在 <a href="/personalCenter/realNameAuth">实名认证</a> 页面完成个人或企业认证，详见 <a href="/helpDetails/register-and-verify.html">注册账号与完成实名认证</a>。</p>
<h2>第二步：购买套餐</h2>
<p>新手建议先购买少量的短效动态IP按量套餐进行测试，熟悉流程后再根据业务量选择规格。</p>
<h2>第三步：添加白名单</h2>
<p>代理采用IP白名单认证：只有白名单中的公网IP才能调用提取接口和使用代理。如果你在本机测试，打开 <a href="/personalCenter/getAgent/whiteList">白名单</a> 页面，把显示的“当前IP”加入即可；如果在服务器上运行，请先在服务器上执行下面的命令查看它的出口IP：</p>
<pre><code class="language-bash">curl https://httpbin.org/ip</code></pre>
<h2>第四步：提取一个代理</h2>
<p>在 <a href="/personalCenter/getAgent/api">API提取</a> 页面复制你的提取链接，或按下面的格式自行拼接（把 YOUR_KEY 换成你的密钥）：</p>
<pre><code class="language-bash">curl "https://www.example-proxy.cn/extract?key=YOUR_KEY&amp;num=1&amp;protocol=http&amp;format=txt&amp;sep=2"
# 返回示例：
# 203.0.113.7:40012</code></pre>
<p>注意地址两边要加引号，否则命令行会把 &amp; 当作后台运行符号。</p>
<h2>第五步：通过代理访问网站</h2>
<pre><code class="language-bash">curl -x http://203.0.113.7:40012 https://httpbin.org/ip</code></pre>
<p>返回结果中的 IP 就是目标网站看到的访问来源。如果返回了内容，恭喜你已经完成了第一次代理请求。</p>
<h2>接下来可以看</h2>
<ul>
<li><a href="/helpDetails/extract-parameters.html">提取参数详解</a>：按地区、运营商筛选，控制去重方式；</li>
<li><a href="/helpDetails/python-requests-proxy.html">Python requests 使用代理</a> 等各语言接入示例；</li>
<li><a href="/helpDetails/proxy-troubleshooting.html">代理连接失败排查指南</a>：遇到问题时按步骤自查。</li>
</ul>`,
    isHot: true,
    showOnBuy: false,
    publishedAt: 1769310240000, // 2026-01-25 11:04 (UTC+8)
    views: 21408,
  },
  {
    id: 104,
    categoryId: 2,
    url: 'get-api-link',
    title: '如何获取API提取链接',
    summary: '在个人中心“API提取”页选择套餐和参数，一键生成并复制提取链接，以及测试和保管链接的注意事项。',
    keywords: ['API提取', '提取链接', 'API密钥', '生成链接', 'key'],
    bodyHtml: `<p>API提取链接是一条带有密钥和参数的 HTTPS 地址，程序请求它就能拿到一批代理IP。生成链接前请确认三件事：账号已完成实名认证、账户中有可用套餐、调用接口的机器公网IP已加入白名单。</p>
<h2>在个人中心生成链接</h2>
<ol>
<li>登录后进入 <a href="/personalCenter/getAgent/api">个人中心 → API提取</a>，也可以从顶部导航“获取代理”进入 <a href="/getProxy/10">短效动态IP</a> 或 <a href="/getProxy/40">长效静态IP</a> 的提取页。</li>
<li>选择产品类型和要扣量的套餐。账户中只有一个可用套餐时会自动选中。</li>
<li>设置提取数量（1～200）、协议（HTTP / HTTPS / SOCKS5）、返回格式（TXT / JSON）、分隔符、地区、运营商、去重方式等参数。</li>
<li>点击“生成链接”，下方会显示完整的提取地址，点击“复制”，提示“复制成功”后即可粘贴到程序中使用。</li>
</ol>
<p>生成的链接形如：</p>
<pre><code class="language-text">https://www.example-proxy.cn/extract?key=YOUR_KEY&amp;num=10&amp;protocol=http&amp;format=json&amp;dedup=1&amp;min_ttl=60</code></pre>
<h2>先在浏览器里试一次</h2>
<p>把链接粘贴到浏览器地址栏打开，能看到返回的IP列表就说明配置正确。如果看到 <code>{"code":1002,"msg":"调用IP不在白名单"}</code>，说明当前电脑的公网IP还没有加入白名单，需要先到 <a href="/personalCenter/getAgent/whiteList">白名单</a> 页面添加。</p>
<p>注意：浏览器测试成功只能说明你这台电脑在白名单中。程序部署在服务器上时，还需要把服务器的出口IP也加入白名单。</p>
<h2>密钥与链接的保管</h2>
<ul>
<li>链接中的 <code>key</code> 就是你的API提取密钥，拥有它就能从你的套餐中扣量，请不要写进网页前端代码或公开的代码仓库。</li>
<li>怀疑密钥泄露时可以在API提取页重置，旧密钥会立即失效，所有使用旧链接的程序都需要同步更新。</li>
<li>链接参数可以直接在程序中修改，不必每次回到页面重新生成，各参数含义见 <a href="/helpDetails/extract-parameters.html">提取参数详解</a>。</li>
</ul>
<p>每个密钥的调用频率上限为每秒 10 次。需要大量IP时，请通过增大 <code>num</code> 一次取回多个，而不是高频循环调用；完整的代码示例可以在 <a href="/getProxy/10#code">获取代理页的代码示例区</a> 下载。</p>`,
    isHot: true,
    showOnBuy: false,
    publishedAt: 1770193260000, // 2026-02-04 16:21 (UTC+8)
    views: 16975,
  },
  {
    id: 105,
    categoryId: 2,
    url: 'extract-parameters',
    title: '提取参数详解',
    summary:
      '逐一说明提取接口的 key、num、protocol、format、sep、region、exclude、carrier、dedup、min_ttl、fields、package 参数。',
    keywords: ['提取参数', 'num', 'protocol', 'region', 'carrier', 'dedup', 'min_ttl', 'fields', 'sep'],
    bodyHtml: `<p>提取接口地址为 <code>GET https://www.example-proxy.cn/extract</code>，所有参数通过查询字符串传递，中文取值需要按 UTF-8 进行 URL 编码。</p>
<h2>参数一览</h2>
<table>
<thead><tr><th>参数</th><th>是否必填</th><th>取值</th><th>说明</th></tr></thead>
<tbody>
<tr><td><code>key</code></td><td>必填</td><td>API提取密钥</td><td>在API提取页面查看，用于识别账户。</td></tr>
<tr><td><code>num</code></td><td>必填</td><td>1～200</td><td>本次提取的IP数量，超出范围返回错误码 1006。</td></tr>
<tr><td><code>protocol</code></td><td>可选</td><td>http / https / socks5</td><td>代理协议，必须与程序中配置的代理类型一致。</td></tr>
<tr><td><code>format</code></td><td>可选</td><td>txt / json</td><td>返回格式，程序解析推荐使用 json。</td></tr>
<tr><td><code>sep</code></td><td>可选</td><td>1～5</td><td>仅 TXT 格式有效，多条记录之间的分隔符：1 为 \\r\\n，2 为 \\n，3 为空格，4 为 |，5 为自定义。</td></tr>
<tr><td><code>sep_text</code></td><td>sep=5 时填写</td><td>自定义字符</td><td>自定义分隔符，例如 <code>sep=5&amp;sep_text=%3B</code> 表示用分号分隔。</td></tr>
<tr><td><code>region</code></td><td>可选</td><td>省或城市名，逗号分隔</td><td>只提取指定地区的IP，如 <code>广东省,杭州市</code>。</td></tr>
<tr><td><code>exclude</code></td><td>可选</td><td>省或城市名，逗号分隔</td><td>排除指定地区，可与 region 配合使用。</td></tr>
<tr><td><code>carrier</code></td><td>可选</td><td>电信 / 联通 / 移动</td><td>只提取指定运营商的IP。</td></tr>
<tr><td><code>dedup</code></td><td>可选</td><td>0 / 1 / 2</td><td>0 不去重，1 当日去重，2 排除使用中。</td></tr>
<tr><td><code>min_ttl</code></td><td>可选</td><td>秒数</td><td>只返回剩余有效期不少于该秒数的IP。</td></tr>
<tr><td><code>fields</code></td><td>可选</td><td>region,carrier,expire,ttl</td><td>需要附带返回的信息，可任意组合。</td></tr>
<tr><td><code>package</code></td><td>可选</td><td>套餐ID</td><td>指定从哪个套餐扣量，账户中有多个套餐时建议填写。</td></tr>
</tbody>
</table>
<h2>地区参数的写法</h2>
<p>region 和 exclude 接受省级或城市级名称，建议使用完整名称（如“广东省”“深圳市”），多个地区之间用英文逗号分隔。手工拼接链接时，中文需要编码，例如 <code>region=广东省</code> 编码后为 <code>region=%E5%B9%BF%E4%B8%9C%E7%9C%81</code>；使用 requests、axios 等库的参数对象传参时会自动编码。可用地区可以在 <a href="/region">热门地区</a> 页面查看。</p>
<h2>组合示例</h2>
<p>提取 20 个广东省（不含深圳市）的电信 HTTP 代理，当日去重，每个至少还能使用 2 分钟，以 JSON 返回并附带地区和剩余秒数：</p>
<pre><code class="language-text">https://www.example-proxy.cn/extract?key=YOUR_KEY&amp;num=20&amp;protocol=http&amp;format=json&amp;region=广东省&amp;exclude=深圳市&amp;carrier=电信&amp;dedup=1&amp;min_ttl=120&amp;fields=region,ttl</code></pre>
<p>筛选条件越多，可选的IP就越少。如果返回 1007“暂无满足条件的IP”，可以依次放宽 min_ttl、去重方式、运营商和地区限制后重试。去重和剩余寿命的用法分别见 <a href="/helpDetails/dedup-strategy.html">去重策略</a> 与 <a href="/helpDetails/min-ttl-usage.html">min_ttl 参数</a>。</p>`,
    isHot: true,
    showOnBuy: false,
    publishedAt: 1770953880000, // 2026-02-13 11:38 (UTC+8)
    views: 14389,
  },
  {
    id: 106,
    categoryId: 2,
    url: 'response-formats',
    title: 'JSON与TXT返回格式说明',
    summary: '提取接口 JSON 与 TXT 两种返回格式的结构、字段含义、分隔符效果，以及出错时的返回内容和解析方法。',
    keywords: ['返回格式', 'JSON', 'TXT', 'fields', '分隔符', '解析'],
    bodyHtml: `<p>提取接口通过 <code>format</code> 参数选择返回格式：JSON 结构清晰、便于程序解析；TXT 简单直接，适合脚本或直接粘贴到工具中使用。</p>
<h2>JSON 格式</h2>
<pre><code class="language-json">{
  "code": 0,
  "msg": "成功",
  "data": {
    "count": 2,
    "list": [
      {"ip": "203.0.113.7", "port": 40012, "protocol": "http", "region": "广东省深圳市", "carrier": "电信", "expire_at": "2026-11-22 12:00:00", "ttl": 287},
      {"ip": "198.51.100.23", "port": 40031, "protocol": "http", "region": "浙江省杭州市", "carrier": "联通", "expire_at": "2026-11-22 12:02:10", "ttl": 417}
    ]
  }
}</code></pre>
<table>
<thead><tr><th>字段</th><th>说明</th></tr></thead>
<tbody>
<tr><td><code>code</code></td><td>0 表示成功，其他值为错误码。</td></tr>
<tr><td><code>msg</code></td><td>结果说明，出错时为错误原因。</td></tr>
<tr><td><code>data.count</code></td><td>本次实际返回的条数，请以它和 list 的长度为准遍历。</td></tr>
<tr><td><code>ip</code> / <code>port</code></td><td>代理地址和端口，port 为数字。</td></tr>
<tr><td><code>protocol</code></td><td>代理协议，与请求参数一致。</td></tr>
<tr><td><code>region</code> / <code>carrier</code></td><td>IP 所在地区和运营商。</td></tr>
<tr><td><code>expire_at</code></td><td>过期时间（北京时间）。</td></tr>
<tr><td><code>ttl</code></td><td>提取时刻的剩余有效秒数。</td></tr>
</tbody>
</table>
<p>region、carrier、expire_at、ttl 属于附加信息，通过 <code>fields=region,carrier,expire,ttl</code> 指定需要哪些。计算本地过期时间时，建议用“收到响应的本地时间 + ttl”，可以避免服务器与本机时钟不一致带来的误差。</p>
<h2>TXT 格式</h2>
<p>每条记录为 <code>ip:port</code>，多条之间使用 <code>sep</code> 指定的分隔符。请求了 fields 时，附加信息按 region、carrier、expire、ttl 的顺序以英文逗号追加在后面（只出现请求的字段）。例如 <code>format=txt&amp;sep=2&amp;fields=region,carrier,expire,ttl</code> 返回：</p>
<pre><code class="language-text">203.0.113.7:40012,广东省深圳市,电信,2026-11-22 12:00:00,287
198.51.100.23:40031,浙江省杭州市,联通,2026-11-22 12:02:10,417</code></pre>
<p>使用 <code>sep=4</code> 则返回 <code>203.0.113.7:40012|198.51.100.23:40031</code>。注意：expire 字段本身包含空格，请求该字段时不要使用 sep=3（空格分隔），否则无法正确拆分。</p>
<h2>出错时的返回</h2>
<p>JSON 格式返回 <code>{"code":1004,"msg":"套餐余量不足"}</code>，TXT 格式返回一行 <code>ERROR 1004 套餐余量不足</code>，同时 HTTP 状态码不再是 200。程序应先判断是否出错，再解析IP：</p>
<pre><code class="language-python">text = resp.text.strip()
if text.startswith("ERROR"):
    _, code, msg = text.split(" ", 2)
    raise RuntimeError(f"提取失败 {code}: {msg}")
proxies = [line.split(",")[0] for line in text.splitlines() if line]</code></pre>
<p>各错误码的含义与处理方法见 <a href="/helpDetails/error-codes.html">提取接口错误码说明</a>。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1771836900000, // 2026-02-23 16:55 (UTC+8)
    views: 9127,
  },
  {
    id: 107,
    categoryId: 2,
    url: 'error-codes',
    title: '提取接口错误码说明',
    summary: '1001～1007 各错误码的含义、常见原因与处理建议，以及哪些错误适合自动重试。',
    keywords: ['错误码', '1001', '1002', '1004', '1005', '1007', '重试'],
    bodyHtml: `<p>提取失败时，接口在 JSON 格式下返回 <code>{"code":错误码,"msg":"说明"}</code>，在 TXT 格式下返回一行 <code>ERROR 错误码 说明</code>，同时 HTTP 状态码会相应变化。判断结果请以 code 为准。</p>
<table>
<thead><tr><th>错误码</th><th>含义</th><th>常见原因与处理</th></tr></thead>
<tbody>
<tr><td>1001</td><td>密钥无效</td><td>key 复制不完整、多了空格，或密钥已被重置。请到API提取页重新复制。</td></tr>
<tr><td>1002</td><td>调用IP不在白名单</td><td>发起请求的机器公网IP未加入白名单，或该白名单条目已停用。在服务器上查询出口IP后添加。</td></tr>
<tr><td>1003</td><td>套餐不存在或已过期</td><td>package 填写的套餐ID有误，或套餐已到期。请核对套餐ID或续费。</td></tr>
<tr><td>1004</td><td>套餐余量不足</td><td>按量套餐剩余数量不足，或包天套餐的提取额度已用完。请补量或购买新套餐，也可以减小 num。</td></tr>
<tr><td>1005</td><td>请求过于频繁</td><td>同一密钥每秒超过 10 次调用。请降低频率，改为单次多取。</td></tr>
<tr><td>1006</td><td>参数错误</td><td>num 不在 1～200 之间、protocol 或 carrier 取值不正确、sep=5 未填写 sep_text、min_ttl 不是数字等。</td></tr>
<tr><td>1007</td><td>暂无满足条件的IP</td><td>地区、运营商、去重、min_ttl 等条件过严。稍后重试或放宽条件。</td></tr>
</tbody>
</table>
<h2>哪些错误可以自动重试</h2>
<p>1005 和 1007 属于暂时性错误，适合等待片刻后重试；1001、1002、1003、1004、1006 需要人工处理配置或账户，重试不会成功，反而会产生大量无效调用，应当直接报警。推荐使用指数退避的方式重试：</p>
<pre><code class="language-python">import time
import requests

API = "https://www.example-proxy.cn/extract"
RETRYABLE = {1005, 1007}

def extract(params, max_retry=3):
    for attempt in range(max_retry + 1):
        data = requests.get(API, params=params, timeout=10).json()
        if data["code"] == 0:
            return data["data"]["list"]
        if data["code"] not in RETRYABLE or attempt == max_retry:
            raise RuntimeError(f"提取失败 {data['code']}: {data['msg']}")
        time.sleep(2 ** attempt)  # 依次等待 1、2、4 秒</code></pre>
<h2>排查小技巧</h2>
<ul>
<li>先把同样的链接放到浏览器里打开，确认是参数问题还是运行环境问题；</li>
<li>在 <a href="/personalCenter/getAgent/record">提取记录</a> 中可以看到每次调用的时间和结果，便于核对；</li>
<li>多个程序共用一个密钥时，调用频率是合并计算的，需要统一做限速。</li>
</ul>`,
    isHot: true,
    showOnBuy: false,
    publishedAt: 1772687520000, // 2026-03-05 13:12 (UTC+8)
    views: 12764,
  },
  {
    id: 108,
    categoryId: 2,
    url: 'min-ttl-usage',
    title: 'min_ttl 参数：只提取剩余寿命足够的IP',
    summary:
      'min_ttl 让接口只返回剩余有效期不少于指定秒数的IP，避免任务执行到一半代理过期。附取值建议和本地代理池示例。',
    keywords: ['min_ttl', '剩余有效期', 'ttl', '代理池', 'IP过期'],
    bodyHtml: `<h2>为什么需要 min_ttl</h2>
<p>每个代理IP都有固定的生命周期，例如 5 分钟规格的短效IP，从上线起最多可以使用 5 分钟。IP 池在持续轮换，你提取到某个IP的那一刻，它可能已经使用了一段时间，剩余寿命（ttl）会小于完整时长。如果一个任务需要连续操作 90 秒，却拿到了只剩 20 秒的IP，任务就会在中途断开。</p>
<p><code>min_ttl</code> 是本平台提取接口特有的参数：设置后，接口只返回剩余有效期不少于该秒数的IP。例如 <code>min_ttl=120</code> 表示每个返回的IP至少还能用 2 分钟。</p>
<h2>如何设置取值</h2>
<ul>
<li>基本原则：min_ttl ≈ 单个任务的最长耗时 + 30 秒左右的余量。</li>
<li>取值必须小于所购IP的时长。3 分钟规格最多只有 180 秒，设置 min_ttl=300 将永远无法满足，接口会返回 1007。</li>
<li>取值越大，满足条件的IP越少，和地区、运营商、去重条件叠加时更容易返回 1007，请按实际需要设置，不要一味求大。</li>
<li>单次请求就结束的采集任务，可以不设置或设置一个较小的值，比如 30。</li>
</ul>
<h2>配合 fields=ttl 管理本地代理池</h2>
<p>提取时同时请求 <code>fields=ttl</code>，就能知道每个IP还剩多少秒，在本地记录“过期时间 = 当前时间 + ttl”，并在剩余时间不足一个任务时提前淘汰：</p>
<pre><code class="language-python">import time
import requests

API = "https://www.example-proxy.cn/extract"
KEY = "YOUR_KEY"
TASK_SECONDS = 90  # 单个任务的最长耗时


class ProxyPool:
    def __init__(self):
        self.items = []  # [(代理地址, 本地过期时间戳)]

    def refill(self):
        params = {"key": KEY, "num": 10, "protocol": "http", "format": "json",
                  "fields": "ttl", "min_ttl": TASK_SECONDS + 30}
        data = requests.get(API, params=params, timeout=10).json()
        if data["code"] != 0:
            raise RuntimeError(f"提取失败 {data['code']}: {data['msg']}")
        now = time.time()
        self.items = [(f"http://{x['ip']}:{x['port']}", now + x["ttl"])
                      for x in data["data"]["list"]]

    def get(self):
        now = time.time()
        # 丢弃剩余时间已不够完成一个任务的IP
        self.items = [it for it in self.items if it[1] - now &gt; TASK_SECONDS]
        if not self.items:
            self.refill()
        addr, expire = self.items.pop(0)
        self.items.append((addr, expire))  # 轮询使用
        return addr</code></pre>
<p>这样每次取出的代理都能保证完整跑完一个任务，同时减少了因IP中途过期而导致的重试和浪费。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1773484140000, // 2026-03-14 18:29 (UTC+8)
    views: 7836,
  },
  {
    id: 109,
    categoryId: 2,
    url: 'dedup-strategy',
    title: '去重策略：不去重、当日去重与排除使用中',
    summary: 'dedup 参数三种取值的区别、适用场景，以及去重与可用IP数量之间的取舍。',
    keywords: ['去重', 'dedup', '当日去重', '排除使用中', '重复IP'],
    bodyHtml: `<p>提取接口的 <code>dedup</code> 参数决定是否会返回你之前已经提取过的IP。合理选择去重方式，既能保证出口IP足够分散，又不会因为条件过严而拿不到IP。</p>
<table>
<thead><tr><th>取值</th><th>名称</th><th>效果</th></tr></thead>
<tbody>
<tr><td>0</td><td>不去重</td><td>不做任何排除，可能返回你当天已经提取过的IP，可选范围最大。</td></tr>
<tr><td>1</td><td>当日去重</td><td>同一账户当天（按自然日计算）已经提取过的IP不再返回，次日重新计算。</td></tr>
<tr><td>2</td><td>排除使用中</td><td>不返回你之前提取过且仍在有效期内的IP；已经过期的IP可能再次返回。</td></tr>
</tbody>
</table>
<h2>如何选择</h2>
<h3>不去重（dedup=0）</h3>
<p>适合对出口IP重复不敏感、追求提取成功率的场景，例如普通的公开数据采集、网站可用性测试。IP 重复出现并不影响使用，接口也最不容易返回 1007。</p>
<h3>当日去重（dedup=1）</h3>
<p>适合希望一天内尽量覆盖更多不同出口的场景，例如广告投放效果验证、多地区价格监测。注意：如果当天提取量很大，同时又限定了较小的地区范围，后半天可选的IP会越来越少，出现 1007 的概率随之升高。</p>
<h3>排除使用中（dedup=2）</h3>
<p>适合多线程、多进程并发的程序：多个工作进程各自调用接口时，保证不会拿到同一个仍在使用的IP，避免多个任务挤在同一出口上。它比当日去重宽松，在并发量大的情况下是比较均衡的选择。</p>
<h2>使用建议</h2>
<ul>
<li>去重只针对你自己的账户，不会影响其他用户；</li>
<li>去重条件会和 region、carrier、min_ttl 叠加生效，条件越多越容易返回 1007，遇到时可以先把 dedup 改为 2 或 0 再试；</li>
<li>在程序内部也可以用集合记录已用过的 ip:port，作为二次保障。</li>
</ul>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1774331160000, // 2026-03-24 13:46 (UTC+8)
    views: 6421,
  },
  {
    id: 110,
    categoryId: 3,
    url: 'add-whitelist',
    title: '如何添加白名单与查看当前IP',
    summary: '白名单认证的原理、在个人中心查看当前IP并一键添加、查询服务器出口IP，以及添加时的常见误区。',
    keywords: ['白名单', '添加白名单', '当前IP', '出口IP', 'IP认证'],
    bodyHtml: `<h2>什么是白名单认证</h2>
<p>本平台的代理使用IP白名单认证：只有加入白名单的公网IP，才能调用提取接口并通过代理访问网络。使用时不需要在程序里填写账号密码，因此浏览器、采集软件、各种编程语言都能直接使用。</p>
<h2>查看当前IP并添加</h2>
<ol>
<li>进入 <a href="/personalCenter/getAgent/whiteList">个人中心 → 白名单</a>，页面会显示“当前IP”，即你此刻访问网站所用的公网IP。</li>
<li>点击“添加白名单”，IP 会自动填入当前IP，也可以手动输入其他IP。</li>
<li>填写备注（例如“办公室”“采集服务器1”），方便日后管理，然后保存。</li>
</ol>
<p>在列表中可以编辑IP和备注、通过开关临时停用或启用某条白名单，也可以勾选多条后批量删除。白名单的数量上限以页面提示为准。</p>
<h2>服务器的出口IP怎么查</h2>
<p>“当前IP”只代表你打开网页的这台电脑。程序运行在云服务器或其他机器上时，请登录那台机器执行：</p>
<pre><code class="language-bash">curl https://httpbin.org/ip</code></pre>
<p>返回的 origin 就是服务器的出口IP，把它加入白名单即可。如需强制使用 IPv4 查询，可以加上 <code>-4</code> 参数。</p>
<h2>常见误区</h2>
<ul>
<li><strong>填写了内网地址</strong>：10.x.x.x、172.16～172.31.x.x、192.168.x.x 是内网地址，对外并不可见，填写无效。</li>
<li><strong>云服务器未绑定公网IP</strong>：通过 NAT 网关上网的机器，出口是网关的公网IP，请以 curl 查询结果为准。</li>
<li><strong>家庭宽带IP会变化</strong>：路由器重新拨号后公网IP通常会变化，变化后需要更新白名单。</li>
<li><strong>公司网络有多个出口</strong>：多线路负载均衡的网络可能轮流使用多个出口IP，需要全部加入。</li>
<li><strong>本机开着其他网络工具</strong>：开启全局网络加速类工具时，出口IP会变成工具的地址，测试前请先关闭。</li>
</ul>
<p>白名单保存后需要一小段时间同步生效，详见 <a href="/helpDetails/whitelist-effective-time.html">白名单生效时间与注意事项</a>。</p>`,
    isHot: true,
    showOnBuy: false,
    publishedAt: 1775095380000, // 2026-04-02 10:03 (UTC+8)
    views: 17512,
  },
  {
    id: 111,
    categoryId: 3,
    url: 'whitelist-effective-time',
    title: '白名单生效时间与注意事项',
    summary: '白名单保存后多久生效、停用和删除的影响，以及“已添加白名单仍提示 1002”的排查方法。',
    keywords: ['白名单生效', '1002', '白名单不生效', 'IPv6', '停用白名单'],
    bodyHtml: `<h2>多久生效</h2>
<p>白名单保存后，需要同步到提取接口和各个代理节点，通常在 1 分钟左右全部生效。刚添加完立即测试，可能会遇到提取返回 1002 或代理连接被拒绝的情况，稍等片刻再试即可。停用或删除白名单同样需要同步时间，在此期间旧IP可能仍可短暂使用。</p>
<h2>停用与删除的区别</h2>
<ul>
<li><strong>停用</strong>：保留记录，只是暂时不允许该IP使用，随时可以重新启用，适合临时下线某台服务器；</li>
<li><strong>删除</strong>：彻底移除记录，需要时要重新添加。</li>
</ul>
<p>已停用的条目不会生效，如果遇到白名单看起来存在但依旧提示 1002，请先检查该条目的开关状态。</p>
<h2>已添加白名单，为什么还提示 1002</h2>
<ol>
<li><strong>等待同步</strong>：确认距离保存已经超过 1 分钟。</li>
<li><strong>核对出口IP</strong>：在实际运行程序的机器上执行 <code>curl https://httpbin.org/ip</code>，看返回的IP是否与白名单完全一致。很多人添加的是自己电脑的IP，但程序却跑在服务器上。</li>
<li><strong>IPv6 出口</strong>：如果网络同时支持 IPv6，程序访问接口时可能走了 IPv6 出口，与白名单中的 IPv4 地址不一致。可以强制程序使用 IPv4，例如 curl 加上 <code>-4</code> 参数。</li>
<li><strong>出口IP发生变化</strong>：家庭宽带重新拨号、云服务器更换弹性公网IP、公司网络切换线路后，都需要更新白名单。</li>
<li><strong>多出口网络</strong>：连续查询几次出口IP，如果结果不一样，需要把出现过的IP都加进去。</li>
</ol>
<h2>安全建议</h2>
<p>白名单等同于代理的使用权限。不再使用的服务器、离职人员的办公网络请及时停用或删除；不要把公共网络（如网吧、共享办公空间）的IP长期留在白名单中，以免他人共享你的套餐余量。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1775978400000, // 2026-04-12 15:20 (UTC+8)
    views: 8093,
  },
  {
    id: 112,
    categoryId: 3,
    url: 'api-key-security',
    title: 'API提取密钥的安全使用与重置',
    summary: 'API提取密钥的作用、与白名单的关系、安全保存方式以及泄露后如何重置。',
    keywords: ['API密钥', '密钥重置', '密钥泄露', '安全', '环境变量'],
    bodyHtml: `<h2>密钥的作用</h2>
<p>API提取密钥（提取链接中的 <code>key</code> 参数）用来识别你的账户：接口根据它找到对应的套餐并扣量。密钥和白名单共同构成两道保护——请求必须携带有效密钥，并且来自白名单中的IP，才能成功提取。</p>
<p>密钥可以在 <a href="/personalCenter/getAgent/api">个人中心 → API提取</a> 页面查看和复制。</p>
<h2>安全保存</h2>
<ul>
<li>不要把密钥写在网页前端代码、小程序、手机 App 安装包等会分发给他人的程序中，正确做法是由你自己的服务器调用提取接口；</li>
<li>不要把含密钥的代码提交到公开的代码仓库，推荐放在环境变量或配置文件中，并把配置文件加入忽略列表；</li>
<li>截图、录屏、向他人咨询问题时，请遮盖密钥部分；</li>
<li>团队多人协作时，尽量由统一的服务提取代理再分发给各个程序，而不是人人都持有密钥。</li>
</ul>
<p>例如在 Python 中从环境变量读取：</p>
<pre><code class="language-python">import os

KEY = os.environ["PROXY_API_KEY"]  # 运行前执行 export PROXY_API_KEY=你的密钥</code></pre>
<h2>密钥泄露怎么办</h2>
<ol>
<li>在API提取页点击“重置密钥”，系统生成新密钥，旧密钥立即失效；</li>
<li>把所有程序、配置中的旧密钥替换为新密钥；</li>
<li>检查 <a href="/personalCenter/getAgent/whiteList">白名单</a>，删除不认识的IP；</li>
<li>在 <a href="/personalCenter/getAgent/record">提取记录</a> 中核对近期调用，确认是否还有异常提取。</li>
</ol>
<h2>提示</h2>
<p>由于存在白名单限制，单独泄露密钥通常不足以让他人使用你的套餐，但两者同时泄露时风险很高。定期检查白名单、保管好密钥，是保护套餐余量最简单有效的方法。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1776825420000, // 2026-04-22 10:37 (UTC+8)
    views: 5218,
  },
  {
    id: 113,
    categoryId: 4,
    url: 'python-requests-proxy',
    title: 'Python requests 使用代理',
    summary: '用 requests 调用提取接口获取代理，并通过 proxies 参数发起 HTTP/HTTPS 请求，含 SOCKS5 与会话复用写法。',
    keywords: ['Python', 'requests', 'proxies', 'SOCKS5', '代码示例'],
    bodyHtml: `<p>requests 是 Python 中最常用的 HTTP 库。本文演示如何先调用提取接口拿到代理，再通过代理访问目标网站。运行前请确认运行代码的机器IP已加入 <a href="/personalCenter/getAgent/whiteList">白名单</a>。</p>
<h2>基础示例</h2>
<pre><code class="language-python">import requests

API = "https://www.example-proxy.cn/extract"
KEY = "YOUR_KEY"


def get_proxy():
    params = {"key": KEY, "num": 1, "protocol": "http", "format": "json", "min_ttl": 60}
    data = requests.get(API, params=params, timeout=10).json()
    if data["code"] != 0:
        raise RuntimeError(f"提取失败 {data['code']}: {data['msg']}")
    item = data["data"]["list"][0]
    return f"{item['ip']}:{item['port']}"


proxy = get_proxy()
proxies = {
    "http": f"http://{proxy}",
    "https": f"http://{proxy}",  # 访问 https 网站时同样通过这个 HTTP 代理建立隧道
}
resp = requests.get("https://httpbin.org/ip", proxies=proxies, timeout=15)
print(resp.status_code, resp.text)</code></pre>
<p>要点说明：</p>
<ul>
<li><code>proxies</code> 字典的键是<strong>目标网址</strong>的协议，值是<strong>代理地址</strong>。访问 https 网站时，值依然写 <code>http://</code>，这是通过 HTTP 代理建立加密隧道的标准写法；</li>
<li>务必设置 <code>timeout</code>，否则代理失效时请求可能会长时间挂起；</li>
<li>使用白名单认证时，代理地址中不需要填写用户名和密码。</li>
</ul>
<h2>使用 SOCKS5 代理</h2>
<p>提取时把 protocol 设为 socks5，并安装 SOCKS 支持：<code>pip install "requests[socks]"</code>。代理地址建议写成 <code>socks5h://</code>，表示由代理服务器解析域名，避免本地 DNS 解析结果与代理出口所在地区不一致：</p>
<pre><code class="language-python">proxies = {
    "http": "socks5h://203.0.113.7:40012",
    "https": "socks5h://203.0.113.7:40012",
}</code></pre>
<h2>使用 Session 复用连接</h2>
<p>同一个代理要连续访问多个页面时，用 <code>requests.Session</code> 可以复用 TCP 连接和 Cookie，速度更快：</p>
<pre><code class="language-python">session = requests.Session()
session.proxies.update(proxies)
for url in ["https://httpbin.org/ip", "https://httpbin.org/headers"]:
    print(session.get(url, timeout=15).text)</code></pre>
<p>需要更换IP时，新建一个 Session 或更新 <code>session.proxies</code> 即可。</p>
<h2>批量提取与轮换</h2>
<p>请求量大时，不要每发一个请求就调用一次提取接口。可以一次提取多个IP（num 最大 200）放入列表轮流使用，并结合 <code>fields=ttl</code> 与 <code>min_ttl</code> 在本地淘汰即将过期的IP，示例见 <a href="/helpDetails/min-ttl-usage.html">min_ttl 参数</a> 一文。同一密钥每秒最多调用 10 次，超出会返回 1005。</p>
<p>如果请求报 <code>ProxyError</code> 或 <code>ConnectTimeout</code>，请参考 <a href="/helpDetails/proxy-troubleshooting.html">代理连接失败排查指南</a>。</p>`,
    isHot: true,
    showOnBuy: false,
    publishedAt: 1777622040000, // 2026-05-01 15:54 (UTC+8)
    views: 19876,
  },
  {
    id: 114,
    categoryId: 4,
    url: 'nodejs-proxy',
    title: 'Node.js（undici / axios）使用代理',
    summary: 'Node.js 中通过 undici 的 ProxyAgent 或 axios 搭配 https-proxy-agent 使用代理IP的完整示例。',
    keywords: ['Node.js', 'undici', 'axios', 'ProxyAgent', 'https-proxy-agent', 'JavaScript'],
    bodyHtml: `<p>Node.js 内置的 fetch 不会读取系统代理设置，需要显式指定代理。下面分别介绍 undici 和 axios 两种常见写法，示例均使用 ES 模块语法（文件扩展名为 .mjs，或在 package.json 中设置 <code>"type": "module"</code>），Node.js 版本建议 18 以上。</p>
<h2>方式一：undici ProxyAgent</h2>
<p>先安装依赖：<code>npm install undici</code>。</p>
<pre><code class="language-javascript">import { fetch, ProxyAgent } from 'undici';

const API = 'https://www.example-proxy.cn/extract';

async function getProxy() {
  const params = new URLSearchParams({
    key: process.env.PROXY_API_KEY ?? '',
    num: '1',
    protocol: 'http',
    format: 'json',
    min_ttl: '60',
  });
  const res = await fetch(API + '?' + params.toString());
  const body = await res.json();
  if (body.code !== 0) {
    throw new Error('提取失败 ' + body.code + ': ' + body.msg);
  }
  const { ip, port } = body.data.list[0];
  return 'http://' + ip + ':' + port;
}

const dispatcher = new ProxyAgent(await getProxy());
const res = await fetch('https://httpbin.org/ip', {
  dispatcher,
  signal: AbortSignal.timeout(15000),
});
console.log(res.status, await res.text());</code></pre>
<p>请从 undici 包中同时导入 fetch 和 ProxyAgent，避免全局 fetch 与所安装的 undici 版本不一致导致 dispatcher 不生效。同一个 ProxyAgent 可以复用于多次请求，需要换IP时新建一个即可。</p>
<h2>方式二：axios + https-proxy-agent</h2>
<p>axios 自带的 proxy 选项在访问 https 网站时兼容性不佳，推荐关闭它并改用代理 Agent：<code>npm install axios https-proxy-agent</code>。</p>
<pre><code class="language-javascript">import axios from 'axios';
import { HttpsProxyAgent } from 'https-proxy-agent';

const agent = new HttpsProxyAgent('http://203.0.113.7:40012');
const res = await axios.get('https://httpbin.org/ip', {
  httpsAgent: agent,
  httpAgent: agent,
  proxy: false, // 关闭 axios 内置代理逻辑
  timeout: 15000,
});
console.log(res.data);</code></pre>
<h2>错误处理</h2>
<p>提取接口出错时会返回非 200 的状态码，但响应体依然是包含 code 和 msg 的 JSON，所以示例直接读取 JSON 并判断 code，而不是只看 <code>res.ok</code>。代理连接超时等网络错误会以异常形式抛出，建议用 try/catch 捕获后更换代理重试，并限制最大重试次数。</p>
<h2>SOCKS5 代理</h2>
<p>提取时使用 <code>protocol=socks5</code>，安装 socks-proxy-agent 后，用 <code>new SocksProxyAgent('socks5h://203.0.113.7:40012')</code> 替换上面的 agent 即可，其余代码不变。</p>
<h2>注意事项</h2>
<ul>
<li>密钥建议通过环境变量传入，不要写进前端代码；</li>
<li>高并发场景请一次提取多个IP放入数组轮询使用，不要每个请求都调用一次提取接口，单个密钥每秒最多调用 10 次。</li>
</ul>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1778472660000, // 2026-05-11 12:11 (UTC+8)
    views: 8754,
  },
  {
    id: 115,
    categoryId: 4,
    url: 'java-httpclient-proxy',
    title: 'Java HttpClient 使用代理',
    summary: '使用 JDK 11 自带的 java.net.http.HttpClient 调用提取接口并通过 HTTP 代理发起请求。',
    keywords: ['Java', 'HttpClient', 'ProxySelector', 'JDK 11', '代码示例'],
    bodyHtml: `<p>JDK 11 起自带的 <code>java.net.http.HttpClient</code> 无需第三方依赖即可使用代理，通过 <code>ProxySelector</code> 指定代理地址。下面的示例用 TXT 格式提取一个代理，再用它访问目标网址。</p>
<p>运行前请确认：JDK 版本不低于 11；运行程序的服务器公网IP已加入白名单；已把示例中的 YOUR_KEY 替换为API提取页中的密钥。</p>
<h2>完整示例</h2>
<pre><code class="language-java">import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

public class ProxyDemo {
    private static final String API = "https://www.example-proxy.cn/extract"
            + "?key=YOUR_KEY&amp;num=1&amp;protocol=http&amp;format=txt&amp;sep=2&amp;min_ttl=60";

    public static void main(String[] args) throws Exception {
        // 1. 直连调用提取接口
        HttpClient direct = HttpClient.newHttpClient();
        String body = direct.send(HttpRequest.newBuilder(URI.create(API)).build(),
                HttpResponse.BodyHandlers.ofString()).body().trim();
        if (body.startsWith("ERROR")) {
            throw new IllegalStateException("提取失败: " + body);
        }
        String[] hostPort = body.split("\\n")[0].trim().split(":");

        // 2. 使用代理访问目标网站
        HttpClient client = HttpClient.newBuilder()
                .proxy(ProxySelector.of(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]))))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("https://httpbin.org/ip"))
                .timeout(Duration.ofSeconds(15))
                .build();
        HttpResponse&lt;String&gt; response = client.send(request, HttpResponse.BodyHandlers.ofString());
        System.out.println(response.statusCode() + " " + response.body());
    }
}</code></pre>
<h2>要点说明</h2>
<ul>
<li>HttpClient 实例创建后代理不可更改，换IP时需要新建一个 HttpClient。它的创建成本不高，但也不建议每个请求都新建，可以为每个代理IP缓存一个实例，IP 过期后丢弃；</li>
<li>出错时接口在 TXT 格式下返回以 <code>ERROR</code> 开头的一行，先判断再解析，避免把错误信息当作IP；</li>
<li>同时设置 <code>connectTimeout</code> 和请求级别的 <code>timeout</code>，防止代理失效时线程长时间阻塞；</li>
<li>如需批量使用，可以把 num 调大，按行拆分后放入队列，由多个线程轮流取用。</li>
</ul>
<h2>使用 SOCKS5</h2>
<p><code>java.net.http.HttpClient</code> 只支持 HTTP 类型的代理。需要 SOCKS5 时，可以改用 <code>HttpURLConnection</code> 配合 <code>new Proxy(Proxy.Type.SOCKS, new InetSocketAddress(host, port))</code>，或使用 OkHttp 等支持 SOCKS 的客户端库。对大多数采集场景，直接提取 protocol=http 的代理即可。</p>
<p>更多语言的完整工程（含 Kotlin）可以在 <a href="/getProxy/10#code">获取代理页的代码示例区</a> 下载。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1779269280000, // 2026-05-20 17:28 (UTC+8)
    views: 7342,
  },
  {
    id: 116,
    categoryId: 4,
    url: 'go-net-http-proxy',
    title: 'Go net/http 使用代理',
    summary: '在 Go 中通过 http.Transport 的 Proxy 字段使用代理，支持 HTTP 与 SOCKS5，附连接复用建议。',
    keywords: ['Go', 'Golang', 'net/http', 'Transport', 'ProxyURL', 'SOCKS5'],
    bodyHtml: `<p>Go 标准库的 <code>net/http</code> 原生支持代理，只需在 <code>http.Transport</code> 的 <code>Proxy</code> 字段中返回代理地址。下面的示例先用 TXT 格式提取一个代理，再发起请求。</p>
<p>运行前请确认：运行程序的机器公网IP已加入白名单，并把 YOUR_KEY 替换为你的API提取密钥。提取接口出错时返回以 ERROR 开头的一行文本，示例中先判断前缀再使用，避免把错误信息当作代理地址。</p>
<h2>完整示例</h2>
<pre><code class="language-go">package main

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

func getProxy(key string) (string, error) {
	q := url.Values{}
	q.Set("key", key)
	q.Set("num", "1")
	q.Set("protocol", "http")
	q.Set("format", "txt")
	q.Set("sep", "2")
	q.Set("min_ttl", "60")
	resp, err := http.Get("https://www.example-proxy.cn/extract?" + q.Encode())
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	line := strings.TrimSpace(strings.SplitN(string(b), "\\n", 2)[0])
	if strings.HasPrefix(line, "ERROR") {
		return "", fmt.Errorf("提取失败: %s", line)
	}
	return line, nil
}

func main() {
	addr, err := getProxy("YOUR_KEY")
	if err != nil {
		panic(err)
	}
	proxyURL, err := url.Parse("http://" + addr)
	if err != nil {
		panic(err)
	}
	client := &amp;http.Client{
		Transport: &amp;http.Transport{Proxy: http.ProxyURL(proxyURL)},
		Timeout:   15 * time.Second,
	}
	resp, err := client.Get("https://httpbin.org/ip")
	if err != nil {
		panic(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))
}</code></pre>
<h2>要点说明</h2>
<ul>
<li><code>http.Client</code> 的 <code>Timeout</code> 是整个请求（含读取响应体）的总超时，代理场景务必设置；</li>
<li>使用 SOCKS5 时，提取参数改为 <code>protocol=socks5</code>，把代理地址写成 <code>socks5://ip:port</code> 即可，标准库会自动按 SOCKS5 协议连接；</li>
<li>Transport 内部维护连接池，应当按代理IP复用同一个 Transport，而不是每个请求都新建，否则会产生大量未关闭的连接；</li>
<li>如果要在多个代理之间轮换，可以自己实现 <code>Proxy</code> 函数：根据请求返回不同的代理地址，函数签名为 <code>func(*http.Request) (*url.URL, error)</code>；</li>
<li>读取完响应后一定要关闭 <code>resp.Body</code>，连接才能回到连接池被复用。</li>
</ul>
<p>提取接口的其他参数见 <a href="/helpDetails/extract-parameters.html">提取参数详解</a>，出现连接错误时参考 <a href="/helpDetails/proxy-troubleshooting.html">代理连接失败排查指南</a>。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1780116300000, // 2026-05-30 12:45 (UTC+8)
    views: 6125,
  },
  {
    id: 117,
    categoryId: 4,
    url: 'php-curl-proxy',
    title: 'PHP cURL 使用代理',
    summary: '使用 PHP cURL 扩展调用提取接口并设置 CURLOPT_PROXY 发起代理请求，含 SOCKS5 写法与常见错误。',
    keywords: ['PHP', 'cURL', 'CURLOPT_PROXY', 'SOCKS5', '代码示例'],
    bodyHtml: `<p>PHP 中使用代理最常见的方式是 cURL 扩展，通过 <code>CURLOPT_PROXY</code> 指定代理地址。以下示例封装了一个通用的请求函数，既用于调用提取接口，也用于通过代理访问目标网站。</p>
<p>运行前请确认 PHP 已启用 curl 扩展（可以用 <code>php -m</code> 查看已加载的扩展），并且运行脚本的服务器公网IP已加入白名单。</p>
<h2>完整示例</h2>
<pre><code class="language-php">&lt;?php

function httpGet(string $url, ?string $proxy = null): string
{
    $ch = curl_init($url);
    curl_setopt_array($ch, [
        CURLOPT_RETURNTRANSFER =&gt; true,
        CURLOPT_CONNECTTIMEOUT =&gt; 10,
        CURLOPT_TIMEOUT        =&gt; 20,
    ]);
    if ($proxy !== null) {
        curl_setopt($ch, CURLOPT_PROXY, $proxy);
        curl_setopt($ch, CURLOPT_PROXYTYPE, CURLPROXY_HTTP);
    }
    $body = curl_exec($ch);
    if ($body === false) {
        $error = curl_error($ch);
        curl_close($ch);
        throw new RuntimeException('请求失败: ' . $error);
    }
    curl_close($ch);
    return $body;
}

$query = http_build_query([
    'key'      =&gt; 'YOUR_KEY',
    'num'      =&gt; 1,
    'protocol' =&gt; 'http',
    'format'   =&gt; 'json',
    'min_ttl'  =&gt; 60,
]);
$data = json_decode(httpGet('https://www.example-proxy.cn/extract?' . $query), true);
if (!is_array($data) || $data['code'] !== 0) {
    exit('提取失败: ' . ($data['msg'] ?? '未知错误') . PHP_EOL);
}

$item = $data['data']['list'][0];
echo httpGet('https://httpbin.org/ip', $item['ip'] . ':' . $item['port']), PHP_EOL;</code></pre>
<h2>要点说明</h2>
<ul>
<li>出错时接口会返回非 200 的 HTTP 状态码，但响应体依然是 JSON，上面的写法会正常读取并通过 code 判断，不会因为状态码直接报错；</li>
<li>请不要用 <code>file_get_contents</code> 调用提取接口，它在非 200 状态码时只返回 false，拿不到具体的错误信息；</li>
<li>访问 https 网站时 cURL 会自动通过 HTTP 代理建立隧道，不需要额外设置；</li>
<li>使用白名单认证时无需设置 <code>CURLOPT_PROXYUSERPWD</code>。</li>
</ul>
<h2>使用 SOCKS5</h2>
<p>提取时设置 <code>protocol=socks5</code>，并把代理类型改为 <code>CURLPROXY_SOCKS5_HOSTNAME</code>，表示由代理服务器解析域名：</p>
<pre><code class="language-php">curl_setopt($ch, CURLOPT_PROXYTYPE, CURLPROXY_SOCKS5_HOSTNAME);</code></pre>
<h2>常见错误</h2>
<ul>
<li><code>Connection timed out</code>：代理IP可能已过期，或本机防火墙限制了出站端口；</li>
<li><code>Received HTTP code 407 from proxy after CONNECT</code>：通常表示当前服务器IP不在白名单中；</li>
<li>代理过期后请重新提取，不要把IP缓存到超过它的有效期；</li>
<li>在 PHP-FPM 中批量请求时，可以使用 <code>curl_multi_*</code> 系列函数并发执行，提高效率。</li>
</ul>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1780999320000, // 2026-06-09 18:02 (UTC+8)
    views: 5873,
  },
  {
    id: 118,
    categoryId: 4,
    url: 'csharp-httpclient-proxy',
    title: 'C# HttpClient 使用代理',
    summary: '在 .NET 6 及以上版本中通过 HttpClientHandler 与 WebProxy 使用代理IP，并说明 HttpClient 的复用方式。',
    keywords: ['C#', '.NET', 'HttpClient', 'WebProxy', 'HttpClientHandler'],
    bodyHtml: `<p>.NET 中的 <code>HttpClient</code> 通过 <code>HttpClientHandler.Proxy</code> 设置代理。下面的示例基于 .NET 6 及以上版本的顶级语句写法，可以直接放入新建的控制台项目的 Program.cs 中运行。</p>
<p>运行前请确认：已安装 .NET 6 或更高版本的 SDK，可以通过 <code>dotnet new console</code> 创建项目；运行程序的机器公网IP已加入白名单；已把 YOUR_KEY 替换为API提取页中的密钥。</p>
<h2>完整示例</h2>
<pre><code class="language-csharp">using System.Net;
using System.Text.Json;

const string Api = "https://www.example-proxy.cn/extract?key=YOUR_KEY&amp;num=1&amp;protocol=http&amp;format=json&amp;min_ttl=60";

// 1. 直连调用提取接口（出错时状态码非 200，但响应体仍是 JSON）
using var direct = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
var json = await (await direct.GetAsync(Api)).Content.ReadAsStringAsync();
using var doc = JsonDocument.Parse(json);
var root = doc.RootElement;
if (root.GetProperty("code").GetInt32() != 0)
{
    var msg = root.GetProperty("msg").GetString();
    Console.WriteLine($"提取失败: {msg}");
    return;
}
var item = root.GetProperty("data").GetProperty("list")[0];
var ip = item.GetProperty("ip").GetString();
var port = item.GetProperty("port").GetInt32();

// 2. 通过代理访问目标网站
var handler = new HttpClientHandler
{
    Proxy = new WebProxy($"http://{ip}:{port}"),
    UseProxy = true,
};
using var client = new HttpClient(handler) { Timeout = TimeSpan.FromSeconds(15) };
var result = await client.GetStringAsync("https://httpbin.org/ip");
Console.WriteLine(result);</code></pre>
<h2>要点说明</h2>
<ul>
<li>调用提取接口时使用 <code>GetAsync</code> 再读取内容，而不是 <code>GetStringAsync</code>：后者在状态码非 200 时会直接抛出异常，拿不到具体的错误码；</li>
<li>HttpClient 创建后代理不能修改。换IP时需要新建 handler 和 HttpClient；同一个代理IP应复用同一个实例，避免频繁创建导致端口耗尽；</li>
<li>需要在多个代理之间频繁切换时，可以为每个代理IP维护一个 HttpClient，并在IP过期后调用 <code>Dispose</code> 释放；</li>
<li>在 ASP.NET Core 项目中，推荐通过 IHttpClientFactory 为不同代理配置命名客户端，由框架统一管理 handler 的生命周期；</li>
<li>白名单认证不需要设置 <code>Proxy.Credentials</code>。</li>
</ul>
<h2>使用 SOCKS5</h2>
<p>.NET 6 起内置了 SOCKS 代理支持。提取时设置 <code>protocol=socks5</code>，把代理地址写成 <code>new WebProxy("socks5://203.0.113.7:40012")</code> 即可，其余代码不变。</p>
<p>完整的 C# 示例工程可以在 <a href="/getProxy/10#code">获取代理页的代码示例区</a> 下载。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1781763540000, // 2026-06-18 14:19 (UTC+8)
    views: 4968,
  },
  {
    id: 119,
    categoryId: 4,
    url: 'scrapy-proxy-middleware',
    title: 'Scrapy 下载中间件接入代理',
    summary: '编写 Scrapy 下载中间件，批量提取代理放入本地池，按剩余有效期淘汰并在连接失败时自动换IP重试。',
    keywords: ['Scrapy', '中间件', 'Downloader Middleware', '爬虫', '代理池'],
    bodyHtml: `<p>在 Scrapy 中，只要给请求设置 <code>request.meta["proxy"]</code>，内置的 HttpProxyMiddleware 就会通过该代理发送请求。我们编写一个下载中间件，负责从提取接口批量获取代理、维护本地代理池，并在连接失败时自动换IP。</p>
<h2>工作流程</h2>
<ol>
<li>请求进入下载器前，process_request 从本地代理池中随机取出一个代理写入 meta；</li>
<li>代理池为空或其中的IP都即将过期时，自动调用提取接口补充一批，并使用“排除使用中”的去重方式，避免拿到仍在使用的IP；</li>
<li>遇到连接超时、连接被拒绝等网络异常时，process_exception 把该代理移出代理池，换一个新代理重新发送请求，最多重试 3 次。</li>
</ol>
<h2>中间件代码（middlewares.py）</h2>
<pre><code class="language-python">import random
import time

import requests


class ExtractProxyMiddleware:
    API = "https://www.example-proxy.cn/extract"

    def __init__(self, key, batch, min_ttl):
        self.key = key
        self.batch = batch
        self.min_ttl = min_ttl
        self.pool = []  # [(代理地址, 本地过期时间戳)]

    @classmethod
    def from_crawler(cls, crawler):
        s = crawler.settings
        return cls(s.get("PROXY_API_KEY"), s.getint("PROXY_BATCH", 10), s.getint("PROXY_MIN_TTL", 60))

    def refill(self):
        params = {"key": self.key, "num": self.batch, "protocol": "http", "format": "json",
                  "fields": "ttl", "min_ttl": self.min_ttl, "dedup": 2}
        data = requests.get(self.API, params=params, timeout=10).json()
        if data["code"] != 0:
            raise RuntimeError(f"提取失败 {data['code']}: {data['msg']}")
        now = time.time()
        self.pool = [(f"http://{x['ip']}:{x['port']}", now + x["ttl"]) for x in data["data"]["list"]]

    def pick(self):
        now = time.time()
        self.pool = [p for p in self.pool if p[1] - now &gt; 15]  # 剩余不足 15 秒的提前淘汰
        if not self.pool:
            self.refill()
        return random.choice(self.pool)[0]

    def process_request(self, request, spider):
        if "proxy" not in request.meta:
            request.meta["proxy"] = self.pick()

    def process_exception(self, request, exception, spider):
        bad = request.meta.get("proxy")
        self.pool = [p for p in self.pool if p[0] != bad]
        retries = request.meta.get("proxy_retry", 0)
        if retries &gt;= 3:
            return None  # 交给后续中间件或错误回调处理
        new_request = request.replace(dont_filter=True)
        new_request.meta["proxy"] = self.pick()
        new_request.meta["proxy_retry"] = retries + 1
        return new_request</code></pre>
<h2>启用中间件（settings.py）</h2>
<pre><code class="language-python">DOWNLOADER_MIDDLEWARES = {
    "myproject.middlewares.ExtractProxyMiddleware": 543,
}
PROXY_API_KEY = "YOUR_KEY"
PROXY_BATCH = 20
PROXY_MIN_TTL = 60</code></pre>
<h2>说明与建议</h2>
<ul>
<li>优先级 543 小于内置 HttpProxyMiddleware 的 750，确保我们先设置好 meta 中的 proxy；</li>
<li>Scrapy 内置代理支持 HTTP/HTTPS 代理，不支持 SOCKS5，提取时请使用 protocol=http；</li>
<li>示例在中间件中用 requests 同步调用提取接口，补充代理池时会短暂阻塞，在一般并发下影响很小；并发很高时可以适当增大 PROXY_BATCH，减少补充次数；</li>
<li>根据站点情况调低 <code>CONCURRENT_REQUESTS_PER_DOMAIN</code>、设置 <code>DOWNLOAD_DELAY</code>，合理控制访问频率，遵守目标网站的访问规则。</li>
</ul>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1782610560000, // 2026-06-28 09:36 (UTC+8)
    views: 9412,
  },
  {
    id: 120,
    categoryId: 4,
    url: 'selenium-playwright-proxy',
    title: 'Selenium 与 Playwright 配置代理',
    summary: '在 Selenium（Chrome）和 Playwright 中为浏览器设置代理IP，以及按上下文切换代理、验证出口IP的方法。',
    keywords: ['Selenium', 'Playwright', '浏览器自动化', 'Chrome', 'proxy-server'],
    bodyHtml: `<p>浏览器自动化工具设置代理时，最麻烦的往往是代理认证：Chrome 的启动参数不支持直接带用户名密码。本平台采用白名单认证，只需把运行浏览器的机器IP加入 <a href="/personalCenter/getAgent/whiteList">白名单</a>，就可以直接指定代理地址，无需任何弹窗或插件。</p>
<h2>Selenium（Chrome）</h2>
<pre><code class="language-python">from selenium import webdriver

proxy = "203.0.113.7:40012"  # 从提取接口获得

options = webdriver.ChromeOptions()
options.add_argument(f"--proxy-server=http://{proxy}")
driver = webdriver.Chrome(options=options)
try:
    driver.get("https://httpbin.org/ip")
    print(driver.find_element("tag name", "body").text)
finally:
    driver.quit()</code></pre>
<p>使用 SOCKS5 时，把参数改为 <code>--proxy-server=socks5://203.0.113.7:40012</code>。Chrome 的代理在启动时确定，同一个浏览器实例运行期间无法更换，需要换IP时请关闭后用新代理重新启动。</p>
<h2>Playwright（Python）</h2>
<pre><code class="language-python">from playwright.sync_api import sync_playwright

with sync_playwright() as p:
    browser = p.chromium.launch(proxy={"server": "http://203.0.113.7:40012"})
    page = browser.new_page()
    page.goto("https://httpbin.org/ip", timeout=30000)
    print(page.inner_text("body"))
    browser.close()</code></pre>
<p>Playwright 还支持为每个浏览器上下文（context）单独设置代理，一个浏览器进程内即可同时使用多个不同的IP，比反复启动浏览器节省大量资源：</p>
<pre><code class="language-python">context = browser.new_context(proxy={"server": "http://198.51.100.23:40031"})
page = context.new_page()</code></pre>
<h2>使用建议</h2>
<ul>
<li>浏览器页面加载耗时较长，建议选择 10 分钟以上的短效IP或长效静态IP，并配合 <code>min_ttl</code> 保证一次会话内IP不会过期；</li>
<li>需要保持登录状态的任务，请在整个会话中使用同一个IP，频繁切换出口容易触发网站的安全验证；</li>
<li>启动后先访问一次查询IP的页面，确认出口IP正确再开始正式任务；</li>
<li>无头模式下页面报 <code>ERR_PROXY_CONNECTION_FAILED</code>，通常是代理已过期或当前机器IP不在白名单中。</li>
</ul>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1783407180000, // 2026-07-07 14:53 (UTC+8)
    views: 8836,
  },
  {
    id: 121,
    categoryId: 5,
    url: 'proxy-troubleshooting',
    title: '代理连接失败排查指南',
    summary: '代理连不上、超时、返回 407 或访问被拒时，按“提取—白名单—有效期—协议—网络—目标站”的顺序逐项排查。',
    keywords: ['连接失败', '超时', '407', '排查', 'ProxyError', 'curl'],
    bodyHtml: `<p>代理使用出现问题时，建议按以下顺序逐项检查，大多数问题在前三步就能找到原因。</p>
<h2>1. 提取是否成功</h2>
<p>先确认提取接口返回的是IP列表而不是错误。返回 <code>code</code> 非 0 或以 <code>ERROR</code> 开头时，按 <a href="/helpDetails/error-codes.html">错误码说明</a> 处理。程序里要先判断错误再解析，否则会把错误信息当作代理地址使用。</p>
<h2>2. 出口IP是否在白名单中</h2>
<p>在<strong>运行程序的那台机器</strong>上执行 <code>curl https://httpbin.org/ip</code>，把结果与 <a href="/personalCenter/getAgent/whiteList">白名单</a> 对比，并确认该条目处于启用状态。刚添加的白名单需要约 1 分钟同步。连接代理时返回 <code>407</code> 或连接被直接拒绝，多数是白名单问题。</p>
<h2>3. IP 是否已经过期</h2>
<p>短效IP的生命周期只有几分钟，提取后放置一段时间再用，很可能已经失效。请在提取时带上 <code>fields=ttl</code> 观察剩余秒数，并使用 <code>min_ttl</code> 只提取剩余时间足够的IP，用完及时更换。</p>
<h2>4. 协议是否匹配</h2>
<p>提取时的 protocol 必须与程序中的代理类型一致：用 <code>protocol=socks5</code> 提取的IP，不能按 HTTP 代理使用，反之亦然。</p>
<h2>5. 用 curl 单独测试</h2>
<p>排除程序本身的问题，直接在命令行测试代理：</p>
<pre><code class="language-bash"># HTTP 代理
curl -v -x http://203.0.113.7:40012 https://httpbin.org/ip --max-time 15
# SOCKS5 代理（由代理端解析域名）
curl -v --socks5-hostname 203.0.113.7:40012 https://httpbin.org/ip --max-time 15</code></pre>
<p>curl 能成功而程序失败，说明问题在代码配置上，请对照对应语言的接入示例检查写法。</p>
<h2>6. 本地网络限制</h2>
<p>部分公司网络、云服务器安全组会限制出站端口，导致连接代理端口超时。可以换一台机器或换一个网络测试，并检查防火墙的出站规则。</p>
<h2>7. 目标网站的限制</h2>
<p>如果代理可以访问其他网站，只有某个网站返回 403、验证码或空白页，说明代理本身正常，是目标网站对访问行为做了限制。请降低访问频率、保持合理的请求头和会话，并遵守目标网站的访问规则。</p>
<h2>仍未解决</h2>
<p>请记录出问题的代理IP、提取时间、报错信息和目标网址，在 <a href="/personalCenter/getAgent/record">提取记录</a> 中找到对应的那次提取，然后联系在线客服，我们会协助进一步排查。</p>`,
    isHot: true,
    showOnBuy: false,
    publishedAt: 1784257800000, // 2026-07-17 11:10 (UTC+8)
    views: 13957,
  },
  {
    id: 122,
    categoryId: 5,
    url: 'record-and-bandwidth',
    title: '提取记录与带宽统计怎么看',
    summary: '在个人中心查看每次API提取的记录和用量图表，以及通过带宽统计了解流量使用情况。',
    keywords: ['提取记录', '带宽统计', '用量', '对账', '个人中心'],
    bodyHtml: `<h2>提取记录</h2>
<p>进入 <a href="/personalCenter/getAgent/record">个人中心 → 提取记录</a>，可以查看你的账户通过API提取代理的历史记录。页面上方的图表展示一段时间内的提取数量走势，下方列表按时间倒序列出每一次提取。可以按日期范围筛选，快速定位某一时段的调用情况。</p>
<p>提取记录主要有以下用途：</p>
<ul>
<li><strong>核对扣量</strong>：按量套餐的余量变化可以和提取记录逐条对应，弄清楚余量用在了哪里；</li>
<li><strong>排查问题</strong>：程序报错时，根据时间找到对应的提取，确认当时提取是否成功、拿到了多少个IP；</li>
<li><strong>发现异常</strong>：如果出现自己没有发起的提取，说明密钥和白名单可能已经泄露，请立即 <a href="/helpDetails/api-key-security.html">重置密钥</a> 并清理白名单；</li>
<li><strong>评估用量</strong>：根据每天的提取量走势，判断当前套餐规格是否合适，为续费或升级提供依据。</li>
</ul>
<h2>带宽统计</h2>
<p>进入 <a href="/personalCenter/getAgent/bandwidth">个人中心 → 带宽统计</a>，可以查看代理使用过程中的带宽和流量情况。图表可以帮助你了解业务的高峰时段，如果发现某个时段带宽明显偏高，可以检查程序是否在下载不必要的资源。</p>
<h2>节省用量的小建议</h2>
<ul>
<li>采集网页时只请求需要的页面，浏览器自动化场景可以屏蔽图片、视频、字体等大文件；</li>
<li>一次提取多个IP并在有效期内充分使用，避免提取后闲置到过期；</li>
<li>使用 <code>min_ttl</code> 避免拿到即将过期的IP，减少因中途失效导致的重复提取；</li>
<li>设置合理的超时和重试次数，避免对不可用的目标无限重试。</li>
</ul>
<p>提取记录和带宽统计的数据仅对本人账户可见。如果对数据有疑问，可以截图后联系在线客服核实。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1785140820000, // 2026-07-27 16:27 (UTC+8)
    views: 4387,
  },
  {
    id: 123,
    categoryId: 5,
    url: 'faq-quick-answers',
    title: '常见问题速查',
    summary: '汇总新用户最常问的问题：IP能否多线程共用、过期后会怎样、能否指定地区、套餐能否转让等。',
    keywords: ['常见问题', 'FAQ', '多线程', 'IP过期', '指定地区'],
    bodyHtml: `<h3>一个代理IP能同时给多个线程使用吗？</h3>
<p>可以。在有效期内，同一个代理可以被多个线程或程序同时使用。但多个任务挤在同一个出口上，更容易触发目标网站的频率限制，建议并发较高时一次提取多个IP分摊请求。</p>
<h3>IP 过期后正在进行的连接会怎样？</h3>
<p>IP 到期后新的连接会失败，已经建立的连接也可能被断开。对于耗时较长的任务，请使用 <a href="/helpDetails/min-ttl-usage.html">min_ttl</a> 提取剩余时间足够的IP，或选择更长时长的规格。</p>
<h3>能指定城市或运营商吗？</h3>
<p>可以。提取时通过 region 指定省或城市，通过 carrier 指定电信、联通或移动，也可以用 exclude 排除某些地区。可用地区见 <a href="/region">热门地区</a> 页面。</p>
<h3>提取到的IP和显示的地区不一致？</h3>
<p>不同的IP查询网站使用的地址库不同，同一个IP在各家网站显示的城市可能存在差异，这属于正常现象。请以实际业务中目标网站的识别结果为准。</p>
<h3>可以在多台服务器上使用同一个套餐吗？</h3>
<p>可以。把每台服务器的公网IP都加入白名单，它们就可以共用同一个密钥和套餐。注意同一个密钥的调用频率是合并计算的，每秒最多 10 次。</p>
<h3>没用完的余量会过期吗？</h3>
<p>套餐均有有效期，请在有效期内使用。每个套餐的有效期可以在 <a href="/personalCenter/packageManager/10">套餐管理</a> 中查看，到期后的处理以购买页说明和《用户协议》为准。建议根据实际用量选择规格，避免余量闲置。</p>
<h3>套餐可以转让给其他账号吗？</h3>
<p>套餐归属于购买它的账号，相关规则以《用户协议》为准。团队使用时，推荐由一个账号统一购买，把各成员服务器的IP加入白名单共同使用，既方便管理又便于统一开票。</p>
<h3>为什么同样的请求，有时快有时慢？</h3>
<p>代理的速度受IP所在地区、目标网站位置、当时的网络状况共同影响。对速度敏感的业务，可以通过 region 选择离目标服务器更近的地区，并给请求设置合理的超时时间，超时后换一个IP重试。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1785901440000, // 2026-08-05 11:44 (UTC+8)
    views: 10268,
  },
  {
    id: 124,
    categoryId: 6,
    url: 'short-vs-long-ip',
    title: '短效动态IP与长效静态IP如何选择',
    summary: '从IP时长、稳定性、适用场景几个维度对比短效动态IP、长效静态IP和固定IP，帮你选对产品。',
    keywords: ['短效IP', '长效IP', '动态IP', '静态IP', '选购', '产品对比'],
    bodyHtml: `<p>选择产品的核心问题是：<strong>你的一次业务操作需要同一个出口IP保持多久？</strong>只需要几次请求，就选短效；需要持续几个小时保持同一身份，就选长效；需要长期固定不变，就选固定IP。</p>
<table>
<thead><tr><th>对比项</th><th>短效动态IP</th><th>长效静态IP</th><th>固定IP</th></tr></thead>
<tbody>
<tr><td>IP时长</td><td>3 / 5 / 10 / 15 / 30 分钟</td><td>1 / 4 / 8 / 12 / 24 小时</td><td>长期独享，按购买周期使用</td></tr>
<tr><td>特点</td><td>IP池大、轮换快，出口分散</td><td>在时长内出口保持不变</td><td>专属使用，地址长期不变</td></tr>
<tr><td>获取方式</td><td>API提取</td><td>API提取</td><td>在长效IP管理中查看</td></tr>
<tr><td>典型场景</td><td>公开数据采集、价格监测、广告验证</td><td>需要保持登录会话的操作、较长的自动化流程</td><td>对接要求固定来源IP的第三方系统、长期运营</td></tr>
</tbody>
</table>
<h2>短效动态IP适合谁</h2>
<p>大量、分散的请求，每个请求或每组请求之间没有关联，例如采集公开的商品价格、检查广告在不同地区的展示情况。IP 轮换快，单个IP的请求量小，不容易触发目标网站的频率限制。时长的选择取决于单个任务的耗时：一次请求就结束，选 3 分钟或 5 分钟；需要连续翻页或浏览器加载，可以选 10～30 分钟。</p>
<h2>长效静态IP适合谁</h2>
<p>业务需要在一段时间内保持同一身份，例如登录后的连续操作、需要较长时间运行的浏览器自动化任务、SEO 排名查询等。频繁切换IP反而会引起目标网站的安全验证，这类场景选择 1～24 小时的长效IP更稳定。</p>
<h2>固定IP适合谁</h2>
<p>需要长期使用同一个出口地址的场景，例如对方系统只允许固定IP访问的接口对接、需要长期稳定环境的业务运营。固定IP独享使用，到期前可续费继续使用。</p>
<h2>仍拿不准？</h2>
<p>建议先小量购买短效动态IP测试，观察目标网站对IP切换的反应；如果频繁出现验证或会话中断，再改用长效静态IP。有大批量或特殊地区需求时，可以了解 <a href="/helpDetails/fixed-and-enterprise-ip.html">优质/企业定制IP</a>，或在 <a href="/firmsServer">企业服务</a> 页面联系商务顾问。</p>`,
    isHot: true,
    showOnBuy: true,
    publishedAt: 1786784460000, // 2026-08-15 17:01 (UTC+8)
    views: 14215,
  },
  {
    id: 125,
    categoryId: 6,
    url: 'fixed-and-enterprise-ip',
    title: '固定IP与优质/企业定制IP介绍',
    summary: '固定IP的购买、查看、备注与续费方式，以及面向企业的优质/定制IP服务如何咨询与开通。',
    keywords: ['固定IP', '企业定制', '优质IP', '独享IP', '长效IP管理'],
    bodyHtml: `<h2>固定IP</h2>
<p>固定IP是分配给你独享使用的长期IP，在购买周期内地址保持不变，适合需要长期稳定出口的业务，例如对接只允许固定来源IP访问的合作方接口、长期运营的业务系统等。</p>
<h3>如何购买</h3>
<p>打开 <a href="/buy?type=30">固定IP购买页</a>，选择地区、数量与购买周期，完成微信扫码支付后即可分配。具体可选地区与价格以购买页显示为准。</p>
<h3>如何查看与管理</h3>
<p>固定IP不需要通过API提取，购买成功后进入 <a href="/personalCenter/ipManager/30">个人中心 → 长效IP管理</a> 即可看到分配给你的IP列表。在这里可以：</p>
<ul>
<li>查看每个IP的地址、端口、所在地区和到期时间；</li>
<li>为IP添加备注，标明用途或对应的业务账号，方便多人协作时区分；</li>
<li>查看IP的使用记录和地区分布；</li>
<li>在到期前续费，续费后地址保持不变。</li>
</ul>
<p>账户面板中的固定IP一栏，已有IP时显示“去查看”，没有时显示“去购买”。固定IP同样使用白名单认证，使用前请确保服务器IP已加入 <a href="/personalCenter/getAgent/whiteList">白名单</a>。</p>
<h2>优质/企业定制IP</h2>
<p>对于用量大、对地区覆盖或稳定性有特殊要求的企业客户，我们提供优质IP与企业定制服务，可以根据业务需求在IP类型、地区、数量、使用时长等方面进行定制。</p>
<h3>如何开通</h3>
<ol>
<li>访问 <a href="/firmsServer">企业服务</a> 页面了解服务内容，或直接打开 <a href="/buy?type=50">优质/企业定制IP</a> 页面；</li>
<li>通过页面上的联系方式或在线客服提交需求，说明业务场景、预计用量和地区要求；</li>
<li>商务顾问确认方案和报价后，按约定方式开通。</li>
</ol>
<p>企业客户建议先完成 <a href="/personalCenter/realNameAuth">企业实名认证</a>，便于后续对公付款和开具发票。服务的具体内容、价格与交付方式以双方确认的方案为准。</p>`,
    isHot: false,
    showOnBuy: true,
    publishedAt: 1787548680000, // 2026-08-24 13:18 (UTC+8)
    views: 6734,
  },
  {
    id: 126,
    categoryId: 6,
    url: 'business-scenarios',
    title: '代理IP的典型业务场景与产品搭配',
    summary: '数据采集、广告验证、市场调研、SEO、新媒体矩阵、价格监测、金融数据、网站测试等场景分别适合哪种产品。',
    keywords: ['业务场景', '数据采集', '广告验证', '价格监测', 'SEO', '网站测试'],
    bodyHtml: `<p>代理IP本质上是为你的业务提供分布在各地的网络出口。不同场景对IP时长、地区和稳定性的要求不同，下面按常见场景给出产品搭配建议，各场景的详细介绍可以在顶部导航“业务场景”中查看。</p>
<h2>数据采集</h2>
<p>采集公开的网页信息时，请求量大且彼此独立，推荐使用短效动态IP，开启当日去重或排除使用中，把请求分摊到大量不同出口上。参考：<a href="/businessScen/dataCrawl">数据采集</a>。</p>
<h2>广告验证</h2>
<p>需要从不同地区查看广告的实际展示效果，核实投放是否准确。使用短效动态IP并通过 region 指定目标地区即可。参考：<a href="/businessScen/adVerification">广告验证</a>。</p>
<h2>市场调研与价格监测</h2>
<p>定期查看各地区的商品信息与价格变化，任务周期性强。推荐短效动态IP配合定时任务，按地区分别提取。参考：<a href="/businessScen/marketResearch">市场调研</a>、<a href="/businessScen/priceMonitoring">价格监测</a>。</p>
<h2>SEO 优化</h2>
<p>查看网站在不同城市的搜索排名与收录情况，单次查询往往需要翻页和较长的页面加载，推荐 10 分钟以上的短效IP或长效静态IP。参考：<a href="/businessScen/seoOptimization">SEO优化</a>。</p>
<h2>新媒体矩阵</h2>
<p>多个账号的日常运营需要各自保持稳定的网络环境，推荐长效静态IP或固定IP，并让每个账号长期使用同一出口。参考：<a href="/businessScen/mediaMatrix">新媒体矩阵</a>。</p>
<h2>金融数据与网站测试</h2>
<p>获取公开的金融行情资讯，对稳定性要求高，推荐长效静态IP；测试网站在不同地区、不同运营商网络下的访问速度和可用性，推荐短效动态IP配合 region 与 carrier 参数。参考：<a href="/businessScen/financialData">金融数据</a>、<a href="/businessScen/websiteTesting">网站测试</a>。</p>
<h2>合规使用</h2>
<p>无论何种场景，请遵守法律法规和目标网站的访问规则，控制访问频率，不得将代理用于任何违法违规用途，具体要求见 <a href="/userAgreement">《用户协议》</a>。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1788428100000, // 2026-09-03 17:35 (UTC+8)
    views: 5582,
  },
  {
    id: 127,
    categoryId: 7,
    url: 'count-vs-time-billing',
    title: '按量计费与包天计费的区别',
    summary: '按量套餐按提取的IP个数扣减，包天套餐在有效期内按规格持续提取。结合用量特点选择更划算的计费方式。',
    keywords: ['计费方式', '按量', '包天', '套餐', '余量', '补量'],
    bodyHtml: `<p>短效动态IP和长效静态IP都提供两种计费方式：<strong>按量</strong>（数量套餐）和<strong>包天</strong>（时间套餐）。两者可选的IP时长相同，区别在于用量的计算方式。</p>
<h2>按量计费</h2>
<p>购买一定数量的IP，每成功提取一个IP就从余量中扣减一个，余量用完即止，在套餐有效期内可以随时使用。</p>
<ul>
<li><strong>优点</strong>：用多少扣多少，不用的时候不会浪费；</li>
<li><strong>适合</strong>：用量不稳定、间歇性使用、刚开始测试的用户；</li>
<li><strong>注意</strong>：余量为 0 时，账户面板会显示“去购买”，需要再次购买。</li>
</ul>
<h2>包天计费</h2>
<p>在购买的时长内持续提取，提取数量受所购规格的提取上限约束，具体以购买页的规格说明为准。</p>
<ul>
<li><strong>优点</strong>：用量大且稳定时无需频繁下单，预算也更容易规划，两种方式的价格可以在购买页直接对比；</li>
<li><strong>适合</strong>：每天都有稳定采集任务、需要持续运行的业务；</li>
<li><strong>注意</strong>：提取额度用完而套餐仍在有效期内时，账户面板会显示“去补量”，可以补充额度继续使用；套餐到期后需要续费。</li>
</ul>
<h2>如何选择</h2>
<table>
<thead><tr><th>你的情况</th><th>建议</th></tr></thead>
<tbody>
<tr><td>第一次使用，想先测试</td><td>按量，少量购买</td></tr>
<tr><td>每周只跑几次任务</td><td>按量</td></tr>
<tr><td>每天固定大量提取</td><td>包天</td></tr>
<tr><td>用量波动大，偶尔有高峰</td><td>包天套餐满足日常用量，高峰期额外补量或搭配按量套餐</td></tr>
</tbody>
</table>
<p>可以先用按量套餐跑一两周，在 <a href="/personalCenter/getAgent/record">提取记录</a> 中统计每天的实际用量，再决定是否转为包天套餐。</p>
<h2>多个套餐同时存在时</h2>
<p>账户中可以同时拥有多个套餐，提取时可以通过 <code>package</code> 参数指定从哪个套餐扣量，建议在程序中显式指定，便于核对用量。各规格的价格、优惠和有效期以购买页显示为准。</p>`,
    isHot: false,
    showOnBuy: true,
    publishedAt: 1789278720000, // 2026-09-13 13:52 (UTC+8)
    views: 11874,
  },
  {
    id: 128,
    categoryId: 7,
    url: 'renew-topup-upgrade',
    title: '如何续费、补量与升级套餐',
    summary: '在套餐管理与长效IP管理中为套餐续费、为包天套餐补充额度、调整规格或合并套餐的操作方法。',
    keywords: ['续费', '补量', '升级', '合并套餐', '套餐管理', '到期'],
    bodyHtml: `<p>套餐快用完或即将到期时，不必重新下单，可以直接在个人中心续费、补量或升级，原有的套餐ID和使用配置保持不变。</p>
<h2>续费</h2>
<p>适用于包天套餐、长效静态IP和固定IP，用于延长有效期。</p>
<ol>
<li>进入 <a href="/personalCenter/packageManager/10">套餐管理</a>（固定IP请进入 <a href="/personalCenter/ipManager/30">长效IP管理</a>）；</li>
<li>在需要续费的套餐或IP所在行点击“续费”，选择续费时长；</li>
<li>确认金额后微信扫码支付，支付成功后到期时间自动顺延。</li>
</ol>
<p>建议在到期前完成续费。固定IP到期未续费的，原地址可能被回收，届时不保证还能续用同一地址。</p>
<h2>补量</h2>
<p>适用于包天套餐：套餐仍在有效期内，但提取额度已经用完，这时账户面板会显示“去补量”。在套餐管理中点击“补量”，选择要补充的数量，页面会显示对应的价格，支付后额度立即增加，无需等待。</p>
<p>按量套餐余量用完后，直接再次购买即可，新购买的套餐会出现在套餐列表中。</p>
<h2>升级</h2>
<p>业务变化时，可以在套餐管理中对套餐进行升级，例如把IP时长调整为更长的规格，或者把多个同类套餐合并为一个，便于统一管理和提取。升级页面会列出可选的规格和需要补交的差价，确认后支付即可生效。</p>
<h2>订单与付款记录</h2>
<p>续费、补量、升级都会生成订单，可以在 <a href="/personalCenter/orderManager">订单管理</a> 中查看。如果支付过程中关闭了弹窗，订单会显示为待支付，可以在订单管理中继续支付；不需要的待支付订单可以删除。</p>
<h2>注意事项</h2>
<ul>
<li>所有价格以页面实时显示为准，优惠券可在支付前选择使用；</li>
<li>续费、补量、升级对正在使用的代理没有影响，程序无需修改；</li>
<li>退款规则按 <a href="/userAgreement">《用户协议》</a> 执行。</li>
</ul>`,
    isHot: false,
    showOnBuy: true,
    publishedAt: 1790042940000, // 2026-09-22 10:09 (UTC+8)
    views: 7925,
  },
  {
    id: 129,
    categoryId: 7,
    url: 'invoice-and-corporate-payment',
    title: '发票与对公付款',
    summary: '线上支付方式说明，对公转账与发票的申请流程，以及开票前需要准备的资料。',
    keywords: ['发票', '对公付款', '对公转账', '开票', '企业认证'],
    bodyHtml: `<h2>线上支付方式</h2>
<p>网站目前支持微信扫码支付。下单后页面会弹出支付二维码，使用微信扫码即可完成付款，付款成功后套餐自动生效。个人用户和中小企业直接在线支付最为便捷。</p>
<h2>对公付款</h2>
<p>企业客户如果因为财务流程需要通过对公转账付款，请按以下步骤办理：</p>
<ol>
<li>完成 <a href="/personalCenter/realNameAuth">企业实名认证</a>，确保付款公司与认证主体一致；</li>
<li>联系你的专属商务顾问（“获取代理”面板中显示其联系电话）或在线客服，说明需要购买的产品、规格和数量；</li>
<li>按客服提供的收款信息进行转账，并在转账备注中注明注册手机号或订单号；</li>
<li>到账确认后，由客服协助开通对应的套餐。</li>
</ol>
<p>请只向客服在官方渠道提供的收款账户转账，任何个人账户、私下转账的要求都请不要相信，如有疑问先联系在线客服核实。</p>
<h2>申请发票</h2>
<p>已支付完成的订单可以申请开具发票，请联系在线客服或商务顾问提交申请，并准备好以下信息：</p>
<ul>
<li>需要开票的订单号（可在 <a href="/personalCenter/orderManager">订单管理</a> 中查看）；</li>
<li>发票抬头与纳税人识别号，企业抬头应与企业实名认证的主体一致；</li>
<li>接收发票的电子邮箱或邮寄地址。</li>
</ul>
<p>开票金额、发票类型、开具时限等具体事项，以客服确认为准。</p>
<h2>常见问题</h2>
<p><strong>个人认证的账号能开企业发票吗？</strong>企业抬头需要与认证主体一致，建议先完成企业认证再申请。</p>
<p><strong>多笔订单能合并开票吗？</strong>可以在申请时一并提供多个订单号，由客服确认后处理。</p>`,
    isHot: false,
    showOnBuy: true,
    publishedAt: 1790925960000, // 2026-10-02 15:26 (UTC+8)
    views: 6310,
  },
  {
    id: 130,
    categoryId: 7,
    url: 'coupons-and-red-packets',
    title: '优惠券与红包使用说明',
    summary: '优惠券的获取、查看与下单使用方法，以及活动红包的领取说明和常见问题。',
    keywords: ['优惠券', '红包', '活动', '折扣', '下单优惠'],
    bodyHtml: `<h2>优惠券从哪里来</h2>
<p>优惠券主要来自平台活动、新用户福利、活动红包等渠道。获得的优惠券会自动放入账户，可以在 <a href="/personalCenter/couponManager">个人中心 → 优惠券</a> 中查看，包括面额或折扣、使用门槛、适用产品和有效期。</p>
<h2>如何使用优惠券</h2>
<ol>
<li>在购买页选择产品和规格；</li>
<li>结算区域会列出本单可用的优惠券，选择要使用的一张；</li>
<li>确认优惠后的应付金额，完成微信扫码支付。</li>
</ol>
<p>续费、补量、升级等订单如果满足优惠券的使用条件，同样可以在支付前选择使用。</p>
<h2>使用规则</h2>
<ul>
<li>有效期、适用产品、使用门槛等以券面说明为准；</li>
<li>不满足使用条件的优惠券在下单时不会出现在可选列表中；</li>
<li>过期的优惠券会自动失效，请留意有效期，尽早使用；</li>
<li>优惠券仅供本账户在下单时抵扣使用，其他限制以券面和活动规则为准；</li>
<li>使用了优惠券的订单如发生退款，按 <a href="/userAgreement">《用户协议》</a> 的约定处理。</li>
</ul>
<h2>活动红包</h2>
<p>平台会不定期推出红包活动。活动期间登录网站，页面会弹出红包提示，点击即可领取，领取到的奖励会以优惠券或赠送余量等形式发放到账户中，具体以活动页面说明为准。每个活动的领取次数、参与条件和有效期各不相同，请以活动规则为准。</p>
<h2>常见问题</h2>
<p><strong>为什么看不到可用的优惠券？</strong>请检查优惠券是否在有效期内、是否适用于当前产品、订单金额是否达到使用门槛。</p>
<p><strong>购买页的折扣标签和优惠券能一起用吗？</strong>规格上显示的“折扣”“赠量”是套餐本身的优惠，能否与优惠券叠加以结算页显示的金额为准。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1791686580000, // 2026-10-11 10:43 (UTC+8)
    views: 5046,
  },
  {
    id: 131,
    categoryId: 8,
    url: 'why-real-name',
    title: '为什么需要实名认证',
    summary: '购买代理IP前需要实名认证的原因、个人与企业认证的区别，以及认证信息的保护方式。',
    keywords: ['实名认证', '实名制', '网络安全法', '个人信息保护', '企业认证'],
    bodyHtml: `<h2>实名认证是法定要求</h2>
<p>代理IP属于网络接入相关服务。根据《中华人民共和国网络安全法》等法律法规关于网络服务实名制的要求，服务提供者在为用户提供服务时，应当要求用户提供真实身份信息；用户不提供真实身份信息的，不得为其提供相关服务。因此，所有用户在购买前都需要完成实名认证。</p>
<h2>实名认证对你的好处</h2>
<ul>
<li><strong>保护账户安全</strong>：账户与真实身份绑定，遇到账号被盗、密码遗失等情况时，可以凭身份信息找回和申诉；</li>
<li><strong>保障资产归属</strong>：套餐、余额、佣金等权益与认证主体绑定，权属清晰；</li>
<li><strong>净化使用环境</strong>：实名制能够有效减少滥用行为，使IP资源更干净，降低被目标网站限制的概率，最终受益的是每一位正常使用的用户。</li>
</ul>
<h2>个人认证与企业认证</h2>
<table>
<thead><tr><th>类型</th><th>认证方式</th><th>适合</th></tr></thead>
<tbody>
<tr><td>个人认证</td><td>填写姓名与身份证号，手机扫码完成人脸核验</td><td>个人开发者、个人用户</td></tr>
<tr><td>企业认证</td><td>填写企业信息并上传营业执照，人工审核</td><td>以公司名义采购、需要对公付款或企业发票的用户</td></tr>
</tbody>
</table>
<p>两种认证任选其一即可购买。认证后，账户面板会显示“个人已认证”或“企业已认证”。操作步骤见 <a href="/helpDetails/register-and-verify.html">注册账号与完成实名认证</a>。</p>
<h2>你的信息如何被保护</h2>
<p>认证信息用于核验身份和履行法定义务。个人信息的收集、存储、使用和保护规则，详见 <a href="/privacyPolicy">《隐私政策》</a>。认证前请仔细阅读，如对个人信息处理有疑问，可以联系在线客服咨询。</p>
<h2>使用规范</h2>
<p>实名认证后，账户下的所有使用行为由认证主体负责。请勿出借、出租账号，不得利用代理从事违法违规活动，具体要求见 <a href="/userAgreement">《用户协议》</a>。</p>`,
    isHot: false,
    showOnBuy: true,
    publishedAt: 1792569600000, // 2026-10-21 16:00 (UTC+8)
    views: 9683,
  },
  {
    id: 132,
    categoryId: 8,
    url: 'rebate-rules',
    title: '推广返利规则说明',
    summary: '如何获取专属推广链接、邀请关系如何绑定、佣金明细在哪里查看，以及推广中需要遵守的规则。',
    keywords: ['推广返利', '邀请', '佣金', '推广链接', '返利规则'],
    bodyHtml: `<p>推广返利是平台为用户提供的邀请奖励计划：你把专属推广链接分享给有需要的朋友或客户，对方通过链接注册并购买后，你可以获得相应比例的佣金。</p>
<h2>如何参与</h2>
<ol>
<li>登录后进入 <a href="/personalCenter/promotionRebate">个人中心 → 推广返利</a>；</li>
<li>生成并复制你的专属推广链接，页面同时提供可直接使用的推广素材；</li>
<li>把链接分享到你的博客、技术社群、客户沟通渠道等合适的场合。</li>
</ol>
<p>也可以先在 <a href="/rebate">推广返利活动页</a> 了解计划的整体介绍。</p>
<h2>邀请关系如何绑定</h2>
<p>被邀请人通过你的推广链接访问网站后，推广信息会在其浏览器中保留 30 天。在这 30 天内完成注册，即与你建立邀请关系。如果对方清除了浏览器数据、换了设备，或者超过 30 天才注册，邀请关系可能无法建立，建议提醒对方通过链接直接注册。</p>
<p>打开推广链接时如果提示“推广链接有误，请联系客服”，说明链接不完整或已失效，请重新复制完整的链接。</p>
<h2>佣金与明细</h2>
<ul>
<li>在推广返利页面的“邀请明细”中，可以看到通过你的链接注册的用户（手机号已做脱敏处理）；</li>
<li>“佣金明细”列出每一笔佣金的来源订单、金额和时间；</li>
<li>返利比例、结算周期和提现方式以推广返利页面公布的规则为准。</li>
</ul>
<h2>推广规范</h2>
<ul>
<li>禁止邀请自己的其他账号、通过虚假注册或刷单获取佣金；</li>
<li>禁止以群发垃圾信息、冒充官方、虚假宣传等方式推广；</li>
<li>推广内容应真实描述产品，不得承诺页面之外的价格或服务；</li>
<li>违反推广规范的处理方式，以推广返利页面公布的规则和《用户协议》为准。</li>
</ul>
<p>对邀请关系或佣金有疑问，可以联系在线客服核实。</p>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1793420220000, // 2026-10-31 12:17 (UTC+8)
    views: 7158,
  },
  {
    id: 133,
    categoryId: 8,
    url: 'account-security',
    title: '账号安全：修改密码与更换手机号',
    summary: '如何修改登录密码、更换绑定手机号，以及登录过期、账号异常时的处理方法。',
    keywords: ['修改密码', '更换手机号', '账号安全', '登录过期', '找回账号'],
    bodyHtml: `<h2>修改登录密码</h2>
<ol>
<li>登录后点击右上角的手机号打开账户面板，进入个人中心；</li>
<li>在账户设置中选择“修改密码”；</li>
<li>按提示完成验证，输入新密码并确认。</li>
</ol>
<p>建议使用 8 位以上、同时包含字母和数字的密码，不要与其他网站使用相同的密码。修改成功后，其他设备上的登录状态可能需要重新登录。</p>
<h2>更换绑定手机号</h2>
<p>手机号是登录账号和接收验证码的凭证。原手机号停用前，请及时更换：</p>
<ol>
<li>在账户设置中选择“更换手机号”；</li>
<li>先通过原手机号接收验证码完成身份验证；</li>
<li>输入新手机号并填写新手机收到的验证码，提交后即完成更换。</li>
</ol>
<p>更换后请使用新手机号登录。如果原手机号已经无法接收短信，请联系在线客服，按要求提供实名认证相关信息进行人工核验。</p>
<h2>为什么提示“登录已过期”</h2>
<p>出于安全考虑，登录状态有一定的有效期。长时间未操作、在其他地方修改了密码，或者清除了浏览器 Cookie，都会提示登录已过期，重新登录即可，你的套餐和数据不受影响。</p>
<h2>账号安全建议</h2>
<ul>
<li>不要把账号借给他人使用，也不要在公共电脑上保存登录状态，使用完请退出登录；</li>
<li>任何人以客服名义索要密码或短信验证码都是诈骗，官方不会索要这些信息；</li>
<li>定期检查 <a href="/personalCenter/getAgent/whiteList">白名单</a> 和 <a href="/personalCenter/getAgent/record">提取记录</a>，发现陌生IP或异常提取时，立即修改密码并 <a href="/helpDetails/api-key-security.html">重置API提取密钥</a>；</li>
<li>注册时提示“账号不可用”或账号被限制使用时，请联系在线客服处理。</li>
</ul>`,
    isHot: false,
    showOnBuy: false,
    publishedAt: 1794213240000, // 2026-11-09 16:34 (UTC+8)
    views: 4472,
  },
];

export const newsArticles: NewsArticleSeed[] = [
  {
    id: 501,
    url: 'news-new-personal-center',
    title: '新版个人中心上线：套餐、订单与白名单一站式管理',
    summary: '个人中心完成改版，套餐管理、长效IP管理、订单管理、API提取与白名单集中在同一侧边栏中。',
    bodyHtml: `<p>新版个人中心今日正式上线。套餐管理、长效IP管理、订单管理、优惠券、API提取、白名单、提取记录等功能统一收纳在左侧导航中，常用操作最多两步即可到达。</p>
<p>账户面板同步升级：点击右上角手机号即可查看认证状态和各类套餐的余量，并可直接“去提取”“去补量”或“去购买”。旧版个人中心的链接会自动跳转到新页面，原有收藏无需修改。</p>
<p>欢迎体验，如有建议可通过在线客服反馈。</p>`,
    publishedAt: 1768183200000, // 2026-01-12 10:00 (UTC+8)
  },
  {
    id: 502,
    url: 'news-min-ttl-parameter',
    title: '提取接口新增 min_ttl 参数，按剩余有效期筛选IP',
    summary: '提取时可指定 min_ttl，只返回剩余有效期不少于指定秒数的IP，减少任务中途IP过期的情况。',
    bodyHtml: `<p>为解决长任务执行到一半代理过期的问题，提取接口新增 <code>min_ttl</code> 参数。设置后，接口只返回剩余有效期不少于该秒数的IP，例如 <code>min_ttl=120</code> 表示每个IP至少还能使用 2 分钟。</p>
<p>配合 <code>fields=ttl</code> 返回每个IP的剩余秒数，可以方便地在本地维护代理池、提前淘汰即将过期的IP。详细用法见帮助中心文章 <a href="/helpDetails/min-ttl-usage.html">min_ttl 参数：只提取剩余寿命足够的IP</a>。</p>`,
    publishedAt: 1772091000000, // 2026-02-26 15:30 (UTC+8)
  },
  {
    id: 503,
    url: 'news-code-samples-download',
    title: '多语言接入示例开放下载',
    summary: '获取代理页新增代码示例区，提供 Node.js、C#、Python、Java、Kotlin、PHP、Go、易语言示例工程下载。',
    bodyHtml: `<p>为帮助开发者更快完成接入，<a href="/getProxy/10#code">获取代理页</a> 新增代码示例区，提供 Node.js、C#、Python、Java、Kotlin、PHP、Go 和易语言的示例工程，下载后替换自己的API提取密钥即可运行。</p>
<p>示例涵盖调用提取接口、解析返回结果、通过代理发起请求和错误处理等完整流程。帮助中心“各语言接入示例”栏目也同步更新了图文教程。</p>`,
    publishedAt: 1774839600000, // 2026-03-30 11:00 (UTC+8)
  },
  {
    id: 504,
    url: 'news-whitelist-batch-manage',
    title: '白名单支持启停开关与批量删除',
    summary: '白名单页面新增启用/停用开关与批量删除，并可一键添加当前IP。',
    bodyHtml: `<p>白名单管理迎来多项改进：</p>
<ul>
<li>每条白名单新增启用/停用开关，临时下线某台服务器时无需删除记录；</li>
<li>支持勾选多条后批量删除；</li>
<li>页面显示当前访问网站所用的公网IP，可一键加入白名单；</li>
<li>每条白名单支持填写备注，方便区分用途。</li>
</ul>
<p>前往 <a href="/personalCenter/getAgent/whiteList">白名单</a> 页面体验。</p>`,
    publishedAt: 1778203800000, // 2026-05-08 09:30 (UTC+8)
  },
  {
    id: 505,
    url: 'news-long-static-durations',
    title: '长效静态IP提供 1/4/8/12/24 小时多档时长',
    summary: '长效静态IP时长选项调整为 1、4、8、12、24 小时五档，按量与包天套餐均可选择。',
    bodyHtml: `<p>根据用户反馈，长效静态IP的时长选项调整为 1、4、8、12、24 小时五档，适合需要在较长时间内保持同一出口的业务，例如登录后的连续操作、长时间运行的自动化任务等。</p>
<p>按量与包天两种计费方式均可选择以上时长，价格以 <a href="/buy?type=40">购买页</a> 显示为准。不确定该选哪种产品，可以参考 <a href="/helpDetails/short-vs-long-ip.html">短效动态IP与长效静态IP如何选择</a>。</p>`,
    publishedAt: 1781762400000, // 2026-06-18 14:00 (UTC+8)
  },
  {
    id: 506,
    url: 'news-bandwidth-statistics',
    title: '个人中心上线带宽统计',
    summary: '在个人中心“带宽统计”中可以查看代理使用的带宽与流量走势，方便评估用量。',
    bodyHtml: `<p>个人中心新增 <a href="/personalCenter/getAgent/bandwidth">带宽统计</a> 页面，以图表形式展示代理使用过程中的带宽和流量走势，帮助你了解业务高峰时段、评估套餐规格是否合适。</p>
<p>结合 <a href="/personalCenter/getAgent/record">提取记录</a>，可以更完整地掌握账户的用量情况。</p>`,
    publishedAt: 1785895200000, // 2026-08-05 10:00 (UTC+8)
  },
  {
    id: 507,
    url: 'news-city-coverage-expanded',
    title: '国内节点覆盖扩展至 300+ 城市',
    summary: '动态与静态IP节点覆盖城市扩展至 300 个以上，提取时可按省份、城市和运营商筛选。',
    bodyHtml: `<p>经过持续的资源建设，国内代理节点覆盖城市已扩展至 300 个以上，电信、联通、移动三大运营商线路均有覆盖。</p>
<p>提取时可通过 <code>region</code> 指定省份或城市、通过 <code>carrier</code> 指定运营商，也可以用 <code>exclude</code> 排除不需要的地区。当前可用地区可在 <a href="/region">热门地区</a> 页面查看。</p>`,
    publishedAt: 1790064000000, // 2026-09-22 16:00 (UTC+8)
  },
  {
    id: 508,
    url: 'news-help-center-revamp',
    title: '帮助中心全新改版',
    summary: '帮助中心按“使用教程”和“产品与功能”重新整理，新增站内搜索和多篇接入教程。',
    bodyHtml: `<p>帮助中心完成改版，文章按“使用教程”和“产品与功能”两大板块重新整理，覆盖新手入门、API提取、白名单、各语言接入示例、计费与套餐、账户与实名等内容。</p>
<p>新版帮助中心支持关键词搜索，输入“白名单”“错误码”“Scrapy”等关键词即可快速找到相关文章。访问 <a href="/help">帮助中心</a> 开始使用，如果没有找到需要的答案，欢迎联系在线客服。</p>`,
    publishedAt: 1794277800000, // 2026-11-10 10:30 (UTC+8)
  },
];
