// 代理IP提取 + 使用示例（Node.js 22，仅使用内置模块，无需 npm install）
//
// 流程：
//   1. 调用提取接口获取 1 个 HTTP 代理（format=json）
//   2. 打印代理地址
//   3. 通过该代理访问 https://httpbin.org/ip 并打印响应
//
// 运行：
//   PROXY_API_KEY=你的API提取密钥 node index.mjs
//
// 提取接口的两种认证（二选一）：
//   密钥模式：只设 PROXY_API_KEY，链接带 key=密钥。
//   AES令牌模式：再设 PROXY_UID（账号ID）、PROXY_AES_KEY、PROXY_AES_IV（账户面板“密钥”），链接改带 uid + token。
//     token = Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳}))，5分钟内有效、只能用一次。
// 使用代理的两种认证（二选一）：
//   白名单：本机公网IP在白名单中即可；
//   账号密码：设 PROXY_USER、PROXY_PASS（个人中心“API提取”页的代理账号密码）。

import { createCipheriv } from "node:crypto";
import http from "node:http";
import https from "node:https";
import process from "node:process";
import tls from "node:tls";

// ===== 配置（可通过环境变量覆盖，也可直接修改这里的常量） =====
const API_BASE = (process.env.PROXY_API_BASE || "https://www.example-proxy.cn").replace(/\/+$/, "");
const API_KEY = process.env.PROXY_API_KEY || "在这里填写你的API提取密钥";
const TEST_URL = process.env.PROXY_TEST_URL || "https://httpbin.org/ip";
const TIMEOUT_MS = 15000;
// AES令牌模式（可选）：三项都设置时用 uid + token 代替 key
const UID = process.env.PROXY_UID || "";
const AES_KEY = process.env.PROXY_AES_KEY || "";
const AES_IV = process.env.PROXY_AES_IV || "";
// 代理账号密码（可选）：设置后用账号密码连接代理，否则用白名单
const PROXY_USER = process.env.PROXY_USER || "";
const PROXY_PASS = process.env.PROXY_PASS || "";

// 提取接口错误码说明
const ERROR_HINTS = {
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
};

/** AES令牌：Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳})) */
function makeToken(apiKey, aesKey, aesIv) {
  const cipher = createCipheriv("aes-128-cbc", Buffer.from(aesKey, "utf8"), Buffer.from(aesIv, "utf8"));
  const plain = JSON.stringify({ k: apiKey, t: Date.now() });
  return Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]).toString("base64");
}

/** 代理账号密码认证的请求头（白名单认证时为空） */
function proxyAuthHeaders() {
  if (!PROXY_USER) return {};
  return { "Proxy-Authorization": `Basic ${Buffer.from(`${PROXY_USER}:${PROXY_PASS}`).toString("base64")}` };
}

class ApiError extends Error {
  constructor(code, msg) {
    super(`提取失败：code=${code}，msg=${msg}`);
    this.code = code;
    this.msg = msg;
  }
}

/** 第一步：调用提取接口，返回代理列表 */
async function extractProxies() {
  const params = new URLSearchParams({ num: "1", protocol: "http", format: "json" });
  if (UID && AES_KEY && AES_IV) {
    params.set("uid", UID); // AES令牌模式
    params.set("token", makeToken(API_KEY, AES_KEY, AES_IV));
  } else {
    params.set("key", API_KEY); // 密钥模式
  }
  const url = `${API_BASE}/extract?${params}`;

  let res;
  let text;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    text = await res.text();
  } catch (err) {
    const reason = err?.cause?.message || err?.message || String(err);
    throw new Error(`网络错误：无法连接提取接口 ${API_BASE}（${reason}）`);
  }

  let body;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`提取接口返回了无法解析的内容（HTTP ${res.status}）：${text.slice(0, 200)}`);
  }
  if (typeof body?.code !== "number") {
    throw new Error(`提取接口返回格式异常（HTTP ${res.status}）：${text.slice(0, 200)}`);
  }
  if (body.code !== 0) {
    throw new ApiError(body.code, body.msg ?? "");
  }
  const list = body.data?.list ?? [];
  if (list.length === 0) {
    throw new Error("提取成功但未返回任何代理IP");
  }
  return list;
}

/** 读取响应体为字符串 */
function readBody(res) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    res.on("data", (c) => chunks.push(c));
    res.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    res.on("error", reject);
  });
}

