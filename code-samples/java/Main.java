// 代理IP提取 + 使用示例（Java 11+，仅使用 JDK 标准库，无需 Maven/Gradle）
//
// 流程：
//   1. 调用提取接口获取 1 个 HTTP 代理（format=json）
//   2. 打印代理地址
//   3. 通过该代理访问 https://httpbin.org/ip 并打印响应
//
// 运行（Java 11+ 可直接运行单个源文件）：
//   PROXY_API_KEY=你的API提取密钥 java Main.java
// 或先编译再运行：
//   javac -encoding UTF-8 Main.java && java Main
//
// 提取接口的两种认证（二选一）：
//   密钥模式：只设 PROXY_API_KEY，链接带 key=密钥；
//   AES令牌模式：再设 PROXY_UID（账号ID）、PROXY_AES_KEY、PROXY_AES_IV（账户面板“密钥”），链接改带 uid + token，
//     token = Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳}))，5分钟内有效、只能用一次。
// 使用代理的两种认证（二选一）：白名单（本机公网IP在白名单中），或设 PROXY_USER、PROXY_PASS 用代理账号密码。

import java.io.IOException;
import java.net.Authenticator;
import java.net.PasswordAuthentication;
import java.util.Base64;
import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

public class Main {

    // ===== 配置（可通过环境变量覆盖，也可直接修改这里的常量） =====
    static final String API_BASE = env("PROXY_API_BASE", "https://www.example-proxy.cn").replaceAll("/+$", "");
    static final String API_KEY = env("PROXY_API_KEY", "在这里填写你的API提取密钥");
    static final String TEST_URL = env("PROXY_TEST_URL", "https://httpbin.org/ip");
    static final Duration TIMEOUT = Duration.ofSeconds(15);
    // AES令牌模式（可选）：三项都设置时用 uid + token 代替 key
    static final String UID = env("PROXY_UID", "");
    static final String AES_KEY = env("PROXY_AES_KEY", "");
    static final String AES_IV = env("PROXY_AES_IV", "");
    // 代理账号密码（可选）：设置后用账号密码连接代理，否则用白名单
    static final String PROXY_USER = env("PROXY_USER", "");
    static final String PROXY_PASS = env("PROXY_PASS", "");

