// Commerce client state: the order being paid (one WeChat payment dialog per page reads it).
import { atom } from 'jotai';
import type { ActionOutput } from '../lib/api-core';

/** The order being paid: what placing it answered (PayOrder.BuyProxy and the other order actions). */
export type PayingOrder = Pick<
  ActionOutput<'PayOrder.BuyProxy'>,
  'orderNo' | 'title' | 'payFen' | 'expiresAt' | 'codeUrl'
>;

/** The order whose payment dialog is open, or null. */
export const payingOrderAtom = atom<PayingOrder | null>(null);
