// The console's writes and what they change: audited writes are one batch (a failed change leaves no audit row and a
// failed audit row leaves no change), customer suspension stops /extract at once, unlock, the last admin, the
// dashboard's figures, the refund preview and the CSV export.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { customerMatchText } from '../../src/lib/customer-search';
import { shanghaiDay } from '../../src/lib/time';
import { auditInsertStatement } from '../../src/server/db/console-audit';
import { setCustomerStatusStatement } from '../../src/server/db/console-customers';
import { findUserById } from '../../src/server/db/users';
import { auditedWrite } from '../../src/server/domain/console-audit';
import { VERIFICATION_STATE } from '../../src/lib/trust-states';
import {
  customerWithId,
  failingCustomerChange,
  lockCustomer,
  phoneTailSearchPlan,
  sessionCount,
  userIdOf,
} from '../helpers/accounts';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import { addPool, allowIp, extractCall, feedCount, makePackage, makeUser } from '../helpers/delivery';
import { auditRows, deleteAuditRows, operatorLogin, rewriteAuditRows } from '../helpers/operators';
import { personalVerifications } from '../helpers/trust';

beforeEach(resetDb);

const audit = (operatorId: number) => auditRows({ operatorId });
const userStatus = async (id: number) => (await findUserById(env.DB, id))?.status;

describe('audited writes', { timeout: 30_000 }, () => {
  it('write the change and its audit row together, or neither', async () => {
    const u = await makeUser();
    const actor = {
      operatorId: 999_001,
      operatorName: 't',
      role: 'support' as const,
      ip: '198.51.100.9',
      now: Date.now(),
    };
    // A failing audit row (role outside the CHECK) takes the change down with it.
    await expect(
      auditedWrite(env.DB, { ...actor, role: 'nobody' as never }, { action: 'X' }, [
        setCustomerStatusStatement(env.DB, { userId: u.id, from: 1, to: 2, now: actor.now }),
      ]),
    ).rejects.toThrow();
    expect(await userStatus(u.id)).toBe(1);
    expect(await audit(999_001)).toEqual([]);
    // A failing change (a NOT NULL violation) leaves no audit row.
    await expect(auditedWrite(env.DB, actor, { action: 'X' }, [failingCustomerChange(u.id)])).rejects.toThrow();
    expect(await audit(999_001)).toEqual([]);
    // A conditional change that matches nothing records nothing when the write requires a change.
    const none = await auditedWrite(
      env.DB,
      actor,
      { action: 'X' },
      [setCustomerStatusStatement(env.DB, { userId: u.id, from: 2, to: 1, now: actor.now })],
      { requireChange: true },
    );
    expect(none.changed).toBe(0);
    expect(await audit(999_001)).toEqual([]);
    // And a real one writes both.
    const done = await auditedWrite(
      env.DB,
      actor,
      { action: 'Admin.SuspendCustomer', target: `user:${u.id}`, reason: '测试' },
      [setCustomerStatusStatement(env.DB, { userId: u.id, from: 1, to: 2, now: actor.now })],
      { requireChange: true },
    );
    expect(done.changed).toBe(1);
    expect(await userStatus(u.id)).toBe(2);
    expect(await audit(999_001)).toEqual([
      expect.objectContaining({ action: 'Admin.SuspendCustomer', reason: '测试' }),
    ]);
  });

  it('keeps the audit log append-only', async () => {
    await auditInsertStatement(
      env.DB,
      { operatorId: 999_002, operatorName: 't', role: 'admin', ip: '1', now: 1 },
      { action: 'X' },
    ).run();
    await expect(rewriteAuditRows(999_002)).rejects.toThrow(/append-only/);
    await expect(deleteAuditRows(999_002)).rejects.toThrow(/append-only/);
  });
});

