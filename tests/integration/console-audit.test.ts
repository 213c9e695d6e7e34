// The audit log as operators read it (docs/decisions/203): every entry in words — the action's label, the object by
// its name (客户 138****3001, 订单 号), the change field by field with money in 元, times in 北京时间 and states as their
// labels, never a code, raw JSON, fen or epoch milliseconds — its filters (operator, action, object kind with an id or
// a customer's phone, date range), and each role reading its own actions' entries (admin all, finance also money).
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { registry } from '../../src/server/actions/registry';
import type { AuditRecord } from '../../src/server/db/console-audit';
import { AUDIT_ACTIONS, describeAudit } from '../../src/server/domain/console-audit-read';
import { userIdOf } from '../helpers/accounts';
import { callApi } from '../helpers/api';
import { payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { type OperatorLogin, operatorLogin } from '../helpers/operators';

beforeEach(resetWithCatalogue);

const MEAL = 101_010; // 短效 按量 50000个 · 3分钟: 4038 fen after the 15% activity
const PHONE = '13800003001';

interface Change {
  field: string;
  before: string | null;
  after: string | null;
}
interface Entry {
  action: string;
  actionLabel: string;
  object: string;
  objectHref: string | null;
  changes: Change[];
  note: string;
  reason: string;
  operatorName: string;
  roleLabel: string;
}
interface AuditAnswer {
  list: Entry[];
  actions: { value: string; label: string }[];
}

/** The log is append-only (a reset keeps it): each test reads from its own start. */
let t0 = 0;
beforeEach(() => {
  t0 = Date.now();
});

const search = async (op: OperatorLogin, q: Record<string, unknown> = {}) => {
  const res = await callApi('Admin.AuditSearch', { from: t0, ...q }, { cookie: op.cookie });
  expect(res.body.E).toBeUndefined();
  return res.body.P as unknown as AuditAnswer;
};

/** What the console shows of an entry: none of it may be a code, an English word, JSON or epoch milliseconds. */
const shown = (e: Entry) =>
  [
    e.actionLabel,
    e.object,
    e.note,
    e.roleLabel,
    ...e.changes.flatMap((c) => [c.field, c.before ?? '', c.after ?? '']),
  ].join(' | ');
const expectWords = (e: Entry, ids: string[] = []) => {
  const text = shown(e);
  // IP is a word of the products' own names; order and refund numbers are identifiers people quote as they are.
  const words = ids
    .reduce((t, id) => t.replaceAll(id, ''), text.replaceAll('IP', ''))
    .replace(/\bR\d{14}[A-Z0-9]+/g, '');
  expect(words, text).not.toMatch(/[A-Za-z]{2,}/);
  expect(text, text).not.toMatch(/(?<!\d)1[6-9]\d{11}(?!\d)/);
  expect(text, text).not.toMatch(/[{}[\]"]/);
};

const window = () => ({ startsAt: Date.now() - 60_000, endsAt: Date.now() + 7 * 86_400_000 });
const coupon = () => ({
  name: '立减10元券',
  kind: 1 as const,
  value: 1000,
  thresholdFen: 5000,
  productTypes: [10 as const],
  validDays: 7,
  perUserLimit: 1,
  totalStock: 5,
  ...window(),
});

async function paidOrder() {
  const buyer = await verifiedBuyer(PHONE);
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, buyer);
  await payInSimulator(order.codeUrl ?? '');
  return order.orderNo;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

describe('the audit log in words', { timeout: 60_000 }, () => {
  it('writes out a coupon created and edited, and a refund, field by field in 元, 北京时间 and labels', async () => {
    const admin = await operatorLogin('admin');
    const saved = await callApi('Admin.CouponSave', coupon(), { cookie: admin.cookie });
    const id = saved.body.P?.id ?? 0;
    await callApi('Admin.CouponSave', { ...coupon(), id, value: 2000, reason: '加大力度' }, { cookie: admin.cookie });
    const { list } = await search(admin, { action: 'Admin.CouponSave' });
    const [edited, created] = list;
    expect(created).toMatchObject({
      actionLabel: '新建优惠券',
      object: '优惠券 立减10元券（新建）',
      roleLabel: '管理员',
    });
    expect(created?.changes).toEqual(
      expect.arrayContaining([
        { field: '面额', before: null, after: '¥10.00' },
        { field: '使用门槛（订单原价满）', before: null, after: '¥50.00' },
        { field: '适用产品', before: null, after: '短效动态IP' },
        { field: '类型', before: null, after: '立减' },
      ]),
    );
    expect(created?.changes.find((c) => c.field === '开始时间')?.after).toMatch(DATE_TIME);
    // The edit names the coupon and shows only what changed.
    expect(edited).toMatchObject({ actionLabel: '修改优惠券', object: '优惠券 立减10元券', reason: '加大力度' });
    expect(edited?.changes).toEqual([{ field: '面额', before: '¥10.00', after: '¥20.00' }]);
    for (const e of list) expectWords(e);

    const finance = await operatorLogin('finance');
    const orderNo = await paidOrder();
    await callApi('Order.RefundByOrderNo', { orderNo, reason: '客户申请' }, { cookie: finance.cookie });
    const refunds = await search(finance, { objectKind: 'order', objectId: orderNo });
    expect(refunds.list).toHaveLength(1);
    const refund = refunds.list[0] as Entry;
    expect(refund).toMatchObject({
      actionLabel: '订单退款',
      object: `订单 ${orderNo}`,
      objectHref: `/admin/orders/${orderNo}`,
      reason: '客户申请',
      roleLabel: '财务',
    });
    expect(refund.changes).toEqual(
      expect.arrayContaining([
        { field: '状态', before: '已支付', after: '已退款' },
        { field: '金额', before: null, after: '¥40.38' },
      ]),
    );
    expectWords(refund, [orderNo]);
  });

  it('filters by operator, action, object (a customer by phone or id) and date range', async () => {
    const admin = await operatorLogin('admin');
    const support = await operatorLogin('support');
    await verifiedBuyer(PHONE);
    const uid = await userIdOf(PHONE);
    await callApi('Admin.SuspendCustomer', { userId: uid, reason: '测试停用' }, { cookie: support.cookie });
    await callApi('Admin.RestoreCustomer', { userId: uid, reason: '测试恢复' }, { cookie: support.cookie });
    await callApi('Admin.CouponSave', coupon(), { cookie: admin.cookie });

    const byPhone = await search(admin, { objectKind: 'user', objectId: PHONE });
    expect(byPhone.list.map((e) => [e.actionLabel, e.object])).toEqual([
      ['恢复客户账号', '客户 138****3001'],
      ['停用客户账号', '客户 138****3001'],
    ]);
    expect(byPhone.list[1]?.changes).toEqual([{ field: '状态', before: '正常', after: '已停用' }]);
    expect(byPhone.list[1]?.objectHref).toBe(`/admin/customers/${uid}`);
    expect((await search(admin, { objectKind: 'user', objectId: String(uid) })).list).toHaveLength(2);
    // The customer's page lists the same history in words.
    const detail = await callApi('Admin.CustomerDetail', { userId: uid }, { cookie: support.cookie });
    expect(detail.body.P?.history.map((e) => e.actionLabel)).toEqual(['恢复客户账号', '停用客户账号']);
    expect((await search(admin, { objectKind: 'user', objectId: '13999999999' })).list).toEqual([]);

    const suspended = await search(admin, { action: 'Admin.SuspendCustomer' });
    expect(suspended.list.map((e) => e.actionLabel)).toEqual(['停用客户账号']);
    const coupons = await search(admin, { objectKind: 'coupon' });
    expect(coupons.list.map((e) => e.actionLabel)).toEqual(['新建优惠券']);
    const bySupport = await search(admin, { operator: support.username });
    expect(bySupport.list.map((e) => e.actionLabel)).toEqual(['恢复客户账号', '停用客户账号', '登录后台']);
    // The date range: nothing before today's entries, everything in a range that holds them.
    const now = Date.now();
    expect((await search(admin, { to: now - 3_600_000 })).list).toEqual([]);
    expect((await search(admin, { from: now - 3_600_000, to: now + 3_600_000 })).list.length).toBeGreaterThan(4);
  });

  it('shows each role the entries of its own actions and operators; admin all, finance also money', async () => {
    const admin = await operatorLogin('admin');
    const finance = await operatorLogin('finance');
    const support = await operatorLogin('support');
    const content = await operatorLogin('content');
    const ops = await operatorLogin('ops');
    await callApi('Admin.CouponSave', coupon(), { cookie: admin.cookie });
    const node = await callApi('Admin.NodeCreate', { name: 'hk-audit-01' }, { cookie: ops.cookie });
    const nodeId = node.body.P?.id ?? 0;
    expect(nodeId).toBeGreaterThan(0);
    await callApi('Admin.NodeSetEnabled', { id: nodeId, enabled: false, reason: '机房维护' }, { cookie: ops.cookie });
    await verifiedBuyer(PHONE);
    await callApi(
      'Admin.SuspendCustomer',
      { userId: await userIdOf(PHONE), reason: '测试停用' },
      { cookie: support.cookie },
    );

    const labels = async (op: OperatorLogin) => (await search(op)).list.map((e) => e.actionLabel);
    // ops: its node actions (the node by its name) and its own sign-in; no coupon, no customer.
    const opsLog = await search(ops);
    expect(opsLog.list.map((e) => e.actionLabel)).toEqual(['启用或停用节点', '新建节点', '登录后台']);
    expect(opsLog.list[0]).toMatchObject({ object: '节点 hk-audit-01' });
    expect(opsLog.list[0]?.changes).toEqual([{ field: '状态', before: '启用', after: '停用' }]);
    expect(opsLog.actions.map((a) => a.label)).toContain('新建节点');
    expect(opsLog.actions.map((a) => a.label)).not.toContain('保存优惠券');
    // support: the customer it suspended, its sign-in; not the node or the coupon.
    expect(await labels(support)).toEqual(['停用客户账号', '登录后台']);
    // finance: the coupon (money), its own sign-in; not the node or the customer.
    expect(await labels(finance)).toEqual(['新建优惠券', '登录后台']);
    // content: only its own sign-in here.
    expect(await labels(content)).toEqual(['登录后台']);
    // admin: everything, every operator's sign-in included.
    const all = await labels(admin);
    for (const l of ['新建优惠券', '新建节点', '启用或停用节点', '停用客户账号']) expect(all).toContain(l);
    expect(all.filter((l) => l === '登录后台')).toHaveLength(5);
    // Filtering never widens what a role reads.
    expect((await search(support, { operator: ops.username })).list).toEqual([]);
    expect((await search(support, { action: 'Admin.NodeCreate' })).list).toEqual([]);
  });

  it('writes out summaries recorded as lists, switches, text and deletions, and never a cut summary raw', async () => {
    const row = (r: Partial<AuditRecord>): AuditRecord => ({
      id: 1,
      operatorId: 1,
      operatorName: 'ops_a',
      role: 'ops',
      action: 'Admin.OrderAskProvider',
      target: '',
      before: '',
      after: '',
      reason: '',
      clientIp: '127.0.0.1',
      createdAt: Date.now(),
      ...r,
    });
    const [asked, chat, egress, cut] = await describeAudit(env.DB, [
      row({ target: 'order:D1', after: JSON.stringify([{ outTradeNo: 'W1', outcome: 'paid' }]) }),
      row({ action: 'Admin.OnlineChatSet', target: 'setting:online_chat', before: 'false', after: 'true' }),
      row({
        action: 'Admin.EgressRuleDelete',
        target: 'egress:domain:mail.example',
        before: JSON.stringify({ kind: 'domain', value: 'mail.example', note: '' }),
      }),
      row({ action: 'Admin.MealSave', target: 'meal:7', after: `{"name":"${'长'.repeat(990)}` }),
    ]);
    expect(asked).toMatchObject({
      actionLabel: '向支付渠道查询支付结果',
      object: '订单 D1',
      note: '支付单号 W1，结果 已支付，已补记',
    });
    expect(chat).toMatchObject({
      object: '设置：在线客服',
      changes: [{ field: '内容', before: '关闭', after: '开启' }],
    });
    expect(egress?.object).toBe('出口规则 屏蔽域名（含子域名） mail.example');
    expect(egress?.changes).toContainEqual({ field: '类型', before: '屏蔽域名（含子域名）', after: null });
    expect(cut).toMatchObject({ actionLabel: '修改套餐', object: '套餐 #7', note: '（内容较长，未全部记录）' });
  });

  it('has a label for every name the log records', () => {
    const sources = import.meta.glob(['../../src/server/**/*.ts', '!../../src/server/seed/**'], {
      query: '?raw',
      import: 'default',
      eager: true,
    }) as Record<string, string>;
    const names = new Set<string>();
    for (const text of Object.values(sources)) {
      for (const line of text.split('\n')) {
        if (!/\baction: /.test(line)) continue;
        for (const m of line.matchAll(/'([A-Z][A-Za-z]+\.[A-Z][A-Za-z]+)'/g)) names.add(m[1] ?? '');
      }
      for (const m of text.matchAll(/contentDelete\(\s*'[a-z_]+',\s*'([A-Za-z]+\.[A-Za-z]+)'/g)) names.add(m[1] ?? '');
    }
    expect(names.size).toBeGreaterThan(40);
    const missing = [...names].filter((n) => !AUDIT_ACTIONS[n]);
    expect(missing).toEqual([]);
    // Every label names an action of the registry or a refusal event (a failed sign-in, a refused transfer confirmation).
    const events = ['Operator.LoginFailed', 'Admin.TransferRefused'];
    const unknown = Object.keys(AUDIT_ACTIONS).filter((n) => !(n in registry) && !events.includes(n));
    expect(unknown).toEqual([]);
  });
});
