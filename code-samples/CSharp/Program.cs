// 代理IP提取 + 使用示例（C# / .NET 6+，仅使用 .NET 自带类库，无需 NuGet 包）
//
// 流程：
//   1. 调用提取接口获取 1 个 HTTP 代理（format=json）
//   2. 打印代理地址
//   3. 通过该代理访问 https://httpbin.org/ip 并打印响应
//
// 运行：
//   PROXY_API_KEY=你的API提取密钥 dotnet run
//
// 提取接口的两种认证（二选一）：
//   密钥模式：只设 PROXY_API_KEY，链接带 key=密钥；
//   AES令牌模式：再设 PROXY_UID（账号ID）、PROXY_AES_KEY、PROXY_AES_IV（账户面板“密钥”），链接改带 uid + token，
//     token = Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳}))，5分钟内有效、只能用一次。
// 使用代理的两种认证（二选一）：白名单（本机公网IP在白名单中），或设 PROXY_USER、PROXY_PASS 用代理账号密码。

using System;
using System.Collections.Generic;
using System.Net;
using System.Net.Http;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using System.Threading.Tasks;

namespace ProxyDemo
{
    /// <summary>提取接口返回的业务错误（code != 0）</summary>
    public class ApiException : Exception
    {
        public int Code { get; }

        public ApiException(int code, string msg) : base("提取失败：code=" + code + "，msg=" + msg)
        {
            Code = code;
        }
    }

    /// <summary>一条代理信息</summary>
    public class ProxyInfo
    {
        public string Ip { get; set; } = "";
        public int Port { get; set; }
        public string Protocol { get; set; } = "http";
        public string Region { get; set; }     // 未返回时为 null
        public string Carrier { get; set; }    // 未返回时为 null
        public string ExpireAt { get; set; }   // 未返回时为 null
    }

    public static class Program
    {
        // ===== 配置（可通过环境变量覆盖，也可直接修改这里的常量） =====
        static readonly string ApiBase = Env("PROXY_API_BASE", "https://www.example-proxy.cn").TrimEnd('/');
        static readonly string ApiKey = Env("PROXY_API_KEY", "在这里填写你的API提取密钥");
        static readonly string TestUrl = Env("PROXY_TEST_URL", "https://httpbin.org/ip");
        static readonly TimeSpan RequestTimeout = TimeSpan.FromSeconds(15);
        // AES令牌模式（可选）：三项都设置时用 uid + token 代替 key
        static readonly string Uid = Env("PROXY_UID", "");
        static readonly string AesKey = Env("PROXY_AES_KEY", "");
        static readonly string AesIv = Env("PROXY_AES_IV", "");
        // 代理账号密码（可选）：设置后用账号密码连接代理，否则用白名单
        static readonly string ProxyUser = Env("PROXY_USER", "");
        static readonly string ProxyPass = Env("PROXY_PASS", "");

        /// <summary>AES令牌：Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳}))</summary>
        static string MakeToken(string apiKey, string aesKey, string aesIv)
        {
            string plain = JsonSerializer.Serialize(new { k = apiKey, t = DateTimeOffset.UtcNow.ToUnixTimeMilliseconds() });
            using var aes = Aes.Create();
            aes.Key = Encoding.UTF8.GetBytes(aesKey);
            aes.IV = Encoding.UTF8.GetBytes(aesIv);
            aes.Mode = CipherMode.CBC;
            aes.Padding = PaddingMode.PKCS7;
            using var enc = aes.CreateEncryptor();
            byte[] data = Encoding.UTF8.GetBytes(plain);
            return Convert.ToBase64String(enc.TransformFinalBlock(data, 0, data.Length));
        }

