// The operator's egress rules (decisions 193-194): ops (and admin) add and delete them, support cannot; each change
// is audited in the same batch and a refused one writes nothing; the node contract carries them in every full
// snapshot and in the next delta after a change; refusal reports accept the egress codes and the customer's
// refused-connection list explains them.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ActionInput } from '../../src/lib/api-core';
import { listEgressRules } from '../../src/server/db/egress-rules';
import { userIdOf } from '../helpers/accounts';
import { callApi, callApiUntyped, loginBySms, resetDb } from '../helpers/api';
import { addPool, backdateEgressPolicy, egressPolicyChangedAt, nodeCall } from '../helpers/delivery';
import { auditRows, operatorLogin } from '../helpers/operators';

type Egress = { blockedDomains: string[]; blockedCidrs: string[]; blockedPorts: number[]; smtpProductTypes: number[] };
type Contract = { cursor: string; full: boolean; egress?: Egress };

const auditOf = async (operatorId: number) =>
  (await auditRows({ operatorId, actionPrefix: 'Admin.Egress' })).map(({ action, target }) => ({ action, target }));

const contract = async (cursor?: string): Promise<Contract> => {
  const res = await nodeCall(
    'GET',
    cursor ? `/node/v2/contract?cursor=${encodeURIComponent(cursor)}&verifier=hs1` : '/node/v2/contract?verifier=hs1',
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Contract }).data;
};

beforeEach(async () => {
  await resetDb();
  await addPool([]);
});

describe('Admin.EgressRule*', { timeout: 60_000 }, () => {
  it('ops adds and deletes rules, audited with the change; support and customers are refused', async () => {
    const ops = await operatorLogin('ops');
    const support = await operatorLogin('support');
    const customer = await loginBySms('13900000271');
    const add = (cookie: string, kind: ActionInput<'Admin.EgressRuleAdd'>['kind'], value: string) =>
      callApi('Admin.EgressRuleAdd', { kind, value, note: '测试' }, { cookie });

    expect((await add(support.cookie, 'domain', 'evil.example')).status).toBe(403);
    expect((await add(customer, 'domain', 'evil.example')).status).toBe(403);
    expect((await callApi('Admin.EgressRuleList', {}, { cookie: support.cookie })).status).toBe(403);
    expect((await listEgressRules(env.DB)).length).toBe(0);

    expect((await add(ops.cookie, 'domain', '*.Evil.Example.')).body.P).toEqual({ added: true, value: 'evil.example' });
    expect((await add(ops.cookie, 'cidr', '198.18.0.0/15')).body.P?.value).toBe('198.18.0.0/15');
    expect((await add(ops.cookie, 'cidr', '2001:db8::1')).body.P?.value).toBe('2001:db8::1/128');
    expect((await add(ops.cookie, 'port', '6667')).body.P?.value).toBe('6667');
    expect((await add(ops.cookie, 'smtp_product', '30')).body.P?.value).toBe('30');
    const admin = await operatorLogin('admin');
    expect((await add(admin.cookie, 'port', '23')).body.P?.added).toBe(true);

    const list = await callApi('Admin.EgressRuleList', {}, { cookie: ops.cookie });
    expect(list.body.P?.list.map((r) => `${r.kind}:${r.value}`)).toEqual([
      'cidr:198.18.0.0/15',
      'cidr:2001:db8::1/128',
      'domain:evil.example',
      'port:23',
      'port:6667',
      'smtp_product:30',
    ]);
    const port = list.body.P?.list.find((r) => r.value === '6667');
    const del = await callApi('Admin.EgressRuleDelete', { id: port?.id ?? 0 }, { cookie: ops.cookie });
    expect(del.body.P).toEqual({ deleted: true });
    expect((await callApi('Admin.EgressRuleDelete', { id: port?.id ?? 0 }, { cookie: support.cookie })).status).toBe(
      403,
    );

    expect(await auditOf(ops.id)).toEqual([
      { action: 'Admin.EgressRuleAdd', target: 'egress:domain:evil.example' },
      { action: 'Admin.EgressRuleAdd', target: 'egress:cidr:198.18.0.0/15' },
      { action: 'Admin.EgressRuleAdd', target: 'egress:cidr:2001:db8::1/128' },
      { action: 'Admin.EgressRuleAdd', target: 'egress:port:6667' },
      { action: 'Admin.EgressRuleAdd', target: 'egress:smtp_product:30' },
      { action: 'Admin.EgressRuleDelete', target: 'egress:port:6667' },
    ]);
    expect(await auditOf(support.id)).toEqual([]);
  });

  it('refuses bad input, duplicates and missing rules, writing nothing', async () => {
    const ops = await operatorLogin('ops');
    for (const [kind, value] of [
      ['domain', 'not a domain'],
      ['domain', 'localhost'],
      ['domain', 'a\u0000b.example'],
      ['cidr', '10.0.0.0/33'],
      ['cidr', '0.0.0.0/0'],
      ['cidr', '300.1.1.1'],
      ['port', '0'],
      ['port', '70000'],
      ['port', '25a'],
      ['smtp_product', '99'],
      ['mx', 'x'],
    ]) {
      const r = await callApiUntyped('Admin.EgressRuleAdd', { kind, value }, { cookie: ops.cookie });
      expect(r.body.E, `${kind} ${value}`).toBeTruthy();
    }
    expect((await listEgressRules(env.DB)).length).toBe(0);
    expect(await auditOf(ops.id)).toEqual([]);
    const policyAt = await egressPolicyChangedAt();

    await callApi('Admin.EgressRuleAdd', { kind: 'port', value: '6667' }, { cookie: ops.cookie });
    const dup = await callApi('Admin.EgressRuleAdd', { kind: 'port', value: '06667' }, { cookie: ops.cookie });
    expect(dup.body.E).toBe('该规则已存在');
    const gone = await callApi('Admin.EgressRuleDelete', { id: 999999 }, { cookie: ops.cookie });
    expect(gone.body.E).toBe('规则不存在或已删除');
    expect((await listEgressRules(env.DB)).length).toBe(1);
    expect((await auditOf(ops.id)).map((r) => r.action)).toEqual(['Admin.EgressRuleAdd']);
    expect(await egressPolicyChangedAt()).toBeGreaterThan(policyAt);
  });
});