describe('customers', { timeout: 30_000 }, () => {
  it('suspending a customer refuses their extraction at once and logs them out; restoring brings both back', async () => {
    const support = await operatorLogin('support');
    const u = await makeUser();
    await makePackage(u.id, { remaining: 50 });
    await allowIp(u.id, '192.0.2.50');
    await addPool([{ ip: '203.0.113.1' }, { ip: '203.0.113.2' }]);
    expect((await extractCall({ key: u.key, num: 1 })).status).toBe(200);

    expect(
      (await callApi('Admin.SuspendCustomer', { userId: u.id, reason: ' ' }, { cookie: support.cookie })).body.E,
    ).toBe('请填写操作原因（2-200个字）');
    expect(await userStatus(u.id)).toBe(1);
    const feedRows = () => feedCount('u', u.id);
    const feedBefore = await feedRows();
    const res = await callApi(
      'Admin.SuspendCustomer',
      { userId: u.id, reason: '涉嫌滥用' },
      { cookie: support.cookie },
    );
    expect(res.body.P).toEqual({ status: 2 });
    const refused = await extractCall({ key: u.key, num: 1 });
    expect(refused.status).not.toBe(200);
    // Proxy nodes learn it at their next pull: the change feed names the customer.
    expect(await feedRows()).toBe(feedBefore + 1);
    // Suspending twice is refused and not recorded twice.
    expect(
      (await callApi('Admin.SuspendCustomer', { userId: u.id, reason: '重复' }, { cookie: support.cookie })).body.E,
    ).toBe('用户状态已变化，请刷新后重试');
    const rows = await audit(support.id);
    expect(rows.filter((r) => r.action === 'Admin.SuspendCustomer')).toEqual([
      expect.objectContaining({ target: `user:${u.id}`, reason: '涉嫌滥用', role: 'support' }),
    ]);
    // The detail shows the history.
    const detail = await callApi('Admin.CustomerDetail', { userId: u.id }, { cookie: support.cookie });
    expect(detail.body.P?.user.status).toBe(2);
    expect(detail.body.P?.history.map((h) => h.action)).toEqual(['Admin.SuspendCustomer']);

    expect(
      (await callApi('Admin.RestoreCustomer', { userId: u.id, reason: '核实无误' }, { cookie: support.cookie })).body.P,
    ).toEqual({
      status: 1,
    });
    expect((await extractCall({ key: u.key, num: 1 })).status).toBe(200);
  });

  it("ends a suspended customer's sessions", async () => {
    const support = await operatorLogin('support');
    const cookie = await loginBySms('13900000081');
    const id = await userIdOf('13900000081');
    expect((await callApi('User.GetMineInfo', {}, { cookie })).status).toBe(200);
    await callApi('Admin.SuspendCustomer', { userId: id, reason: '账号被盗' }, { cookie: support.cookie });
    expect((await callApi('User.GetMineInfo', {}, { cookie })).status).toBe(401);
    expect(await sessionCount(id)).toBe(0);
  });

  it('finds customers by the last four digits of their phone and by id, saying which matched each', async () => {
    const support = await operatorLogin('support');
    // Three customers whose phones end in 0001, and customer #1 (whose phone does not).
    for (const [id, phone] of [
      [1, '13800000002'],
      [2, '13900010001'],
      [3, '13700020001'],
      [4, '15000030001'],
    ] as const) {
      await customerWithId(id, phone);
    }
    const search = async (q: string) =>
      (await callApi('Admin.CustomerSearch', { q }, { cookie: support.cookie })).body.P;

    const tail = await search('0001');
    expect(tail?.matches.map((m) => m.kind)).toEqual(['phoneTail', 'id']);
    const byTail = tail?.matches[0]?.list ?? [];
    expect(byTail.map((u) => u.phone).sort()).toEqual(['13700020001', '13900010001', '15000030001']);
    expect(customerMatchText('phoneTail', '0001', byTail.length)).toBe('按手机尾号 0001 找到 3 位客户');
    expect(tail?.matches[1]?.list.map((u) => u.phone)).toEqual(['13800000002']);
    expect(customerMatchText('id', '1', 1)).toBe('按客户编号 1 找到 1 位客户');

    const whole = await search('13900010001');
    expect(whole?.matches.map((m) => [m.kind, m.list.map((u) => u.phone)])).toEqual([['phone', ['13900010001']]]);
    const byId = await search('3');
    expect(byId?.matches.map((m) => [m.kind, m.list.map((u) => u.phone)])).toEqual([['id', ['13700020001']]]);
    // The tail search is served by its index, not a scan of every customer.
    expect(await phoneTailSearchPlan('0001')).toContain('users_phone_tail');
  });

  it('finds customers by phone prefix, id and order number, and unlocks a password lock', async () => {
    const support = await operatorLogin('support');
    const u = await makeUser();
    const byPhone = await callApi('Admin.CustomerSearch', { q: u.phone.slice(0, 7) }, { cookie: support.cookie });
    expect(byPhone.body.P?.list.map((r) => r.id)).toContain(u.id);
    const byId = await callApi('Admin.CustomerSearch', { q: String(u.id) }, { cookie: support.cookie });
    expect(byId.body.P?.list.map((r) => r.id)).toContain(u.id);

    await lockCustomer(u.id, Date.now() + 600_000);
    expect(
      (await callApi('Admin.UnlockCustomer', { userId: u.id, reason: '本人来电' }, { cookie: support.cookie })).body.P,
    ).toEqual({
      unlocked: true,
    });
    expect((await findUserById(env.DB, u.id))?.lockedUntil).toBe(0);
    // Nothing locked: nothing changes and nothing is recorded.
    expect(
      (await callApi('Admin.UnlockCustomer', { userId: u.id, reason: '本人来电' }, { cookie: support.cookie })).body.P,
    ).toEqual({
      unlocked: false,
    });
    expect((await audit(support.id)).filter((r) => r.action === 'Admin.UnlockCustomer')).toHaveLength(1);
  });
});