        // 提取接口错误码说明
        static readonly Dictionary<int, string> ErrorHints = new Dictionary<int, string>
        {
            { 1001, "密钥无效：请检查 API 提取密钥是否填写正确" },
            { 1002, "调用IP不在白名单：请在用户中心将本机公网IP加入白名单" },
            { 1003, "套餐不存在或已过期：请在用户中心购买或续费套餐" },
            { 1004, "套餐余量不足：请充值或升级套餐" },
            { 1005, "请求过于频繁：请降低调用频率后重试" },
            { 1006, "参数错误：请检查请求参数" },
            { 1007, "暂无满足条件的IP：请放宽地区/运营商等筛选条件后重试" },
            { 1008, "令牌无效：请检查账号ID、AES Key/IV 与提取密钥" },
            { 1009, "令牌已过期：请校准本机时钟（与服务器相差不能超过5分钟）" },
            { 1010, "令牌已使用：每次调用都要重新生成令牌" },
        };

        static string Env(string name, string def)
        {
            string v = Environment.GetEnvironmentVariable(name);
            return string.IsNullOrEmpty(v) ? def : v;
        }

        static string Head(string s, int n)
        {
            return s.Length > n ? s.Substring(0, n) : s;
        }

        static string GetString(JsonElement obj, string name)
        {
            JsonElement v;
            if (obj.ValueKind == JsonValueKind.Object && obj.TryGetProperty(name, out v) && v.ValueKind == JsonValueKind.String) return v.GetString();
            return null;
        }

        /// <summary>第一步：调用提取接口，返回代理列表</summary>
        static async Task<List<ProxyInfo>> ExtractProxiesAsync()
        {
            string auth = Uid != "" && AesKey != "" && AesIv != ""
                ? "uid=" + Uri.EscapeDataString(Uid) + "&token=" + Uri.EscapeDataString(MakeToken(ApiKey, AesKey, AesIv)) // AES令牌模式
                : "key=" + Uri.EscapeDataString(ApiKey); // 密钥模式
            string url = ApiBase + "/extract?" + auth + "&num=1&protocol=http&format=json";

            // 提取接口直连访问，不走系统代理
            var handler = new HttpClientHandler { UseProxy = false };
            using (var client = new HttpClient(handler) { Timeout = RequestTimeout })
            {
                HttpResponseMessage resp;
                string text;
                try
                {
                    resp = await client.GetAsync(url);
                    text = await resp.Content.ReadAsStringAsync();
                }
                catch (Exception e) when (e is HttpRequestException || e is TaskCanceledException)
                {
                    string reason = e is TaskCanceledException ? "请求超时" : e.Message;
                    throw new InvalidOperationException("网络错误：无法连接提取接口 " + ApiBase + "（" + reason + "）", e);
                }

                int status = (int)resp.StatusCode;
                JsonDocument doc;
                try
                {
                    doc = JsonDocument.Parse(text);
                }
                catch (JsonException)
                {
                    throw new InvalidOperationException("提取接口返回了无法解析的内容（HTTP " + status + "）：" + Head(text, 200));
                }

                using (doc)
                {
                    JsonElement root = doc.RootElement;
                    JsonElement codeEl;
                    int code;
                    if (root.ValueKind != JsonValueKind.Object
                        || !root.TryGetProperty("code", out codeEl)
                        || codeEl.ValueKind != JsonValueKind.Number
                        || !codeEl.TryGetInt32(out code))
                    {
                        throw new InvalidOperationException("提取接口返回格式异常（HTTP " + status + "）：" + Head(text, 200));
                    }
                    if (code != 0)
                    {
                        throw new ApiException(code, GetString(root, "msg") ?? "");
                    }

                    var result = new List<ProxyInfo>();
                    JsonElement data, list;
                    if (root.TryGetProperty("data", out data) && data.ValueKind == JsonValueKind.Object
                        && data.TryGetProperty("list", out list) && list.ValueKind == JsonValueKind.Array)
                    {
                        foreach (JsonElement item in list.EnumerateArray())
                        {
                            if (item.ValueKind != JsonValueKind.Object) continue;
                            JsonElement portEl;
                            int port;
                            string ip = GetString(item, "ip");
                            if (ip == null || !item.TryGetProperty("port", out portEl)
                                || portEl.ValueKind != JsonValueKind.Number
                                || !portEl.TryGetInt32(out port)) continue;
                            result.Add(new ProxyInfo
                            {
                                Ip = ip,
                                Port = port,
                                Protocol = GetString(item, "protocol") ?? "http",
                                Region = GetString(item, "region"),
                                Carrier = GetString(item, "carrier"),
                                ExpireAt = GetString(item, "expire_at"),
                            });
                        }
                    }
                    if (result.Count == 0)
                    {
                        throw new InvalidOperationException("提取成功但未返回任何代理IP");
                    }
                    return result;
                }
            }
        }

