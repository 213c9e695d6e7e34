// The development seed (docs/decisions/046): one local node and no documentation-range pool unless asked for.
import { describe, expect, it } from 'vitest';
import { DEFAULT_DEV_NODE_SECRET, DEMO_NODES, demoDeliverySql } from '../../../src/server/seed/delivery';

const now = 1_795_000_000_000;
const poolInserts = (sql: string) => sql.split('\n').filter((l) => l.startsWith('INSERT INTO proxy_ips')).length;

describe('demo delivery seed', () => {
  it('seeds the development node with the given secret and no pool by default', () => {
    const sql = demoDeliverySql(now, { demoPool: false, devNodeSecret: 'secret-from-dev-vars-0123456789' });
    expect(sql).toContain("VALUES (1, 'local-dev-node', 'secret-from-dev-vars-0123456789', 1,");
    expect(poolInserts(sql)).toBe(0);
    expect(sql).not.toContain(DEMO_NODES[0].secret);
    // The demo fixed package asks for the 2 dedicated exits the local node brings.
    expect(sql).toContain("'固定IP · 2个 · 30天'");
    // Databases seeded before: documentation-range allocations released, those IPs dropped.
    expect(sql).toMatch(/UPDATE fixed_allocations SET released_at = \d+ WHERE released_at = 0 AND ip_id IN/);
    expect(sql).toContain("DELETE FROM proxy_ips WHERE (ip LIKE '203.0.113.%'");
  });

  it('adds the documentation-range pool on nodes 101-103 for runs without a node', () => {
    const sql = demoDeliverySql(now, { demoPool: true, devNodeSecret: DEFAULT_DEV_NODE_SECRET });
    expect(poolInserts(sql)).toBe(762);
    for (const n of DEMO_NODES) expect(sql).toContain(`VALUES (${n.id}, '${n.name}'`);
    expect(sql).toContain("'固定IP · 5个 · 30天'");
  });
});
