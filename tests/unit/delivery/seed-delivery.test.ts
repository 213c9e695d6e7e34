// The development seed (docs/decisions/046): one local node and no documentation-range pool unless asked for.
import { describe, expect, it } from 'vitest';
import {
  hashExtractKey,
  openProxyPassword,
  parseVerifier,
  proxyPasswordVerifier,
} from '../../../src/server/domain/credential-secrets';
import { DEV_NODE_SECRET_KEY } from '../../../src/server/env';
import {
  DEFAULT_DEV_NODE_SECRET,
  DEMO_API_KEY,
  DEMO_NODES,
  DEMO_PROXY_ACCOUNT,
  demoDeliverySql,
} from '../../../src/server/seed/delivery';

const now = 1_795_000_000_000;
const poolInserts = (sql: string) => sql.split('\n').filter((l) => l.startsWith('INSERT INTO proxy_ips')).length;

describe('demo delivery seed', () => {
  it('seeds the development node with the given secret and no pool by default', async () => {
    const sql = await demoDeliverySql(now, { demoPool: false, devNodeSecret: 'secret-from-dev-vars-0123456789' });
    expect(sql).toContain("VALUES (1, 'local-dev-node', 'secret-from-dev-vars-0123456789', 1,");
    expect(poolInserts(sql)).toBe(0);
    expect(sql).not.toContain(DEMO_NODES[0].secret);
    // The demo fixed package asks for the 2 dedicated exits the local node brings.
    expect(sql).toContain("'固定IP · 2个 · 30天'");
    // Databases seeded before: documentation-range allocations released, those IPs dropped.
    expect(sql).toMatch(
      /UPDATE fixed_allocations SET released_at = \d+ WHERE released_at = 0 AND EXISTS \(SELECT 1 FROM proxy_ips WHERE id = fixed_allocations\.ip_id AND \(ip LIKE '203\.0\.113\.%'/,
    );
    expect(sql).toContain("DELETE FROM proxy_ips WHERE (ip LIKE '203.0.113.%'");
  });

  it('adds the documentation-range pool on nodes 101-103 for runs without a node', async () => {
    const sql = await demoDeliverySql(now, { demoPool: true, devNodeSecret: DEFAULT_DEV_NODE_SECRET });
    expect(poolInserts(sql)).toBe(762);
    for (const n of DEMO_NODES) expect(sql).toContain(`VALUES (${n.id}, '${n.name}'`);
    expect(sql).toContain("'固定IP · 5个 · 30天'");
  });

  it('stores the demo extraction key as its hash under the key given, and the proxy password sealed (decision 199)', async () => {
    const key = 'ab'.repeat(32);
    const sql = await demoDeliverySql(now, { demoPool: false, devNodeSecret: DEFAULT_DEV_NODE_SECRET, atRestKey: key });
    const line = sql.split('\n').find((l) => l.startsWith('INSERT INTO proxy_api_credentials')) ?? '';
    // The plain key appears only in the condition that converts a row seeded before (never as a stored value).
    expect(line.split(`'${DEMO_API_KEY}'`)).toHaveLength(2);
    expect(line).toMatch(new RegExp(`WHERE proxy_api_credentials.api_key = '${DEMO_API_KEY}';$`));
    expect(line).toContain(`'${await hashExtractKey(key, DEMO_API_KEY)}'`);
    expect(line).not.toContain(await hashExtractKey(DEV_NODE_SECRET_KEY, DEMO_API_KEY));
    expect(line).not.toContain(DEMO_PROXY_ACCOUNT.password);
    const sealed = /'(gcm1:[^']+)'/.exec(line)?.[1] ?? '';
    expect(await openProxyPassword(key, sealed)).toBe(DEMO_PROXY_ACCOUNT.password);
    const verifier = parseVerifier(/'(hs1\$[^']+)'/.exec(line)?.[1] ?? '');
    expect(verifier).not.toBeNull();
    expect(
      await proxyPasswordVerifier(DEMO_PROXY_ACCOUNT.username, DEMO_PROXY_ACCOUNT.password, verifier?.saltHex),
    ).toBe(`hs1$${verifier?.saltHex}$${verifier?.macHex}`);
  });
});