        /// <summary>第二步：通过 HTTP 代理访问目标网址（https 目标会自动使用 CONNECT 隧道）</summary>
        static async Task<(int Status, string Body)> FetchViaProxyAsync(ProxyInfo p, string target)
        {
            var handler = new HttpClientHandler
            {
                Proxy = new WebProxy(p.Ip, p.Port)
                {
                    // 账号密码认证（未设置 PROXY_USER 时为白名单认证）
                    Credentials = ProxyUser != "" ? new NetworkCredential(ProxyUser, ProxyPass) : null,
                },
                UseProxy = true,
            };
            using (var client = new HttpClient(handler) { Timeout = RequestTimeout })
            {
                client.DefaultRequestHeaders.UserAgent.ParseAdd("proxy-demo-csharp");
                try
                {
                    HttpResponseMessage resp = await client.GetAsync(target);
                    string body = await resp.Content.ReadAsStringAsync();
                    return ((int)resp.StatusCode, body);
                }
                catch (Exception e) when (e is HttpRequestException || e is TaskCanceledException)
                {
                    string reason = e is TaskCanceledException ? "请求超时" : e.Message;
                    throw new InvalidOperationException(
                        "网络错误：通过代理 " + p.Ip + ":" + p.Port + " 访问失败（" + reason
                        + "）。请确认本机IP已加入白名单或代理账号密码正确、代理未过期", e);
                }
            }
        }

        public static int Main()
        {
            return RunAsync().GetAwaiter().GetResult();
        }

        static async Task<int> RunAsync()
        {
            Console.OutputEncoding = Encoding.UTF8;

            if (string.IsNullOrEmpty(ApiKey) || ApiKey.StartsWith("在这里填写", StringComparison.Ordinal))
            {
                Console.Error.WriteLine("请先设置 API 提取密钥：环境变量 PROXY_API_KEY，或修改 Program.cs 中的 ApiKey 常量");
                return 1;
            }

            try
            {
                Console.WriteLine("正在从 " + ApiBase + " 提取代理……");
                List<ProxyInfo> proxies = await ExtractProxiesAsync();
                ProxyInfo p = proxies[0];
                Console.WriteLine("提取成功：" + p.Ip + ":" + p.Port + "（协议 " + p.Protocol + "）");
                if (p.Region != null || p.Carrier != null)
                {
                    Console.WriteLine("  地区/运营商：" + (p.Region ?? "-") + " " + (p.Carrier ?? ""));
                }
                if (p.ExpireAt != null)
                {
                    Console.WriteLine("  过期时间：" + p.ExpireAt);
                }

                Console.WriteLine("正在通过代理访问 " + TestUrl + " ……");
                var result = await FetchViaProxyAsync(p, TestUrl);
                Console.WriteLine("HTTP 状态码：" + result.Status);
                Console.WriteLine("响应内容：");
                Console.WriteLine(result.Body);
                return 0;
            }
            catch (ApiException e)
            {
                Console.Error.WriteLine(e.Message);
                string hint;
                if (ErrorHints.TryGetValue(e.Code, out hint))
                {
                    Console.Error.WriteLine("提示：" + hint);
                }
                return 1;
            }
            catch (InvalidOperationException e)
            {
                Console.Error.WriteLine(e.Message);
                return 1;
            }
            catch (UriFormatException e)
            {
                Console.Error.WriteLine("网址格式错误，请检查 PROXY_API_BASE / PROXY_TEST_URL（" + e.Message + "）");
                return 1;
            }
        }
    }
}
