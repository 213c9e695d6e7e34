// The names of a proxy package's stored states, shown alike in the personal centre and the console.
export const PACKAGE_STATE_TEXT: Record<number, string> = {
  1: '使用中',
  2: '已过期',
  3: '已用完',
  4: '已删除',
  5: '已停用',
};