/**
 * 第二步：通过 HTTP 代理访问目标网址。
 * - https 目标：先向代理发送 CONNECT 建立隧道，再在隧道上做 TLS 握手；
 * - http 目标：直接把完整 URL 作为请求路径发给代理。
 */
function fetchViaHttpProxy(proxyHost, proxyPort, targetUrl) {
  const target = new URL(targetUrl);
  const isHttps = target.protocol === "https:";
  const targetPort = Number(target.port) || (isHttps ? 443 : 80);

  return new Promise((resolve, reject) => {
    const fail = (msg) => (err) =>
      reject(new Error(`${msg}（${err?.message || err}）。请确认本机IP已加入白名单或代理账号密码正确、代理未过期`));

    if (!isHttps) {
      const req = http.request(
        {
          host: proxyHost,
          port: proxyPort,
          method: "GET",
          path: target.href,
          headers: { Host: target.host, "User-Agent": "proxy-demo-node", ...proxyAuthHeaders() },
          timeout: TIMEOUT_MS,
        },
        (res) => readBody(res).then((body) => resolve({ status: res.statusCode, body }), reject),
      );
      req.on("timeout", () => req.destroy(new Error("请求超时")));
      req.on("error", fail(`网络错误：通过代理 ${proxyHost}:${proxyPort} 访问失败`));
      req.end();
      return;
    }

    const authority = `${target.hostname}:${targetPort}`;
    const connectReq = http.request({
      host: proxyHost,
      port: proxyPort,
      method: "CONNECT",
      path: authority,
      headers: { Host: authority, ...proxyAuthHeaders() },
      timeout: TIMEOUT_MS,
    });
    connectReq.on("timeout", () => connectReq.destroy(new Error("连接代理超时")));
    connectReq.on("error", fail(`网络错误：无法连接代理 ${proxyHost}:${proxyPort}`));
    connectReq.on("connect", (res, socket, head) => {
      connectReq.setTimeout(0);
      if (res.statusCode !== 200) {
        socket.destroy();
        reject(
          new Error(
            `代理拒绝建立隧道：HTTP ${res.statusCode}（请确认本机IP已加入白名单或代理账号密码正确、代理未过期）`,
          ),
        );
        return;
      }
      if (head && head.length) socket.unshift(head);

      const req = https.request(
        {
          host: target.hostname,
          port: targetPort,
          method: "GET",
          path: target.pathname + target.search,
          headers: { Host: target.host, "User-Agent": "proxy-demo-node" },
          timeout: TIMEOUT_MS,
          // 复用已建立的隧道 socket，在其上完成 TLS 握手
          createConnection: () => tls.connect({ socket, servername: target.hostname }),
        },
        (resp) => readBody(resp).then((body) => resolve({ status: resp.statusCode, body }), reject),
      );
      req.on("timeout", () => req.destroy(new Error("请求超时")));
      req.on("error", fail("网络错误：通过代理隧道访问目标网站失败"));
      req.end();
    });
    connectReq.end();
  });
}

async function main() {
  if (!API_KEY || API_KEY.startsWith("在这里填写")) {
    console.error("请先设置 API 提取密钥：环境变量 PROXY_API_KEY，或修改 index.mjs 中的 API_KEY 常量");
    process.exit(1);
  }

  console.log(`正在从 ${API_BASE} 提取代理……`);
  const list = await extractProxies();
  const p = list[0];
  console.log(`提取成功：${p.ip}:${p.port}（协议 ${p.protocol ?? "http"}）`);
  if (p.region || p.carrier) console.log(`  地区/运营商：${p.region ?? "-"} ${p.carrier ?? ""}`);
  if (p.expire_at) console.log(`  过期时间：${p.expire_at}`);

  console.log(`正在通过代理访问 ${TEST_URL} ……`);
  const { status, body } = await fetchViaHttpProxy(p.ip, Number(p.port), TEST_URL);
  console.log(`HTTP 状态码：${status}`);
  console.log("响应内容：");
  console.log(body);
}

main().catch((err) => {
  if (err instanceof ApiError) {
    console.error(err.message);
    if (ERROR_HINTS[err.code]) console.error(`提示：${ERROR_HINTS[err.code]}`);
  } else {
    console.error(err?.message || err);
  }
  process.exit(1);
});
