// What a console customer search matched, in words: the kinds of match a query can mean and the sentence that says
// which one found whom (the console shows one labelled list per kind, never a silent jump to one customer).

/** How a search term was read: a whole phone number, its last four digits, the start of one, a customer id, an order. */
export type CustomerMatchKind = 'phone' | 'phoneTail' | 'phonePrefix' | 'id' | 'order';

const KIND_TEXT: Record<CustomerMatchKind, string> = {
  phone: '按手机号',
  phoneTail: '按手机尾号',
  phonePrefix: '按手机号开头',
  id: '按客户编号',
  order: '按订单号',
};

/** E.g. 「按手机尾号 0001 找到 3 位客户」, 「按客户编号 1 没有找到客户」. */
export function customerMatchText(kind: CustomerMatchKind, term: string, count: number): string {
  return `${KIND_TEXT[kind]} ${term} ${count > 0 ? `找到 ${count} 位客户` : '没有找到客户'}`;
}
