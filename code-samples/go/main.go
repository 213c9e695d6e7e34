// 代理IP提取 + 使用示例（Go 1.18+，仅使用标准库）
//
// 流程：
//  1. 调用提取接口获取 1 个 HTTP 代理（format=json）
//  2. 打印代理地址
//  3. 通过该代理访问 https://httpbin.org/ip 并打印响应
//
// 运行：
//
//	PROXY_API_KEY=你的API提取密钥 go run .
//
// 提取接口的两种认证（二选一）：
//   - 密钥模式：只设 PROXY_API_KEY，链接带 key=密钥；
//   - AES令牌模式：再设 PROXY_UID（账号ID）、PROXY_AES_KEY、PROXY_AES_IV（账户面板“密钥”），链接改带 uid + token，
//     token = Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳}))，5分钟内有效、只能用一次。
//
// 使用代理的两种认证（二选一）：白名单（本机公网IP在白名单中），或设 PROXY_USER、PROXY_PASS 用代理账号密码。
package main

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// ===== 配置（可通过环境变量覆盖，也可直接修改这里的常量） =====
const (
	defaultAPIBase = "https://www.example-proxy.cn"
	defaultAPIKey  = "在这里填写你的API提取密钥"
	defaultTestURL = "https://httpbin.org/ip"
	timeout        = 15 * time.Second
)

// 提取接口错误码说明
var errorHints = map[int]string{
	1001: "密钥无效：请检查 API 提取密钥是否填写正确",
	1002: "调用IP不在白名单：请在用户中心将本机公网IP加入白名单",
	1003: "套餐不存在或已过期：请在用户中心购买或续费套餐",
	1004: "套餐余量不足：请充值或升级套餐",
	1005: "请求过于频繁：请降低调用频率后重试",
	1006: "参数错误：请检查请求参数",
	1007: "暂无满足条件的IP：请放宽地区/运营商等筛选条件后重试",
	1008: "令牌无效：请检查账号ID、AES Key/IV 与提取密钥",
	1009: "令牌已过期：请校准本机时钟（与服务器相差不能超过5分钟）",
	1010: "令牌已使用：每次调用都要重新生成令牌",
}

// makeToken AES令牌：Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳}))
func makeToken(apiKey, aesKey, aesIV string) (string, error) {
	plain, _ := json.Marshal(map[string]any{"k": apiKey, "t": time.Now().UnixMilli()})
	block, err := aes.NewCipher([]byte(aesKey))
	if err != nil {
		return "", fmt.Errorf("AES Key 须为16个字符：%v", err)
	}
	if len(aesIV) != aes.BlockSize {
		return "", errors.New("AES IV 须为16个字符")
	}
	pad := aes.BlockSize - len(plain)%aes.BlockSize
	plain = append(plain, bytes.Repeat([]byte{byte(pad)}, pad)...)
	out := make([]byte, len(plain))
	cipher.NewCBCEncrypter(block, []byte(aesIV)).CryptBlocks(out, plain)
	return base64.StdEncoding.EncodeToString(out), nil
}

// Proxy 对应返回 JSON 中 data.list 的一项
type Proxy struct {
	IP       string `json:"ip"`
	Port     int    `json:"port"`
	Protocol string `json:"protocol"`
	Region   string `json:"region"`
	Carrier  string `json:"carrier"`
	ExpireAt string `json:"expire_at"`
	TTL      int    `json:"ttl"`
}

type extractResponse struct {
	Code *int   `json:"code"`
	Msg  string `json:"msg"`
	Data struct {
		Count int     `json:"count"`
		List  []Proxy `json:"list"`
	} `json:"data"`
}

// APIError 提取接口返回的业务错误（code != 0）
type APIError struct {
	Code int
	Msg  string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("提取失败：code=%d，msg=%s", e.Code, e.Msg)
}

func getenv(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// netReason 去掉 *url.Error 外层（其中包含完整请求网址，会把提取密钥打印出来）
func netReason(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		return string(r[:n])
	}
	return s
}

