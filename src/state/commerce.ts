// Commerce client state: the order being paid (one WeChat payment dialog per page reads it).
import { atom } from 'jotai';

export interface PayingOrder {
  orderNo: string;
  title: string;
  payFen: number;
  expiresAt: number;
  codeUrl: string | null;
}

/** The order whose payment dialog is open, or null. */
export const payingOrderAtom = atom<PayingOrder | null>(null);
