// Choices and limits of the enterprise consultation form (/firmsServer), without zod so the form stays light.
export const CONSULT_SCENARIOS = [
  '数据采集',
  '广告验证',
  '市场调研',
  'SEO优化',
  '新媒体矩阵',
  '价格监控',
  '金融数据',
  '网站测试',
  '其他',
] as const;
export const CONSULT_VOLUMES = [
  '10万IP/月以下',
  '10万-100万IP/月',
  '100万-1000万IP/月',
  '1000万IP/月以上',
  '暂不确定',
] as const;
export const CONSULT_LIMITS = { company: 60, contactName: 20, email: 100, message: 500 } as const;
export const CONSULT_PHONE_PATTERN = '^1[3-9]\\d{9}$';

/** The states of a consultation in the console's inbox. */
export const CONSULT_STATE_TEXT: Record<number, string> = { 0: '待处理', 1: '已联系', 2: '已关闭' };