// extractProxies 第一步：调用提取接口，返回代理列表
func extractProxies(apiBase, apiKey string) ([]Proxy, error) {
	q := url.Values{}
	uid, aesKey, aesIV := os.Getenv("PROXY_UID"), os.Getenv("PROXY_AES_KEY"), os.Getenv("PROXY_AES_IV")
	if uid != "" && aesKey != "" && aesIV != "" {
		token, err := makeToken(apiKey, aesKey, aesIV) // AES令牌模式
		if err != nil {
			return nil, err
		}
		q.Set("uid", uid)
		q.Set("token", token)
	} else {
		q.Set("key", apiKey) // 密钥模式
	}
	q.Set("num", "1")
	q.Set("protocol", "http")
	q.Set("format", "json")
	u := apiBase + "/extract?" + q.Encode()

	// 提取接口直连访问，不走系统代理
	client := &http.Client{Timeout: timeout, Transport: &http.Transport{Proxy: nil}}
	resp, err := client.Get(u)
	if err != nil {
		return nil, fmt.Errorf("网络错误：无法连接提取接口 %s（%v）", apiBase, netReason(err))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("网络错误：读取提取接口响应失败（%v）", netReason(err))
	}

	var body extractResponse
	if err := json.Unmarshal(raw, &body); err != nil || body.Code == nil {
		return nil, fmt.Errorf("提取接口返回了无法解析的内容（HTTP %d）：%s", resp.StatusCode, truncate(string(raw), 200))
	}
	if *body.Code != 0 {
		return nil, &APIError{Code: *body.Code, Msg: body.Msg}
	}
	if len(body.Data.List) == 0 {
		return nil, errors.New("提取成功但未返回任何代理IP")
	}
	return body.Data.List, nil
}

// fetchViaProxy 第二步：通过 HTTP 代理访问目标网址（https 目标会自动使用 CONNECT 隧道）
func fetchViaProxy(p Proxy, target string) (int, string, error) {
	proxyURL := &url.URL{Scheme: "http", Host: p.IP + ":" + strconv.Itoa(p.Port)}
	if user := os.Getenv("PROXY_USER"); user != "" {
		proxyURL.User = url.UserPassword(user, os.Getenv("PROXY_PASS")) // 账号密码认证，否则为白名单认证
	}
	client := &http.Client{
		Timeout:   timeout,
		Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)},
	}
	req, err := http.NewRequest(http.MethodGet, target, nil)
	if err != nil {
		return 0, "", fmt.Errorf("测试网址无效：%v", err)
	}
	req.Header.Set("User-Agent", "proxy-demo-go")
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("网络错误：通过代理 %s 访问失败（%v）。请确认本机IP已加入白名单、代理未过期", proxyURL.Host, netReason(err))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, "", fmt.Errorf("网络错误：读取响应失败（%v）", netReason(err))
	}
	return resp.StatusCode, string(raw), nil
}

func run() error {
	apiBase := strings.TrimRight(getenv("PROXY_API_BASE", defaultAPIBase), "/")
	apiKey := getenv("PROXY_API_KEY", defaultAPIKey)
	testURL := getenv("PROXY_TEST_URL", defaultTestURL)

	if apiKey == "" || strings.HasPrefix(apiKey, "在这里填写") {
		return errors.New("请先设置 API 提取密钥：环境变量 PROXY_API_KEY，或修改 main.go 中的 defaultAPIKey 常量")
	}

	fmt.Printf("正在从 %s 提取代理……\n", apiBase)
	list, err := extractProxies(apiBase, apiKey)
	if err != nil {
		return err
	}
	p := list[0]
	protocol := p.Protocol
	if protocol == "" {
		protocol = "http"
	}
	fmt.Printf("提取成功：%s:%d（协议 %s）\n", p.IP, p.Port, protocol)
	if p.Region != "" || p.Carrier != "" {
		fmt.Printf("  地区/运营商：%s %s\n", p.Region, p.Carrier)
	}
	if p.ExpireAt != "" {
		fmt.Printf("  过期时间：%s\n", p.ExpireAt)
	}

	fmt.Printf("正在通过代理访问 %s ……\n", testURL)
	status, body, err := fetchViaProxy(p, testURL)
	if err != nil {
		return err
	}
	fmt.Printf("HTTP 状态码：%d\n", status)
	fmt.Println("响应内容：")
	fmt.Println(body)
	return nil
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		var apiErr *APIError
		if errors.As(err, &apiErr) {
			if hint, ok := errorHints[apiErr.Code]; ok {
				fmt.Fprintln(os.Stderr, "提示："+hint)
			}
		}
		os.Exit(1)
	}
}
