// The error catalogue: every user-facing error and notice text (zh-CN) in one module, keyed by a stable code.
// Server answers carry the text in E; clients show it in a toast. Seed section 8 texts are kept verbatim.

export const messages = {
  // Seed section 8
  loginExpired: '登录已过期，请重新登录',
  accountUnavailable: '账号不可用',
  pageNotFound: '页面不存在',
  promotionLinkInvalid: '推广链接有误，请联系客服',
  copied: '复制成功',
  copiedBang: '复制成功！',
  // Protocol
  badEnvelope: '请求格式错误，无法解析',
  bodyTooLarge: '请求内容过大',
  unknownAction: '未知的接口',
  badSourceType: '来源类型无效',
  crossSite: '非法的请求来源',
  envelopeRequired: '请使用加密请求',
  invalidParams: '参数错误',
  forbidden: '没有权限执行此操作',
  realNameRequired: '请先完成实名认证',
  internal: '服务繁忙，请稍后再试',
  notFound: '请求的资源不存在',
  timeout: '请求超时，请检查网络后重试',
  network: '网络异常，请稍后再试',
  // Accounts and SMS
  phoneInvalid: '请输入正确的11位手机号',
  codeInvalidFormat: '请输入6位数字验证码',
  codeWrong: '验证码错误或已失效，请重新获取',
  codeTooFrequent: '验证码发送过于频繁，请1分钟后再试',
  codeHourLimit: '验证码发送次数过多，请1小时后再试',
  codeDayLimit: '今日验证码发送次数已达上限，请明天再试',
  codeIpLimit: '当前网络请求验证码过于频繁，请稍后再试',
  codeSent: '验证码已发送',
  smsFailed: '短信发送失败，请稍后再试',
  passwordInvalid: '密码需为8-32位，且同时包含字母和数字',
  loginFailed: '手机号或密码错误',
  loginLocked: '密码错误次数过多，账号已临时锁定，请15分钟后再试或使用验证码登录',
  noPassword: '该账号尚未设置密码，请使用验证码登录',
} as const;

export type MessageCode = keyof typeof messages;

/** The Chinese text for a catalogue code. */
export const msg = (code: MessageCode): string => messages[code];
