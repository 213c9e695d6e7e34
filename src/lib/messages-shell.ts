// The part of the error catalogue that the page shell needs in the browser on every page (API transport, session
// expiry, promotion links, copying). src/lib/messages.ts spreads it into the catalogue, so each text has one source;
// browser code of the shell imports this module so pages do not ship the whole catalogue (issue 12).
export const shellMessages = {
  // Seed section 8
  loginExpired: '登录已过期，请重新登录',
  promotionLinkInvalid: '推广链接有误，请联系客服',
  copied: '复制成功',
  copyFailed: '复制失败，请手动复制',
  // Protocol
  internal: '服务繁忙，请稍后再试',
  timeout: '请求超时，请检查网络后重试',
  network: '网络异常，请稍后再试',
} as const;
