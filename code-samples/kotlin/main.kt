// 代理IP提取 + 使用示例（Kotlin/JVM，仅使用 Kotlin 标准库 + JDK 11+ 自带的 HttpClient）
//
// 流程：
//   1. 调用提取接口获取 1 个 HTTP 代理（format=json）
//   2. 打印代理地址
//   3. 通过该代理访问 https://httpbin.org/ip 并打印响应
//
// 编译并运行：
//   kotlinc main.kt -include-runtime -d proxy-demo.jar
//   PROXY_API_KEY=你的API提取密钥 java -jar proxy-demo.jar
//
// 提取接口的两种认证（二选一）：
//   密钥模式：只设 PROXY_API_KEY，链接带 key=密钥；
//   AES令牌模式：再设 PROXY_UID（账号ID）、PROXY_AES_KEY、PROXY_AES_IV（账户面板“密钥”），链接改带 uid + token，
//     token = Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳}))，5分钟内有效、只能用一次。
// 使用代理的两种认证（二选一）：白名单（本机公网IP在白名单中），或设 PROXY_USER、PROXY_PASS 用代理账号密码。

import java.io.IOException
import java.net.Authenticator
import java.net.PasswordAuthentication
import java.util.Base64
import javax.crypto.Cipher
import javax.crypto.spec.IvParameterSpec
import javax.crypto.spec.SecretKeySpec
import java.io.PrintStream
import java.net.InetSocketAddress
import java.net.ProxySelector
import java.net.URI
import java.net.URLEncoder
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.nio.charset.StandardCharsets
import java.time.Duration
import kotlin.system.exitProcess

// ===== 配置（可通过环境变量覆盖，也可直接修改这里的常量） =====
val API_BASE: String = env("PROXY_API_BASE", "https://www.example-proxy.cn").trimEnd('/')
val API_KEY: String = env("PROXY_API_KEY", "在这里填写你的API提取密钥")
val TEST_URL: String = env("PROXY_TEST_URL", "https://httpbin.org/ip")
val TIMEOUT: Duration = Duration.ofSeconds(15)
// AES令牌模式（可选）：三项都设置时用 uid + token 代替 key
val UID: String = env("PROXY_UID", "")
val AES_KEY: String = env("PROXY_AES_KEY", "")
val AES_IV: String = env("PROXY_AES_IV", "")
// 代理账号密码（可选）：设置后用账号密码连接代理，否则用白名单
val PROXY_USER: String = env("PROXY_USER", "")
val PROXY_PASS: String = env("PROXY_PASS", "")

/** AES令牌：Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳})) */
fun makeToken(apiKey: String, aesKey: String, aesIv: String): String {
    val plain = "{\"k\":\"$apiKey\",\"t\":${System.currentTimeMillis()}}"
    val cipher = Cipher.getInstance("AES/CBC/PKCS5Padding") // 16 字节块的 PKCS5Padding 即 PKCS#7
    cipher.init(
        Cipher.ENCRYPT_MODE,
        SecretKeySpec(aesKey.toByteArray(Charsets.UTF_8), "AES"),
        IvParameterSpec(aesIv.toByteArray(Charsets.UTF_8))
    )
    return Base64.getEncoder().encodeToString(cipher.doFinal(plain.toByteArray(Charsets.UTF_8)))
}

// 提取接口错误码说明
val ERROR_HINTS = mapOf(
    1001 to "密钥无效：请检查 API 提取密钥是否填写正确",
    1002 to "调用IP不在白名单：请在用户中心将本机公网IP加入白名单",
    1003 to "套餐不存在或已过期：请在用户中心购买或续费套餐",
    1004 to "套餐余量不足：请充值或升级套餐",
    1005 to "请求过于频繁：请降低调用频率后重试",
    1006 to "参数错误：请检查请求参数",
    1007 to "暂无满足条件的IP：请放宽地区/运营商等筛选条件后重试",
    1008 to "令牌无效：请检查账号ID、AES Key/IV 与提取密钥",
    1009 to "令牌已过期：请校准本机时钟（与服务器相差不能超过5分钟）",
    1010 to "令牌已使用：每次调用都要重新生成令牌"
)

/** 提取接口返回的业务错误（code != 0） */
class ApiException(val code: Int, msg: String) : Exception("提取失败：code=$code，msg=$msg")

/** 一条代理信息 */
data class ProxyInfo(
    val ip: String,
    val port: Int,
    val protocol: String,
    val region: String?,
    val carrier: String?,
    val expireAt: String?
)

