# -*- coding: utf-8 -*-
"""代理IP提取 + 使用示例（Python 3.7+，仅使用标准库，无需 pip install）

流程：
  1. 调用提取接口获取 1 个 HTTP 代理（format=json）
  2. 打印代理地址
  3. 通过该代理访问 https://httpbin.org/ip 并打印响应

运行：
  PROXY_API_KEY=你的API提取密钥 python3 main.py

提取接口的两种认证（二选一）：
  密钥模式：只设 PROXY_API_KEY，链接带 key=密钥。
  AES令牌模式：再设 PROXY_UID（账号ID）、PROXY_AES_KEY、PROXY_AES_IV（账户面板“密钥”），
              链接改带 uid + token，密钥不在网络上传输。令牌 = Base64(AES-128-CBC(Key, IV, PKCS#7)
              ({"k":密钥,"t":毫秒时间戳}))，5分钟内有效、只能用一次。需要 pip install cryptography。
使用代理的两种认证（二选一）：
  白名单：本机公网IP在白名单中即可，无需账号密码。
  账号密码：设 PROXY_USER、PROXY_PASS（个人中心“API提取”页的代理账号密码）。
"""

import base64
import json
import os
import socket
import sys
import urllib.error
import urllib.parse
import urllib.request
import time

# ===== 配置（可通过环境变量覆盖，也可直接修改这里的常量） =====
API_BASE = os.environ.get("PROXY_API_BASE", "https://www.example-proxy.cn").rstrip("/")
API_KEY = os.environ.get("PROXY_API_KEY", "在这里填写你的API提取密钥")
TEST_URL = os.environ.get("PROXY_TEST_URL", "https://httpbin.org/ip")
# AES令牌模式（可选）：三项都设置时用 uid + token 代替 key
UID = os.environ.get("PROXY_UID", "")
AES_KEY = os.environ.get("PROXY_AES_KEY", "")
AES_IV = os.environ.get("PROXY_AES_IV", "")
# 代理账号密码（可选）：设置后用账号密码连接代理，否则用白名单
PROXY_USER = os.environ.get("PROXY_USER", "")
PROXY_PASS = os.environ.get("PROXY_PASS", "")
TIMEOUT = 15  # 秒

# 提取接口错误码说明
ERROR_HINTS = {
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


def make_token(api_key, aes_key, aes_iv):
    """AES令牌：Base64(AES-128-CBC(Key, IV, PKCS#7)({"k":密钥,"t":毫秒时间戳}))"""
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

    plain = json.dumps({"k": api_key, "t": int(time.time() * 1000)}, separators=(",", ":")).encode("utf-8")
    padder = padding.PKCS7(128).padder()
    data = padder.update(plain) + padder.finalize()
    enc = Cipher(algorithms.AES(aes_key.encode("utf-8")), modes.CBC(aes_iv.encode("utf-8"))).encryptor()
    return base64.b64encode(enc.update(data) + enc.finalize()).decode("ascii")


class ApiError(Exception):
    """提取接口返回的业务错误（code != 0）"""

    def __init__(self, code, msg):
        super().__init__("提取失败：code=%s，msg=%s" % (code, msg))
        self.code = code
        self.msg = msg


def extract_proxies():
    """第一步：调用提取接口，返回代理列表"""
    params = {"num": 1, "protocol": "http", "format": "json"}
    if UID and AES_KEY and AES_IV:
        params.update({"uid": UID, "token": make_token(API_KEY, AES_KEY, AES_IV)})  # AES令牌模式
    else:
        params["key"] = API_KEY  # 密钥模式
    query = urllib.parse.urlencode(params)
    url = "%s/extract?%s" % (API_BASE, query)

    # 提取接口本身直连访问，不走系统代理
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=TIMEOUT) as resp:
            status = resp.status
            text = resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        # 4xx/5xx：错误信息在响应体的 JSON 中
        status = e.code
        text = e.read().decode("utf-8", "replace")
    except (urllib.error.URLError, socket.timeout, OSError) as e:
        reason = getattr(e, "reason", e)
        raise RuntimeError("网络错误：无法连接提取接口 %s（%s）" % (API_BASE, reason))

    try:
        body = json.loads(text)
    except ValueError:
        raise RuntimeError(
            "提取接口返回了无法解析的内容（HTTP %s）：%s" % (status, text[:200])
        )
    if not isinstance(body, dict) or not isinstance(body.get("code"), int):
        raise RuntimeError("提取接口返回格式异常（HTTP %s）：%s" % (status, text[:200]))
    if body["code"] != 0:
        raise ApiError(body["code"], body.get("msg", ""))

    proxies = (body.get("data") or {}).get("list") or []
    if not proxies:
        raise RuntimeError("提取成功但未返回任何代理IP")
    return proxies


def fetch_via_proxy(ip, port, target_url):
    """第二步：通过 HTTP 代理访问目标网址（https 目标会自动使用 CONNECT 隧道）"""
    if PROXY_USER:
        # 账号密码认证：http://用户名:密码@ip:port（特殊字符需 URL 编码）
        auth = "%s:%s@" % (urllib.parse.quote(PROXY_USER, safe=""), urllib.parse.quote(PROXY_PASS, safe=""))
    else:
        auth = ""  # 白名单认证
    proxy = "http://%s%s:%s" % (auth, ip, port)
    handler = urllib.request.ProxyHandler({"http": proxy, "https": proxy})
    opener = urllib.request.build_opener(handler)
    req = urllib.request.Request(target_url, headers={"User-Agent": "proxy-demo-python"})
    try:
        with opener.open(req, timeout=TIMEOUT) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as e:
        # 目标网站返回了非 2xx 状态码，仍然打印出来
        return e.code, e.read().decode("utf-8", "replace")
    except (urllib.error.URLError, socket.timeout, OSError) as e:
        reason = getattr(e, "reason", e)
        raise RuntimeError(
            "网络错误：通过代理 %s:%s 访问失败（%s）。请确认本机IP已加入白名单或代理账号密码正确、代理未过期"
            % (ip, port, reason)
        )


def main():
    if not API_KEY or API_KEY.startswith("在这里填写"):
        print("请先设置 API 提取密钥：环境变量 PROXY_API_KEY，或修改 main.py 中的 API_KEY 常量",
              file=sys.stderr)
        return 1

    try:
        print("正在从 %s 提取代理……" % API_BASE)
        p = extract_proxies()[0]
        print("提取成功：%s:%s（协议 %s）" % (p["ip"], p["port"], p.get("protocol", "http")))
        if p.get("region") or p.get("carrier"):
            print("  地区/运营商：%s %s" % (p.get("region", "-"), p.get("carrier", "")))
        if p.get("expire_at"):
            print("  过期时间：%s" % p["expire_at"])

        print("正在通过代理访问 %s ……" % TEST_URL)
        status, body = fetch_via_proxy(p["ip"], p["port"], TEST_URL)
        print("HTTP 状态码：%s" % status)
        print("响应内容：")
        print(body)
        return 0
    except ApiError as e:
        print(e, file=sys.stderr)
        if e.code in ERROR_HINTS:
            print("提示：" + ERROR_HINTS[e.code], file=sys.stderr)
        return 1
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 1


if __name__ == "__main__":
    # Windows 控制台下避免中文输出报编码错误
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            try:
                stream.reconfigure(encoding="utf-8")
            except Exception:
                pass
    sys.exit(main())
