// The operator's egress rules (docs/node-api.md "Egress policy"; docs/decisions/193-194): what a console entry may
// say, how it is written down, and how the rules travel in a node's contract. Nodes add them to the fixed policy
// (no private, own or reserved targets; SMTP ports only for the product types allowed them).
import { PRODUCT_TYPES } from '../../lib/commerce';
import type { EgressRuleKind } from '../../lib/egress-rules';
import type { ContractEgress } from '../../lib/node-wire';
import { deleteEgressRule, egressRulesChangedSince, findEgressRule, insertEgressRule } from '../db/egress-rules';
import type { AuditActor } from '../db/console-audit';

/** The rules as a node's contract carries them (`egress`; the node wire protocol, lib/node-wire.ts). */
export type { ContractEgress } from '../../lib/node-wire';

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** Whether a text is an IPv6 address (the URL parser is the validator available in the Worker). */
function isIPv6(s: string): boolean {
  if (!/^[0-9a-f:.]+$/.test(s) || !s.includes(':')) return false;
  try {
    new URL(`http://[${s}]/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * A rule's value in its stored form, or null when it is not one: a domain lower-cased without `*.`, a leading or
 * trailing dot; a CIDR (an address alone is a /32 or /128); a port 1-65535; a product type.
 */
export function normalizeEgressValue(kind: EgressRuleKind, raw: string): string | null {
  const v = raw.trim().toLowerCase();
  switch (kind) {
    case 'domain': {
      const d = v.replace(/^\*\./, '').replace(/^\./, '').replace(/\.$/, '');
      return DOMAIN.test(d) ? d : null;
    }
    case 'cidr': {
      const [addr = '', bits, extra] = v.split('/');
      if (extra !== undefined) return null;
      const v4 = IPV4.test(addr);
      if (!v4 && !isIPv6(addr)) return null;
      const max = v4 ? 32 : 128;
      if (bits === undefined) return `${addr}/${max}`;
      if (!/^\d{1,3}$/.test(bits) || Number(bits) > max || Number(bits) < (v4 ? 8 : 16)) return null;
      return `${addr}/${Number(bits)}`;
    }
    case 'port':
      return /^\d{1,5}$/.test(v) && Number(v) >= 1 && Number(v) <= 65535 ? String(Number(v)) : null;
    case 'smtp_product':
      return (PRODUCT_TYPES as readonly number[]).includes(Number(v)) && /^\d+$/.test(v) ? String(Number(v)) : null;
  }
}

export const toContractEgress = (rows: { kind: EgressRuleKind; value: string }[]): ContractEgress => ({
  blockedDomains: rows.filter((r) => r.kind === 'domain').map((r) => r.value),
  blockedCidrs: rows.filter((r) => r.kind === 'cidr').map((r) => r.value),
  blockedPorts: rows.filter((r) => r.kind === 'port').map((r) => Number(r.value)),
  smtpProductTypes: rows.filter((r) => r.kind === 'smtp_product').map((r) => Number(r.value)),
});

/** The rules for a delta: whole when they changed since `since`, else undefined (left out of the answer). */
export async function contractEgress(db: D1Database, since: number): Promise<ContractEgress | undefined> {
  const rows = await egressRulesChangedSince(db, since);
  return rows ? toContractEgress(rows) : undefined;
}

/** The rules for a full snapshot: always carried. */
export const fullContractEgress = async (db: D1Database): Promise<ContractEgress> =>
  toContractEgress((await egressRulesChangedSince(db, -1)) ?? []);

/** Adds a rule (audited with it); false when the same rule exists (nothing written). */
export async function addEgressRule(
  db: D1Database,
  actor: AuditActor,
  rule: { kind: EgressRuleKind; value: string; note: string },
): Promise<boolean> {
  return insertEgressRule(
    db,
    { ...rule, now: actor.now },
    {
      actor,
      entry: {
        action: 'Admin.EgressRuleAdd',
        target: `egress:${rule.kind}:${rule.value}`,
        after: { kind: rule.kind, value: rule.value, note: rule.note },
      },
    },
  );
}

/** Removes a rule (audited with it); false when it is gone already (nothing written). */
export async function removeEgressRule(db: D1Database, actor: AuditActor, id: number): Promise<boolean> {
  const before = await findEgressRule(db, id);
  if (!before) return false;
  return deleteEgressRule(db, id, actor.now, {
    actor,
    entry: {
      action: 'Admin.EgressRuleDelete',
      target: `egress:${before.kind}:${before.value}`,
      before: { kind: before.kind, value: before.value, note: before.note },
    },
  });
}
