// The stored states of an order (orders.state): their names, labels and predicates. TypeScript compares with these
// names and the SQL in src/server/db interpolates them (`state = ${ORDER_STATE.paid}`), so each number is written once.

export const ORDER_STATE = { pending: 1, paid: 2, closed: 3, refunded: 4 } as const;
export type OrderState = (typeof ORDER_STATE)[keyof typeof ORDER_STATE];

export const ORDER_STATE_LABEL: Record<number, string> = {
  [ORDER_STATE.pending]: '待支付',
  [ORDER_STATE.paid]: '已支付',
  [ORDER_STATE.closed]: '已关闭',
  [ORDER_STATE.refunded]: '已退款',
};

/** An order that took money: paid, or paid and then refunded in full. */
export const orderTookMoney = (state: number): boolean => state === ORDER_STATE.paid || state === ORDER_STATE.refunded;
