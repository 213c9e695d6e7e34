// The node's refusal codes and Chinese reasons (node/src/authorize.ts, read as text: the node is its own package) and
// the portal's (src/server/domain/node-refusals.ts, the message catalogue) are one list: a code a node reports is
// accepted and explained the same way.
import { describe, expect, it } from 'vitest';
import authorizeSource from '../../node/src/authorize.ts?raw';
import { REFUSAL_CODES, refusalReason } from '../../src/server/domain/node-refusals';

const statusBlock = /REFUSAL_STATUS[^{]*\{([^}]*)\}/.exec(authorizeSource)?.[1] ?? '';
const nodeStatus = Object.fromEntries(
  [...statusBlock.matchAll(/(\w+): (\d+),/g)].map((m) => [m[1] as string, Number(m[2])]),
);
const nodeReason = (code: string, client: string) => {
  const m = new RegExp(`case '${code}':\\s*return ['\`](.*)['\`];`).exec(authorizeSource);
  return m?.[1]?.replace(/\$\{clientIp\}/, client);
};

describe('refusal codes', () => {
  it('are the same on the node and the portal, with the same reasons', () => {
    expect([...REFUSAL_CODES].sort()).toEqual(Object.keys(nodeStatus).sort());
    for (const code of REFUSAL_CODES)
      expect(refusalReason(code, '192.0.2.7'), code).toBe(nodeReason(code, '192.0.2.7'));
  });

  it('give the egress refusals Kuaidaili-like statuses', () => {
    expect(nodeStatus.target_port_forbidden).toBe(448);
    expect(nodeStatus.target_not_public).toBe(450);
    expect(nodeStatus.target_resolves_private).toBe(452);
  });
});
