<?php
/**
 * 代理IP提取 + 使用示例（PHP 7.0+，使用 cURL 扩展，无需 Composer）
 *
 * 流程：
 *   1. 调用提取接口获取 1 个 HTTP 代理（format=json）
 *   2. 打印代理地址
 *   3. 通过该代理访问 https://httpbin.org/ip 并打印响应
 *
 * 运行：
 *   PROXY_API_KEY=你的API提取密钥 php index.php
 *
 * 提取接口的两种认证（二选一）：
 *   密钥模式：只设 PROXY_API_KEY，链接带 key=密钥；
 *   AES令牌模式：再设 PROXY_UID（账号ID）、PROXY_AES_KEY、PROXY_AES_IV（账户面板“密钥”），链接改带 uid + token，
 *     token = Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳}))，5分钟内有效、只能用一次（需 openssl 扩展）。
 * 使用代理的两种认证（二选一）：白名单（本机公网IP在白名单中），或设 PROXY_USER、PROXY_PASS 用代理账号密码。
 */

// ===== 配置（可通过环境变量覆盖，也可直接修改这里的常量） =====
define('API_BASE', rtrim(getenv('PROXY_API_BASE') ?: 'https://www.example-proxy.cn', '/'));
define('API_KEY', getenv('PROXY_API_KEY') ?: '在这里填写你的API提取密钥');
define('TEST_URL', getenv('PROXY_TEST_URL') ?: 'https://httpbin.org/ip');
define('TIMEOUT', 15); // 秒
// AES令牌模式（可选）：三项都设置时用 uid + token 代替 key
define('UID', getenv('PROXY_UID') ?: '');
define('AES_KEY', getenv('PROXY_AES_KEY') ?: '');
define('AES_IV', getenv('PROXY_AES_IV') ?: '');
// 代理账号密码（可选）：设置后用账号密码连接代理，否则用白名单
define('PROXY_USER', getenv('PROXY_USER') ?: '');
define('PROXY_PASS', getenv('PROXY_PASS') ?: '');

// 提取接口错误码说明
$ERROR_HINTS = array(
    1001 => '密钥无效：请检查 API 提取密钥是否填写正确',
    1002 => '调用IP不在白名单：请在用户中心将本机公网IP加入白名单',
    1003 => '套餐不存在或已过期：请在用户中心购买或续费套餐',
    1004 => '套餐余量不足：请充值或升级套餐',
    1005 => '请求过于频繁：请降低调用频率后重试',
    1006 => '参数错误：请检查请求参数',
    1007 => '暂无满足条件的IP：请放宽地区/运营商等筛选条件后重试',
    1008 => '令牌无效：请检查账号ID、AES Key/IV 与提取密钥',
    1009 => '令牌已过期：请校准本机时钟（与服务器相差不能超过5分钟）',
    1010 => '令牌已使用：每次调用都要重新生成令牌',
);

/** AES令牌：Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳})) */
function make_token($apiKey, $aesKey, $aesIv)
{
    $plain = json_encode(array('k' => $apiKey, 't' => (int) round(microtime(true) * 1000)));
    // OPENSSL_RAW_DATA：返回原始密文（默认 PKCS#7 填充），再自行 Base64
    return base64_encode(openssl_encrypt($plain, 'aes-128-cbc', $aesKey, OPENSSL_RAW_DATA, $aesIv));
}

/** 提取接口返回的业务错误（code != 0） */
class ApiException extends Exception
{
    public $apiCode;

    public function __construct($apiCode, $msg)
    {
        parent::__construct("提取失败：code={$apiCode}，msg={$msg}");
        $this->apiCode = $apiCode;
    }
}

/**
 * 发起 GET 请求，返回 array(HTTP状态码, 响应体)；网络错误时抛出 RuntimeException
 * $proxy 为 null 表示直连（不走任何代理）
 */
function http_get($url, $proxy, $errorPrefix)
{
    $ch = curl_init($url);
    curl_setopt_array($ch, array(
        CURLOPT_RETURNTRANSFER => true,
        CURLOPT_FOLLOWLOCATION => false,
        CURLOPT_CONNECTTIMEOUT => TIMEOUT,
        CURLOPT_TIMEOUT => TIMEOUT,
        CURLOPT_USERAGENT => 'proxy-demo-php',
    ));
    if ($proxy === null) {
        curl_setopt($ch, CURLOPT_PROXY, ''); // 不使用环境变量中的系统代理
    } else {
        curl_setopt($ch, CURLOPT_PROXY, $proxy);
        curl_setopt($ch, CURLOPT_PROXYTYPE, CURLPROXY_HTTP);
        if (PROXY_USER !== '') {
            curl_setopt($ch, CURLOPT_PROXYUSERPWD, PROXY_USER . ':' . PROXY_PASS); // 账号密码认证，否则为白名单认证
        }
        // https 目标走 CONNECT 隧道；http 目标也强制走隧道可改为 true
        curl_setopt($ch, CURLOPT_HTTPPROXYTUNNEL, false);
    }
    $body = curl_exec($ch);
    if ($body === false) {
        $error = curl_error($ch);
        curl_close($ch);
        throw new RuntimeException("{$errorPrefix}（{$error}）");
    }
    $status = (int) curl_getinfo($ch, CURLINFO_HTTP_CODE);
    curl_close($ch);
    return array($status, $body);
}