    /** AES令牌：Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳})) */
    static String makeToken(String apiKey, String aesKey, String aesIv) throws IOException {
        try {
            String plain = "{\"k\":\"" + apiKey + "\",\"t\":" + System.currentTimeMillis() + "}";
            Cipher c = Cipher.getInstance("AES/CBC/PKCS5Padding"); // Java 的 PKCS5Padding 即 16 字节块的 PKCS#7
            c.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(aesKey.getBytes(StandardCharsets.UTF_8), "AES"),
                    new IvParameterSpec(aesIv.getBytes(StandardCharsets.UTF_8)));
            return Base64.getEncoder().encodeToString(c.doFinal(plain.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IOException("生成令牌失败：AES Key 与 IV 须各为16个字符（" + e.getMessage() + "）", e);
        }
    }

    /** 提取接口返回的业务错误（code != 0） */
    static class ApiException extends Exception {
        private static final long serialVersionUID = 1L;
        final int code;

        ApiException(int code, String msg) {
            super("提取失败：code=" + code + "，msg=" + msg);
            this.code = code;
        }
    }

    static String hint(int code) {
        switch (code) {
            case 1001: return "密钥无效：请检查 API 提取密钥是否填写正确";
            case 1002: return "调用IP不在白名单：请在用户中心将本机公网IP加入白名单";
            case 1003: return "套餐不存在或已过期：请在用户中心购买或续费套餐";
            case 1004: return "套餐余量不足：请充值或升级套餐";
            case 1005: return "请求过于频繁：请降低调用频率后重试";
            case 1006: return "参数错误：请检查请求参数";
            case 1007: return "暂无满足条件的IP：请放宽地区/运营商等筛选条件后重试";
            case 1008: return "令牌无效：请检查账号ID、AES Key/IV 与提取密钥";
            case 1009: return "令牌已过期：请校准本机时钟（与服务器相差不能超过5分钟）";
            case 1010: return "令牌已使用：每次调用都要重新生成令牌";
            default: return null;
        }
    }

    static String env(String name, String def) {
        String v = System.getenv(name);
        return (v == null || v.isEmpty()) ? def : v;
    }

    static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** 异常说明：优先取异常链中第一条非空消息，否则取异常类名（如 ConnectException） */
    static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isEmpty()) return t.getMessage();
        }
        return e.getClass().getSimpleName();
    }

    static String head(String s, int n) {
        return s.length() > n ? s.substring(0, n) : s;
    }

    /** 第一步：调用提取接口，返回代理列表 */
    @SuppressWarnings("unchecked")
    static List<Object> extractProxies() throws ApiException, IOException, InterruptedException {
        String auth = !UID.isEmpty() && !AES_KEY.isEmpty() && !AES_IV.isEmpty()
                ? "uid=" + enc(UID) + "&token=" + enc(makeToken(API_KEY, AES_KEY, AES_IV)) // AES令牌模式
                : "key=" + enc(API_KEY); // 密钥模式
        String url = API_BASE + "/extract?" + auth + "&num=1&protocol=http&format=json";

        // 提取接口直连访问，不走系统代理
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(TIMEOUT)
                .proxy(HttpClient.Builder.NO_PROXY)
                .build();
        HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).GET().build();

        HttpResponse<String> resp;
        try {
            resp = client.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IOException("网络错误：无法连接提取接口 " + API_BASE + "（" + reason(e) + "）", e);
        }

        String text = resp.body();
        Object parsed;
        try {
            parsed = new MiniJson(text).parse();
        } catch (RuntimeException e) {
            throw new IOException("提取接口返回了无法解析的内容（HTTP " + resp.statusCode() + "）：" + head(text, 200));
        }
        if (!(parsed instanceof Map) || !(((Map<String, Object>) parsed).get("code") instanceof Number)) {
            throw new IOException("提取接口返回格式异常（HTTP " + resp.statusCode() + "）：" + head(text, 200));
        }
        Map<String, Object> body = (Map<String, Object>) parsed;
        int code = ((Number) body.get("code")).intValue();
        if (code != 0) {
            throw new ApiException(code, String.valueOf(body.getOrDefault("msg", "")));
        }
        Object data = body.get("data");
        Object list = data instanceof Map ? ((Map<String, Object>) data).get("list") : null;
        if (!(list instanceof List) || ((List<Object>) list).isEmpty()) {
            throw new IOException("提取成功但未返回任何代理IP");
        }
        return (List<Object>) list;
    }

    /** 第二步：通过 HTTP 代理访问目标网址（https 目标会自动使用 CONNECT 隧道） */
    static HttpResponse<String> fetchViaProxy(String ip, int port, String target)
            throws IOException, InterruptedException {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .connectTimeout(TIMEOUT)
                .proxy(ProxySelector.of(new InetSocketAddress(ip, port)));
        if (!PROXY_USER.isEmpty()) {
            // 账号密码认证（CONNECT 隧道的 Basic 认证已在 main 的第一行解除）
            builder.authenticator(new Authenticator() {
                @Override
                protected PasswordAuthentication getPasswordAuthentication() {
                    return getRequestorType() == RequestorType.PROXY
                            ? new PasswordAuthentication(PROXY_USER, PROXY_PASS.toCharArray())
                            : null;
                }
            });
        }
        HttpClient client = builder.build();
        HttpRequest req = HttpRequest.newBuilder(URI.create(target))
                .timeout(TIMEOUT)
                .header("User-Agent", "proxy-demo-java")
                .GET()
                .build();
        try {
            return client.send(req, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IOException("网络错误：通过代理 " + ip + ":" + port + " 访问失败（" + reason(e)
                    + "）。请确认本机IP已加入白名单或代理账号密码正确、代理未过期", e);
        }
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws InterruptedException {
        // 账号密码认证：JDK 默认禁止 https 目标的 CONNECT 隧道使用 Basic 认证（代理会回 407）。
        // JDK 在第一次使用 HttpClient 时就读取这个设置，之后再改无效，所以必须放在 main 的第一行、任何网络请求之前；
        // 也可以在命令行上设置：java -Djdk.http.auth.tunneling.disabledSchemes= Main.java
        if (!PROXY_USER.isEmpty()) {
            System.setProperty("jdk.http.auth.tunneling.disabledSchemes", "");
        }

        // 使用系统默认的控制台编码输出中文（中文 Windows 下为 GBK，Linux/macOS 下一般为 UTF-8）
        PrintStream out = System.out;
        PrintStream err = System.err;

        if (API_KEY.isEmpty() || API_KEY.startsWith("在这里填写")) {
            err.println("请先设置 API 提取密钥：环境变量 PROXY_API_KEY，或修改 Main.java 中的 API_KEY 常量");
            System.exit(1);
        }

        try {
            out.println("正在从 " + API_BASE + " 提取代理……");
            Map<String, Object> p = (Map<String, Object>) extractProxies().get(0);
            String ip = String.valueOf(p.get("ip"));
            int port = ((Number) p.get("port")).intValue();
            out.println("提取成功：" + ip + ":" + port + "（协议 " + p.getOrDefault("protocol", "http") + "）");
            if (p.containsKey("region") || p.containsKey("carrier")) {
                out.println("  地区/运营商：" + p.getOrDefault("region", "-") + " " + p.getOrDefault("carrier", ""));
            }
            if (p.containsKey("expire_at")) {
                out.println("  过期时间：" + p.get("expire_at"));
            }

            out.println("正在通过代理访问 " + TEST_URL + " ……");
            HttpResponse<String> resp = fetchViaProxy(ip, port, TEST_URL);
            out.println("HTTP 状态码：" + resp.statusCode());
            out.println("响应内容：");
            out.println(resp.body());
        } catch (ApiException e) {
            err.println(e.getMessage());
            String h = hint(e.code);
            if (h != null) err.println("提示：" + h);
            System.exit(1);
        } catch (IOException | RuntimeException e) {
            err.println(e.getMessage());
            System.exit(1);
        }
    }

    /** 极简 JSON 解析器（仅为避免第三方依赖；正式项目建议使用 Jackson / Gson） */
    static final class MiniJson {
        private final String s;
        private int i;

        MiniJson(String s) {
            this.s = s;
        }

        Object parse() {
            Object v = value();
            ws();
            if (i != s.length()) throw new IllegalArgumentException("JSON 末尾有多余内容");
            return v;
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) i++;
        }

        private char peek() {
            if (i >= s.length()) throw new IllegalArgumentException("JSON 意外结束");
            return s.charAt(i);
        }

        private void expect(char c) {
            if (peek() != c) throw new IllegalArgumentException("JSON 位置 " + i + " 应为 " + c);
            i++;
        }

        private Object value() {
            ws();
            char c = peek();
            if (c == '{') return object();
            if (c == '[') return array();
            if (c == '"') return string();
            if (s.startsWith("true", i)) { i += 4; return Boolean.TRUE; }
            if (s.startsWith("false", i)) { i += 5; return Boolean.FALSE; }
            if (s.startsWith("null", i)) { i += 4; return null; }
            return number();
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            expect('{');
            ws();
            if (peek() == '}') { i++; return m; }
            while (true) {
                ws();
                String k = string();
                ws();
                expect(':');
                m.put(k, value());
                ws();
                if (peek() == ',') { i++; continue; }
                expect('}');
                return m;
            }
        }

        private List<Object> array() {
            List<Object> a = new ArrayList<>();
            expect('[');
            ws();
            if (peek() == ']') { i++; return a; }
            while (true) {
                a.add(value());
                ws();
                if (peek() == ',') { i++; continue; }
                expect(']');
                return a;
            }
        }

        private String string() {
            expect('"');
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = peek();
                i++;
                if (c == '"') return b.toString();
                if (c != '\\') { b.append(c); continue; }
                char e = peek();
                i++;
                switch (e) {
                    case 'n': b.append('\n'); break;
                    case 't': b.append('\t'); break;
                    case 'r': b.append('\r'); break;
                    case 'b': b.append('\b'); break;
                    case 'f': b.append('\f'); break;
                    case 'u':
                        if (i + 4 > s.length()) throw new IllegalArgumentException("JSON 意外结束");
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default: b.append(e);
                }
            }
        }

        private Number number() {
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) i++;
            String t = s.substring(start, i);
            if (t.isEmpty()) throw new IllegalArgumentException("JSON 位置 " + start + " 无法识别");
            if (t.contains(".") || t.contains("e") || t.contains("E")) return Double.parseDouble(t);
            return Long.parseLong(t);
        }
    }
}