describe('operators', { timeout: 30_000 }, () => {
  it('never disables or demotes the last admin, and records changes with before and after', async () => {
    const admin = await operatorLogin('admin');
    const res = await callApi(
      'Admin.OperatorUpdate',
      { id: admin.id, role: 'finance', status: 1, reason: '调岗测试' },
      { cookie: admin.cookie },
    );
    expect(res.body.E).toBe('不能停用或降级最后一个管理员');
    expect(
      (
        await callApi(
          'Admin.OperatorUpdate',
          { id: admin.id, role: 'admin', status: 2, reason: '停用测试' },
          { cookie: admin.cookie },
        )
      ).body.E,
    ).toBe('不能停用或降级最后一个管理员');
    expect((await audit(admin.id)).map((r) => r.action)).toEqual(['Operator.Login']);

    const created = await callApi(
      'Admin.OperatorCreate',
      { username: 'fin_li', displayName: '李财务', role: 'finance', password: 'short' },
      { cookie: admin.cookie },
    );
    expect(created.body.E).toBe('密码至少12位');
    const ok = await callApi(
      'Admin.OperatorCreate',
      { username: 'fin_li', displayName: '李财务', role: 'finance', password: 'a-long-password-1' },
      { cookie: admin.cookie },
    );
    const id = ok.body.P?.id as number;
    expect(id).toBeGreaterThan(0);
    expect(
      (
        await callApi(
          'Admin.OperatorCreate',
          { username: 'FIN_LI', displayName: 'x', role: 'ops', password: 'a-long-password-1' },
          { cookie: admin.cookie },
        )
      ).body.E,
    ).toBe('该账号名已被使用');
    await callApi('Admin.OperatorUpdate', { id, role: 'admin', status: 1, reason: '晋升' }, { cookie: admin.cookie });
    // With a second admin, the first may step down.
    expect(
      (
        await callApi(
          'Admin.OperatorUpdate',
          { id: admin.id, role: 'support', status: 1, reason: '调岗' },
          { cookie: admin.cookie },
        )
      ).body.P,
    ).toMatchObject({
      role: 'support',
    });
    const rows = await audit(admin.id);
    expect(rows.map((r) => r.action)).toEqual([
      'Operator.Login',
      'Admin.OperatorCreate',
      'Admin.OperatorUpdate',
      'Admin.OperatorUpdate',
    ]);
    expect(rows[3]).toMatchObject({
      before: '{"role":"admin","status":1}',
      after: '{"role":"support","status":1}',
    });
    // Demoting ended the demoted admin's own session.
    expect((await callApi('Admin.OperatorList', {}, { cookie: admin.cookie })).status).toBe(401);
  });
});

