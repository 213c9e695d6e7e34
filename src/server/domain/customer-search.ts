// How the console reads a customer search term: every reading a term allows (whole phone, last four digits, start of
// a phone, customer id, order number) is searched and reported on its own, so the operator sees which one matched.
import type { CustomerMatchKind } from '../../lib/customer-search';

/**
 * The readings of a search term, most specific first: 11 digits starting with 1 are a whole phone number; exactly four
 * digits are the last four of a phone AND (they could be) a customer id; other runs of 3-10 digits are the start of a
 * phone and a customer id; 1-2 digits a customer id; anything else an order number. Empty: none.
 */
export function customerQueryKinds(term: string): CustomerMatchKind[] {
  if (!term) return [];
  if (/^1\d{10}$/.test(term)) return ['phone'];
  if (/^\d{4}$/.test(term)) return ['phoneTail', 'id'];
  if (/^\d{3,10}$/.test(term)) return ['phonePrefix', 'id'];
  if (/^\d{1,2}$/.test(term)) return ['id'];
  return ['order'];
}