/** 第一步：调用提取接口，返回代理列表 */
function extract_proxies()
{
    $params = array('num' => 1, 'protocol' => 'http', 'format' => 'json');
    if (UID !== '' && AES_KEY !== '' && AES_IV !== '') {
        $params['uid'] = UID; // AES令牌模式
        $params['token'] = make_token(API_KEY, AES_KEY, AES_IV);
    } else {
        $params['key'] = API_KEY; // 密钥模式
    }
    $query = http_build_query($params);
    list($status, $text) = http_get(
        API_BASE . '/extract?' . $query,
        null,
        '网络错误：无法连接提取接口 ' . API_BASE
    );

    $body = json_decode($text, true);
    if (!is_array($body)) {
        throw new RuntimeException("提取接口返回了无法解析的内容（HTTP {$status}）：" . text_head($text, 200));
    }
    if (!isset($body['code']) || !is_int($body['code'])) {
        throw new RuntimeException("提取接口返回格式异常（HTTP {$status}）：" . text_head($text, 200));
    }
    if ($body['code'] !== 0) {
        throw new ApiException($body['code'], isset($body['msg']) ? $body['msg'] : '');
    }
    $list = isset($body['data']['list']) && is_array($body['data']['list']) ? $body['data']['list'] : array();
    if (count($list) === 0) {
        throw new RuntimeException('提取成功但未返回任何代理IP');
    }
    return $list;
}

/** 截取前 n 个字符（没有 mbstring 扩展时按字节截取） */
function text_head($s, $n)
{
    return function_exists('mb_substr') ? mb_substr($s, 0, $n, 'UTF-8') : substr($s, 0, $n);
}

/** 第二步：通过 HTTP 代理访问目标网址 */
function fetch_via_proxy($ip, $port, $target)
{
    try {
        return http_get($target, "http://{$ip}:{$port}", "网络错误：通过代理 {$ip}:{$port} 访问失败");
    } catch (RuntimeException $e) {
        throw new RuntimeException($e->getMessage() . '。请确认本机IP已加入白名单、代理未过期');
    }
}

function main()
{
    global $ERROR_HINTS;

    if (!extension_loaded('curl')) {
        fwrite(STDERR, "缺少 cURL 扩展：请安装并启用 php-curl（php.ini 中开启 extension=curl）\n");
        return 1;
    }
    if (API_KEY === '' || strpos(API_KEY, '在这里填写') === 0) {
        fwrite(STDERR, "请先设置 API 提取密钥：环境变量 PROXY_API_KEY，或修改 index.php 中的 API_KEY 常量\n");
        return 1;
    }

    try {
        echo '正在从 ' . API_BASE . " 提取代理……\n";
        $list = extract_proxies();
        $p = $list[0];
        $protocol = isset($p['protocol']) ? $p['protocol'] : 'http';
        echo "提取成功：{$p['ip']}:{$p['port']}（协议 {$protocol}）\n";
        if (isset($p['region']) || isset($p['carrier'])) {
            $region = isset($p['region']) ? $p['region'] : '-';
            $carrier = isset($p['carrier']) ? $p['carrier'] : '';
            echo "  地区/运营商：{$region} {$carrier}\n";
        }
        if (isset($p['expire_at'])) {
            echo "  过期时间：{$p['expire_at']}\n";
        }

        echo '正在通过代理访问 ' . TEST_URL . " ……\n";
        list($status, $body) = fetch_via_proxy($p['ip'], $p['port'], TEST_URL);
        echo "HTTP 状态码：{$status}\n";
        echo "响应内容：\n";
        echo $body . "\n";
        return 0;
    } catch (ApiException $e) {
        fwrite(STDERR, $e->getMessage() . "\n");
        if (isset($ERROR_HINTS[$e->apiCode])) {
            fwrite(STDERR, '提示：' . $ERROR_HINTS[$e->apiCode] . "\n");
        }
        return 1;
    } catch (RuntimeException $e) {
        fwrite(STDERR, $e->getMessage() . "\n");
        return 1;
    }
}

exit(main());
