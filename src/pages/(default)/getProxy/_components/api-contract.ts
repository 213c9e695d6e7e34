// The extraction API contract as the help centre documents it (articles 105-107): parameters, fields and error codes.

export const EXTRACT_ENDPOINT = 'https://www.example-proxy.cn/extract';

export const EXTRACT_PARAMS: [string, string, string, string][] = [
  ['key', '二选一', 'API提取密钥', '密钥模式：在个人中心“API提取”页查看，用于识别账户。'],
  [
    'uid + token',
    '二选一',
    '账号ID + AES令牌',
    'AES令牌模式：不传 key，令牌证明您持有密钥，5分钟内有效、只能用一次（见下方“认证方式”）。',
  ],
  ['num', '必填', '1～200', '本次提取的IP数量，超出范围返回 1006。'],
  ['protocol', '可选', 'http / https / socks5', '代理协议，须与程序中的代理类型一致。'],
  ['format', '可选', 'txt / json', '返回格式，程序解析推荐 json。'],
  ['sep', '可选', '1～5', '仅 TXT：1 为 \\r\\n，2 为 \\n，3 为空格，4 为 |，5 为自定义。'],
  ['sep_text', 'sep=5 时必填', '自定义字符', '自定义分隔符，例如 sep=5&sep_text=%3B。'],
  ['region', '可选', '省或城市名，逗号分隔', '只提取指定地区，如 广东省,杭州市。'],
  ['exclude', '可选', '省或城市名，逗号分隔', '排除指定地区，可与 region 同用。'],
  ['carrier', '可选', '电信 / 联通 / 移动', '只提取指定运营商的IP。'],
  ['dedup', '可选', '0 / 1 / 2', '0 不去重，1 当日去重，2 排除使用中。'],
  ['min_ttl', '可选', '秒数', '只返回剩余有效期不少于该秒数的IP。'],
  ['fields', '可选', 'region,carrier,expire,ttl', '需要附带返回的信息，可任意组合。'],
  ['package', '可选', '套餐ID', '指定扣量套餐，账户有多个套餐时建议填写。'],
];

export const EXTRACT_ERRORS: [string, string, string][] = [
  ['1001', '密钥无效', 'key 不完整或已重置，请重新复制。'],
  ['1002', '调用IP不在白名单', '把调用机器的公网IP加入白名单，或启用已停用的条目。'],
  ['1003', '套餐不存在或已过期', '核对 package 参数或续费。'],
  ['1004', '套餐余量不足', '补量、购买新套餐或减小 num。'],
  ['1005', '请求过于频繁', '同一密钥每秒最多 10 次，改为单次多取；可稍后重试。'],
  ['1006', '参数错误', 'num、protocol、carrier、sep_text、min_ttl 等取值不合法。'],
  ['1007', '暂无满足条件的IP', '放宽地区、运营商、去重或 min_ttl 条件后重试。'],
  ['1008', '令牌无效', 'uid、AES Key/IV 或令牌内的提取密钥不对；重置密钥后需用新的 Key/IV 与密钥。'],
  ['1009', '令牌已过期', '令牌时间戳与服务器相差超过5分钟，请校准服务器时钟并重新生成。'],
  ['1010', '令牌已使用', '每个令牌只能用一次，每次调用前重新生成。'],
  ['1011', '密钥错误次数过多', '同一调用IP 1 分钟内密钥或令牌错误 20 次后暂停 1 分钟，请核对 key 或令牌后再试。'],
];

/** How a token is made (docs/decisions/045): shown on the get-proxy page, followed by every code sample. */
export const TOKEN_RECIPE = `明文  = {"k":"<提取密钥>","t":<当前毫秒时间戳>}     UTF-8 JSON
密文  = AES-128-CBC(Key, IV, PKCS#7 填充)(明文)      Key、IV 为账户面板“密钥”中的16位字符
token = Base64(密文)                                  放进URL时需URL编码
GET ${EXTRACT_ENDPOINT}?uid=<账号ID>&token=<token>&num=10`;

export const PROXY_AUTH_SAMPLE = `# 白名单认证：本机公网IP已在白名单中
curl -x http://IP:端口 https://example.com
# 账号密码认证：账号密码在个人中心“API提取”页查看
curl -x http://代理账号:代理密码@IP:端口 https://example.com
curl -x socks5h://代理账号:代理密码@IP:端口 https://example.com`;

export const JSON_SAMPLE = `{
  "code": 0,
  "msg": "成功",
  "data": {
    "count": 2,
    "list": [
      {"ip": "203.0.113.7", "port": 40012, "protocol": "http", "region": "广东省深圳市", "carrier": "电信", "expire_at": "2026-11-22 12:00:00", "ttl": 287},
      {"ip": "198.51.100.23", "port": 40031, "protocol": "http", "region": "浙江省杭州市", "carrier": "联通", "expire_at": "2026-11-22 12:02:10", "ttl": 417}
    ]
  }
}`;

export const CODE_SAMPLES: { file: string; label: string; note: string }[] = [
  { file: 'python', label: 'Python', note: 'urllib 标准库，Python 3.8+；AES令牌模式需 cryptography' },
  { file: 'node', label: 'Node.js', note: '内置 http/tls 模块，零依赖，Node 18+' },
  { file: 'java', label: 'Java', note: 'java.net.http.HttpClient，JDK 11+' },
  { file: 'kotlin', label: 'Kotlin', note: 'JVM HttpClient，单文件运行' },
  { file: 'go', label: 'Go', note: 'net/http，零依赖' },
  { file: 'php', label: 'PHP', note: 'cURL 扩展' },
  { file: 'CSharp', label: 'C#', note: '.NET 8 HttpClient + WebProxy' },
  { file: 'easy', label: '易语言', note: '精易模块示例源码' },
];