fun env(name: String, default: String): String {
    val v = System.getenv(name)
    return if (v.isNullOrEmpty()) default else v
}

/** 异常说明：优先取异常链中第一条非空消息，否则取异常类名（如 ConnectException） */
fun reason(e: Throwable): String {
    var t: Throwable? = e
    while (t != null) {
        val m = t.message
        if (!m.isNullOrEmpty()) return m
        t = t.cause
    }
    return e.javaClass.simpleName
}

/** 第一步：调用提取接口，返回代理列表 */
fun extractProxies(): List<ProxyInfo> {
    val enc = { s: String -> URLEncoder.encode(s, "UTF-8") }
    val auth = if (UID.isNotEmpty() && AES_KEY.isNotEmpty() && AES_IV.isNotEmpty()) {
        "uid=${enc(UID)}&token=${enc(makeToken(API_KEY, AES_KEY, AES_IV))}" // AES令牌模式
    } else {
        "key=${enc(API_KEY)}" // 密钥模式
    }
    val url = "$API_BASE/extract?$auth&num=1&protocol=http&format=json"

    // 提取接口直连访问，不走系统代理
    val client = HttpClient.newBuilder()
        .connectTimeout(TIMEOUT)
        .proxy(HttpClient.Builder.NO_PROXY)
        .build()
    val request = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).GET().build()

    val response = try {
        client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
    } catch (e: IOException) {
        throw IOException("网络错误：无法连接提取接口 $API_BASE（${reason(e)}）", e)
    }

    val text = response.body()
    val parsed = try {
        MiniJson(text).parse()
    } catch (e: RuntimeException) {
        throw IOException("提取接口返回了无法解析的内容（HTTP ${response.statusCode()}）：${text.take(200)}")
    }
    val body = parsed as? Map<*, *>
    val code = (body?.get("code") as? Number)?.toInt()
        ?: throw IOException("提取接口返回格式异常（HTTP ${response.statusCode()}）：${text.take(200)}")
    if (code != 0) {
        throw ApiException(code, body["msg"]?.toString() ?: "")
    }

    val list = ((body["data"] as? Map<*, *>)?.get("list") as? List<*>).orEmpty()
    val proxies = list.mapNotNull { item ->
        val m = item as? Map<*, *> ?: return@mapNotNull null
        val ip = m["ip"] as? String ?: return@mapNotNull null
        val port = (m["port"] as? Number)?.toInt() ?: return@mapNotNull null
        ProxyInfo(
            ip = ip,
            port = port,
            protocol = m["protocol"] as? String ?: "http",
            region = m["region"] as? String,
            carrier = m["carrier"] as? String,
            expireAt = m["expire_at"] as? String
        )
    }
    if (proxies.isEmpty()) throw IOException("提取成功但未返回任何代理IP")
    return proxies
}

/** 第二步：通过 HTTP 代理访问目标网址（https 目标会自动使用 CONNECT 隧道） */
fun fetchViaProxy(p: ProxyInfo, target: String): HttpResponse<String> {
    val builder = HttpClient.newBuilder()
        .connectTimeout(TIMEOUT)
        .proxy(ProxySelector.of(InetSocketAddress(p.ip, p.port)))
    if (PROXY_USER.isNotEmpty()) {
        // 账号密码认证（CONNECT 隧道的 Basic 认证已在 main 的第一行解除）
        builder.authenticator(object : Authenticator() {
            override fun getPasswordAuthentication(): PasswordAuthentication? =
                if (requestorType == RequestorType.PROXY) {
                    PasswordAuthentication(PROXY_USER, PROXY_PASS.toCharArray())
                } else {
                    null
                }
        })
    }
    val client = builder.build()
    val request = HttpRequest.newBuilder(URI.create(target))
        .timeout(TIMEOUT)
        .header("User-Agent", "proxy-demo-kotlin")
        .GET()
        .build()
    try {
        return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8))
    } catch (e: IOException) {
        throw IOException("网络错误：通过代理 ${p.ip}:${p.port} 访问失败（${reason(e)}）。请确认本机IP已加入白名单或代理账号密码正确、代理未过期", e)
    }
}

