// Company bank transfer (对公转账, docs/decisions/227), the parts both sides read: the remittance reference's alphabet
// and how typed text becomes one, the rail's name on a payment attempt, and how long an order awaiting a transfer stays
// reserved.
import { DAY_MS } from './time';

/** 32 symbols without 0/O/1/I, so a reference read off a bank slip cannot be mistyped as another (5 bits each). */
export const TRANSFER_REFERENCE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const TRANSFER_REFERENCE_LENGTH = 8;

/** The rail of an attempt paid by a confirmed transfer (payments.provider). */
export const TRANSFER_RAIL = 'transfer';

/**
 * How long an order awaiting a transfer stays reserved, counted from the moment the customer chooses it: a transfer
 * takes 1-3 business days, and a weekend or a public holiday can lie in between (docs/decisions/227).
 */
export const TRANSFER_RESERVE_DAYS = 7;
export const TRANSFER_RESERVE_MS = TRANSFER_RESERVE_DAYS * DAY_MS;

/** Typed or pasted text as a reference (spaces and dashes dropped, upper case), or null when it cannot be one. */
export function normalizeTransferReference(text: string): string | null {
  const v = text.replace(/[\s-]/g, '').toUpperCase();
  const ok = v.length === TRANSFER_REFERENCE_LENGTH && [...v].every((c) => TRANSFER_REFERENCE_ALPHABET.includes(c));
  return ok ? v : null;
}

/** A reference for reading aloud and copying by eye: two groups of four (ABCD EFGH). */
export const spacedReference = (reference: string) => `${reference.slice(0, 4)} ${reference.slice(4)}`;