describe('the node contract carries the rules', () => {
  it('in every full snapshot, and in the next delta after a change (whole), not in unchanged deltas', async () => {
    const empty = await contract();
    expect(empty.full).toBe(true);
    expect(empty.egress).toEqual({ blockedDomains: [], blockedCidrs: [], blockedPorts: [], smtpProductTypes: [] });

    // An unchanged delta long after the last change leaves the rules out.
    await backdateEgressPolicy();
    const quiet = await contract(empty.cursor);
    expect(quiet.full).toBe(false);
    expect(quiet.egress).toBeUndefined();

    const ops = await operatorLogin('ops');
    await callApi('Admin.EgressRuleAdd', { kind: 'domain', value: 'evil.example' }, { cookie: ops.cookie });
    await callApi('Admin.EgressRuleAdd', { kind: 'cidr', value: '198.18.0.0/15' }, { cookie: ops.cookie });
    await callApi('Admin.EgressRuleAdd', { kind: 'port', value: '6667' }, { cookie: ops.cookie });
    await callApi('Admin.EgressRuleAdd', { kind: 'smtp_product', value: '30' }, { cookie: ops.cookie });
    const delta = await contract(quiet.cursor);
    expect(delta.full).toBe(false);
    expect(delta.egress).toEqual({
      blockedDomains: ['evil.example'],
      blockedCidrs: ['198.18.0.0/15'],
      blockedPorts: [6667],
      smtpProductTypes: [30],
    });
    expect((await contract()).egress).toEqual(delta.egress);
  });
});

describe('egress refusals', () => {
  it('are accepted in refusal reports and explained in the customer’s refused-connection list', async () => {
    await addPool([{ ip: '127.0.0.2' }]); // the node's exit 127.0.0.2:40000
    const cookie = await loginBySms('13900000272');
    const userId = await userIdOf('13900000272');
    const codes = [
      'target_port_forbidden',
      'target_not_public',
      'target_resolves_private',
      'target_blocked',
      'target_invalid',
    ];
    const now = Date.now();
    const res = await nodeCall(
      'POST',
      '/node/v2/refusals',
      JSON.stringify({
        batchId: 'n1-r-egress',
        rows: codes.map((code, i) => ({
          at: now - i,
          clientIp: '192.0.2.7',
          ip: '127.0.0.2',
          port: 40000,
          userId,
          code,
        })),
      }),
    );
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ stored: 5, duplicate: false });
    const list = await callApi('ProxyWhiteList.GetRefusals', {}, { cookie });
    const reasons = Object.fromEntries((list.body.P?.list ?? []).map((r) => [r.code, r.reason]));
    expect(reasons).toEqual({
      target_port_forbidden: '目标端口禁止访问：代理不开放该端口（如邮件端口25、465、587）',
      target_not_public: '目标地址禁止访问：代理不连接内网、本机及保留地址',
      target_resolves_private: '目标域名解析到内网或保留地址，禁止访问',
      target_blocked: '目标网站禁止访问：该域名或地址已被平台屏蔽',
      target_invalid: '目标地址无效：请检查请求的域名、IP和端口',
    });
  });
});
