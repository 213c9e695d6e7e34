// What the console demo's modules share (console.ts assembles them): the licence images and operators they name,
// the look-ups of seeded rows by their stable keys, and the fixed tails of the seeded order, payment and refund numbers.
import { col, lookup, rawSql, type SqlText } from './sql';

/** R2 keys of the demo licence images (scripts/seed.mjs puts scripts/lib/demo-licence.png under each). */
export const DEMO_LICENCE_KEYS = [
  'licences/demo/13500135001.png',
  'licences/demo/13500135002.png',
  'licences/demo/13500135003.png',
] as const;

/** The demo operators, one per role (TOTP is bound at the first login, as for any operator). */
export const CONSOLE_DEMO_OPERATORS = [
  { username: 'demo.admin', name: '演示管理员', role: 'admin' },
  { username: 'demo.finance', name: '财务小刘', role: 'finance' },
  { username: 'demo.support', name: '客服小王', role: 'support' },
  { username: 'demo.content', name: '运营小李', role: 'content' },
  { username: 'demo.ops', name: '运维老张', role: 'ops' },
] as const;

/** The id of the customer with this phone (NULL while the row is missing). */
export const user = (phone: string) => lookup('users', 'id', { phone });
/** The id of the operator with this username. */
export const op = (username: string) => lookup('operators', 'id', { username });
/** The id of the licence upload stored under this R2 key. */
export const licenceUpload = (r2Key: string) => lookup('company_licence_uploads', 'id', { r2_key: r2Key });

/** The fixed tail of a seeded order (O), payment (P) or refund (R) number. */
export const suffix = (kind: string, seq: number) => `SEED${kind}${String(seq).padStart(11, '0')}`;
/** Seeded numbers end in a fixed tail (their first 15 characters carry the time of the seed run). */
export const seededTail = (column: SqlText, kind: string, seq: number) =>
  rawSql`substr(${column}, 16) = ${suffix(kind, seq)}`;
export const orderNo = col('orders', 'order_no');
/** The seeded order `seq`: the row an INSERT … SELECT FROM orders reads. */
export const seededOrder = (seq: number) => seededTail(orderNo, 'O', seq);
export const fromOrder = (seq: number, ...also: SqlText[]) =>
  ({ from: 'orders', where: [seededOrder(seq), ...also] }) as const;
