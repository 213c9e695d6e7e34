// The node's refusal codes and Chinese reasons (node/src/authorize.ts) and the portal's (src/server/domain/
// node-refusals.ts, the message catalogue) are one list: a code a node reports is accepted and explained the same way.
import { describe, expect, it } from 'vitest';
import { refusalReason as nodeReason, REFUSAL_STATUS } from '../../node/src/authorize';
import { refusalReason as portalReason, REFUSAL_CODES } from '../../src/server/domain/node-refusals';

describe('refusal codes', () => {
  it('are the same on the node and the portal, with the same reasons', () => {
    expect([...REFUSAL_CODES].sort()).toEqual(Object.keys(REFUSAL_STATUS).sort());
    for (const code of REFUSAL_CODES) expect(portalReason(code, '192.0.2.7'), code).toBe(nodeReason(code, '192.0.2.7'));
  });

  it('give the egress refusals Kuaidaili-like statuses', () => {
    expect(REFUSAL_STATUS.target_port_forbidden).toBe(448);
    expect(REFUSAL_STATUS.target_not_public).toBe(450);
    expect(REFUSAL_STATUS.target_resolves_private).toBe(452);
  });
});