describe('dashboard and audit search', { timeout: 30_000 }, () => {
  it('counts registrations and extraction, lists the to-do, and finds audit rows', async () => {
    const admin = await operatorLogin('admin');
    const u = await makeUser();
    await makePackage(u.id, { remaining: 50 });
    // A paid fixed-IP package whose region has no free IP yet: the to-do says it is waiting.
    await makePackage(u.id, { type: 30, billing: 2, ipCount: 2 });
    await allowIp(u.id, '192.0.2.50');
    await addPool([{ ip: '203.0.113.1' }, { ip: '203.0.113.2' }, { ip: '203.0.113.3' }]);
    await extractCall({ key: u.key, num: 2 });
    const d = await callApi('Admin.Dashboard', {}, { cookie: admin.cookie });
    expect(d.body.P?.today).toMatchObject({ registrations: 1, extractions: 1, ipsHandedOut: 2 });
    // The daily charts: 14 Shanghai days ending today, today's extraction counted, the other days zero.
    const days = d.body.P?.days ?? [];
    expect(days).toHaveLength(14);
    expect(days.at(-1)).toEqual({ day: shanghaiDay(Date.now()), revenueFen: 0, paidOrders: 0, extractions: 1 });
    expect(days.slice(0, -1).every((x) => x.extractions === 0)).toBe(true);
    // Pool health by region and carrier covers every pool IP.
    expect((d.body.P?.poolByRegion ?? []).reduce((n, r) => n + r.total, 0)).toBe(3);
    expect(d.body.P).toMatchObject({
      customers: 1,
      verifiedCustomers: 1,
      livePackages: [
        { productType: 10, n: 1 },
        { productType: 30, n: 1 },
      ],
    });
    expect(d.body.P?.todo).toEqual({
      companyReviews: 0,
      withdrawals: 0,
      refundNeeded: 0,
      refundIssues: 0,
      pendingAtProvider: 0,
      awaitingIps: 1,
    });

    await callApi('Admin.SuspendCustomer', { userId: u.id, reason: '测试检索' }, { cookie: admin.cookie });
    const found = await callApi('Admin.AuditSearch', { target: `user:${u.id}` }, { cookie: admin.cookie });
    expect(found.body.P?.list).toEqual([
      expect.objectContaining({ action: 'Admin.SuspendCustomer', operatorName: admin.username }),
    ]);
    // Another role reads only its own actions' entries (docs/decisions/203): ops does not see the suspension.
    const ops = await operatorLogin('ops');
    const opsView = await callApi('Admin.AuditSearch', { target: `user:${u.id}` }, { cookie: ops.cookie });
    expect(opsView.body.P?.list).toEqual([]);
  });
});

describe('personal verifications in the console', { timeout: 30_000 }, () => {
  it('support lists them masked, newest first, filtered by state and paged back; other roles are refused', async () => {
    const u = await makeUser();
    const now = Date.now();
    await personalVerifications(
      u.id,
      55,
      (i) => (i % 5 === 0 ? VERIFICATION_STATE.failed : VERIFICATION_STATE.passed),
      now,
    );
    const support = await operatorLogin('support');
    const first = await callApi('Admin.PersonalVerifications', {}, { cookie: support.cookie });
    const list = first.body.P?.list ?? [];
    expect(list).toHaveLength(50);
    expect(list[0]?.idMasked).toBe('1101**********0054');
    expect(JSON.stringify(first.body)).not.toContain('ENC-');
    const more = await callApi(
      'Admin.PersonalVerifications',
      { beforeId: first.body.P?.nextBeforeId },
      { cookie: support.cookie },
    );
    expect(more.body.P?.list).toHaveLength(5);
    expect(more.body.P?.nextBeforeId).toBeNull();
    const failed = await callApi('Admin.PersonalVerifications', { state: 2 }, { cookie: support.cookie });
    expect(failed.body.P?.list).toHaveLength(11);
    const finance = await operatorLogin('finance');
    const refused = await callApi('Admin.PersonalVerifications', {}, { cookie: finance.cookie });
    expect(refused.status).toBe(403);
  });
});
