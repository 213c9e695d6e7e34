// The extraction call's result code in words, for the records page and the downloads (one list).

export const EXTRACT_RESULT_TEXT: Record<number, string> = {
  0: '成功',
  1002: '不在白名单',
  1003: '无可用套餐',
  1004: '余量不足',
  1005: '请求过频',
  1006: '参数错误',
  1007: '无满足条件的IP',
};