fun main() {
    // 账号密码认证：JDK 默认禁止 https 目标的 CONNECT 隧道使用 Basic 认证（代理会回 407）。
    // JDK 在第一次使用 HttpClient 时就读取这个设置，之后再改无效，所以必须放在 main 的第一行、任何网络请求之前；
    // 也可以在命令行上设置：java -Djdk.http.auth.tunneling.disabledSchemes= -jar proxy-demo.jar
    if (PROXY_USER.isNotEmpty()) {
        System.setProperty("jdk.http.auth.tunneling.disabledSchemes", "")
    }

    // 使用系统默认的控制台编码输出中文（中文 Windows 下为 GBK，Linux/macOS 下一般为 UTF-8）
    val out: PrintStream = System.out
    val err: PrintStream = System.err

    if (API_KEY.isBlank() || API_KEY.startsWith("在这里填写")) {
        err.println("请先设置 API 提取密钥：环境变量 PROXY_API_KEY，或修改 main.kt 中的 API_KEY 常量")
        exitProcess(1)
    }

    try {
        out.println("正在从 $API_BASE 提取代理……")
        val p = extractProxies().first()
        out.println("提取成功：${p.ip}:${p.port}（协议 ${p.protocol}）")
        if (p.region != null || p.carrier != null) {
            out.println("  地区/运营商：${p.region ?: "-"} ${p.carrier ?: ""}")
        }
        if (p.expireAt != null) out.println("  过期时间：${p.expireAt}")

        out.println("正在通过代理访问 $TEST_URL ……")
        val response = fetchViaProxy(p, TEST_URL)
        out.println("HTTP 状态码：${response.statusCode()}")
        out.println("响应内容：")
        out.println(response.body())
    } catch (e: ApiException) {
        err.println(e.message)
        ERROR_HINTS[e.code]?.let { err.println("提示：$it") }
        exitProcess(1)
    } catch (e: Exception) {
        err.println(e.message)
        exitProcess(1)
    }
}

/** 极简 JSON 解析器（仅为避免第三方依赖；正式项目建议使用 kotlinx.serialization / Gson） */
class MiniJson(private val s: String) {
    private var i = 0

    fun parse(): Any? {
        val v = value()
        ws()
        if (i != s.length) throw IllegalArgumentException("JSON 末尾有多余内容")
        return v
    }

    private fun ws() {
        while (i < s.length && s[i].isWhitespace()) i++
    }

    private fun peek(): Char {
        if (i >= s.length) throw IllegalArgumentException("JSON 意外结束")
        return s[i]
    }

    private fun expect(c: Char) {
        if (peek() != c) throw IllegalArgumentException("JSON 位置 $i 应为 $c")
        i++
    }

    private fun value(): Any? {
        ws()
        return when {
            peek() == '{' -> obj()
            peek() == '[' -> arr()
            peek() == '"' -> str()
            s.startsWith("true", i) -> { i += 4; true }
            s.startsWith("false", i) -> { i += 5; false }
            s.startsWith("null", i) -> { i += 4; null }
            else -> num()
        }
    }

    private fun obj(): Map<String, Any?> {
        val m = LinkedHashMap<String, Any?>()
        expect('{')
        ws()
        if (peek() == '}') { i++; return m }
        while (true) {
            ws()
            val k = str()
            ws()
            expect(':')
            m[k] = value()
            ws()
            if (peek() == ',') { i++; continue }
            expect('}')
            return m
        }
    }

    private fun arr(): List<Any?> {
        val a = ArrayList<Any?>()
        expect('[')
        ws()
        if (peek() == ']') { i++; return a }
        while (true) {
            a.add(value())
            ws()
            if (peek() == ',') { i++; continue }
            expect(']')
            return a
        }
    }

    private fun str(): String {
        expect('"')
        val b = StringBuilder()
        while (true) {
            val c = peek()
            i++
            if (c == '"') return b.toString()
            if (c != '\\') { b.append(c); continue }
            val e = peek()
            i++
            when (e) {
                'n' -> b.append('\n')
                't' -> b.append('\t')
                'r' -> b.append('\r')
                'b' -> b.append('\b')
                'f' -> b.append('\u000C')
                'u' -> {
                    if (i + 4 > s.length) throw IllegalArgumentException("JSON 意外结束")
                    b.append(Integer.parseInt(s.substring(i, i + 4), 16).toChar())
                    i += 4
                }
                else -> b.append(e)
            }
        }
    }

    private fun num(): Number {
        val start = i
        while (i < s.length && "+-0123456789.eE".indexOf(s[i]) >= 0) i++
        val t = s.substring(start, i)
        if (t.isBlank()) throw IllegalArgumentException("JSON 位置 $start 无法识别")
        return if (t.contains('.') || t.contains('e') || t.contains('E')) t.toDouble() else t.toLong()
    }
}
