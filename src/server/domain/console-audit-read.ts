// The audit log for people (docs/decisions/203): each entry in words — what was done (one zh-CN label per action
// name), to whom or what (客户 138****0001, 节点 名称, 订单 号), the change field by field as 前 → 后 with money in 元,
// times in 北京时间 and states as their labels — and who may read which entries (admin all; every other role the
// entries of the actions the registry opens to it and of its own operators; finance also every money action).
import { durationOption } from '../../lib/catalogue-rules';
import { INVOICE_STATE_LABEL, type InvoiceState } from '../../lib/invoice-rules';
import { BILLING_LABEL, couponFace, PRODUCT_LABEL } from '../../lib/commerce';
import { ORDER_STATE_LABEL } from '../../lib/order-states';
import { WITHDRAWAL_STATE_TEXT } from '../../lib/commission-rules';
import { CUSTOMER_STATUS_TEXT } from '../../lib/console-states';
import { PROVIDER_OUTCOME_TEXT } from '../../lib/provider-query';
import { type PayRail, REFUND_RAIL_NAME, refundRail, refundStatusText } from '../../lib/refund-rules';
import { EGRESS_RULE_LABEL } from '../../lib/egress-rules';
import { formatCount, formatFen, maskPhone } from '../../lib/format';
import { OPERATOR_ROLE_LABEL, type OperatorRole } from '../../lib/operator-roles';
import { shanghaiDateTime } from '../../lib/time';
import { type AuditRecord, auditObjectNames, searchAuditLog } from '../db/console-audit';
import { findUserByPhone } from '../db/users';
import { companyStateText } from './company-auth';
import { operatorActionRoles } from './operator-action-access';
import { articleStateText } from '../../lib/article-states';

/** One audited action: its label, and whether it moves money or prices (finance reads those too). */
interface AuditActionInfo {
  label: string;
  money?: true;
}

/**
 * Every name the audit log records (the registry's action names, and the sign-in events), in words. A label that
 * starts with 保存 reads 新建… for a new object and 修改… for an existing one. tests/unit/audit-labels.test.ts checks
 * that every name written anywhere has its label here.
 */
export const AUDIT_ACTIONS: Record<string, AuditActionInfo> = {
  'Operator.Login': { label: '登录后台' },
  'Operator.LoginFailed': { label: '登录失败' },
  'Operator.ChangePassword': { label: '修改自己的密码' },
  'Admin.OperatorCreate': { label: '新建运营账号' },
  'Admin.OperatorUpdate': { label: '修改运营账号' },
  'Admin.OperatorReset': { label: '重置运营账号密码' },
  'Admin.SuspendCustomer': { label: '停用客户账号' },
  'Admin.RestoreCustomer': { label: '恢复客户账号' },
  'Admin.UnlockCustomer': { label: '解除客户登录锁定' },
  'Admin.ExitTrace': { label: '出口IP溯源查询' },
  'Admin.CustomerHistoryExport': { label: '导出客户使用记录' },
  'Admin.CustomerRateLimit': { label: '修改客户提取频率' },
  'Admin.BalanceAdjust': { label: '调整客户账户余额', money: true },
  'Admin.GrantPackage': { label: '赠送套餐', money: true },
  'Admin.GrantApprove': { label: '批准赠送', money: true },
  'Admin.GrantReject': { label: '驳回赠送' },
  'Admin.GrantApprovalSave': { label: '修改赠送审批额度', money: true },
  'Admin.SellerSave': { label: '保存销售' },
  'Admin.SellerAssign': { label: '为客户指定销售' },
  'Admin.CouponSave': { label: '保存优惠券', money: true },
  'Admin.CouponSetState': { label: '启用或停用优惠券', money: true },
  'Admin.CouponIssue': { label: '发放优惠券', money: true },
  'Admin.RedLaunchSave': { label: '保存红包活动', money: true },
  'Admin.RedLaunchSetEnabled': { label: '启用或停用红包活动', money: true },
  'Admin.MealSave': { label: '保存套餐', money: true },
  'Admin.ActivitySave': { label: '保存折扣活动', money: true },
  'Admin.RegionSave': { label: '保存地区' },
  'Admin.CatalogueSetState': { label: '上架或下架商品', money: true },
  'Admin.RefundPayment': { label: '退还支付款', money: true },
  'Order.RefundByOrderNo': { label: '订单退款', money: true },
  'Admin.OrderAskProvider': { label: '向支付渠道查询支付结果', money: true },
  'Admin.TransferConfirm': { label: '确认对公转账到账', money: true },
  'Admin.TransferRefused': { label: '拒绝确认对公转账', money: true },
  'Admin.TransferRefundDone': { label: '标记对公转账退款已退回', money: true },
  'Admin.OrderExport': { label: '导出订单', money: true },
  'UserPromotion.ReviewWithdrawal': { label: '审核佣金提现', money: true },
  'Admin.InvoiceIssue': { label: '开具发票', money: true },
  'Admin.InvoiceRefuse': { label: '驳回发票申请', money: true },
  'Auth.CompanyReview': { label: '审核企业认证' },
  'Admin.ConsultMark': { label: '处理企业咨询' },
  'Admin.HelpCategorySave': { label: '保存帮助分类' },
  'Admin.HelpCategoryDelete': { label: '删除帮助分类' },
  'Admin.ArticleSave': { label: '保存文章' },
  'Admin.ArticlePublish': { label: '发布或隐藏文章' },
  'Admin.NoticeSave': { label: '保存公告' },
  'Admin.NoticeDelete': { label: '删除公告' },
  'Admin.FriendLinkSave': { label: '保存友情链接' },
  'Admin.FriendLinkDelete': { label: '删除友情链接' },
  'Admin.MarketingImageSave': { label: '保存营销图片' },
  'Admin.MarketingImageDelete': { label: '删除营销图片' },
  'Admin.MaterialSave': { label: '保存推广素材' },
  'Admin.MaterialDelete': { label: '删除推广素材' },
  'Admin.OnlineChatSet': { label: '开关在线客服' },
  'Admin.NodeCreate': { label: '新建节点' },
  'Admin.NodeSetEnabled': { label: '启用或停用节点' },
  'Admin.NodeRotateSecret': { label: '更换节点密钥' },
  'Admin.EgressRuleAdd': { label: '添加出口规则' },
  'Admin.EgressRuleDelete': { label: '删除出口规则' },
  'Redirect.Save': { label: '保存跳转规则' },
  'Redirect.Delete': { label: '删除跳转规则' },
  'Redirect.AllowedHostsSave': { label: '修改跳转允许的域名' },
};

/** The words for an action name (a name without a label reads 其他操作, never the code). */
export const auditActionLabel = (action: string): string => AUDIT_ACTIONS[action]?.label ?? '其他操作';

/** The kinds of object an entry names (the part of `kind:id` before the colon), in words. */
export const AUDIT_OBJECT_KINDS: Record<string, string> = {
  user: '客户',
  order: '订单',
  payment: '支付单',
  transfer: '对公转账',
  refund: '退款单',
  withdrawal: '提现申请',
  invoice: '发票申请',
  coupon: '优惠券',
  red_launch: '红包活动',
  meal: '套餐',
  activity: '折扣活动',
  region: '地区',
  seller: '销售',
  grant_request: '赠送申请',
  company_auth: '企业认证',
  consult: '企业咨询',
  node: '节点',
  egress: '出口规则',
  redirect: '跳转规则',
  operator: '运营账号',
  article: '文章',
  help_category: '帮助分类',
  home_notice: '公告',
  friend_link: '友情链接',
  marketing_image: '营销图片',
  promotion_material: '推广素材',
  setting: '设置',
  orders: '订单',
};

const SETTING_LABEL: Record<string, string> = {
  online_chat: '在线客服',
  redirect_allowed_hosts: '跳转允许的域名',
  grant_approval_above: '赠送审批额度',
};

/** Which entries an operator of `role` reads: admin every one; otherwise the rule of docs/decisions/203. */
export function auditReadableActions(role: OperatorRole): string[] | 'all' {
  if (role === 'admin') return 'all';
  return Object.entries(AUDIT_ACTIONS)
    .filter(([name, info]) => operatorActionRoles(name)?.includes(role) || (role === 'finance' && info.money))
    .map(([name]) => name);
}

// ---- values in words ----

const FIELD_LABEL: Record<string, string> = {
  name: '名称',
  title: '标题',
  description: '说明',
  kind: '类型',
  value: '面额',
  thresholdFen: '使用门槛（订单原价满）',
  productTypes: '适用产品',
  productType: '产品',
  validDays: '领取后有效天数',
  perUserLimit: '每人限领',
  totalStock: '库存',
  claimable: '客户可自领',
  startsAt: '开始时间',
  endsAt: '结束时间',
  state: '状态',
  status: '状态',
  enabled: '状态',
  userIds: '客户',
  ipDurationMinutes: 'IP时长',
  ipCount: 'IP数',
  budget: '红包个数',
  billingMethod: '计费方式',
  size: '数量',
  periodDays: '有效期（天）',
  priceFen: '每份价格',
  isOverseas: '海外线路',
  sort: '排序',
  mealId: '适用套餐',
  discountPercent: '折扣比例（%）',
  bonusPercent: '赠送比例（%）',
  province: '省份',
  provinceKey: '省份匹配词',
  cityKey: '城市匹配词',
  rateLimit: '每秒提取次数',
  totalCount: 'IP总数',
  dailyLimit: '每日IP数',
  days: '有效天数',
  region: '地区',
  carrier: '运营商',
  code: '推广码',
  phone: '手机号',
  username: '账号',
  displayName: '姓名',
  role: '角色',
  failedLogins: '登录失败次数',
  refundNeeded: '待退款',
  orderNo: '订单号',
  outRefundNo: '退款单号',
  amountFen: '金额',
  refundFen: '退款金额',
  decision: '处理结果',
  note: '备注',
  url: '地址',
  categoryId: '分类',
  bodyChars: '正文字数',
  topCategory: '上级分类',
  rows: '行数',
  from: '起始日期',
  to: '截止日期',
  count: '按量赠送上限（IP数）',
  daily: '包天赠送上限（每日IP数）',
  dedicated: '独享IP赠送上限',
  content: '内容',
  link: '链接',
  sellerId: '销售',
  outTradeNo: '支付单号',
  outcome: '结果',
  balanceFen: '账户余额',
  route: '退款去向',
  rail: '退回渠道',
  endsPackages: '停用套餐',
  invoiceNo: '发票号码',
  pdfBytes: '发票文件大小（字节）',
  reference: '汇款识别码',
  receivedFen: '到账金额',
  payerName: '付款户名',
  bankSerial: '银行流水号',
};

const DECISION_LABEL: Record<string, string> = {
  approve: '通过',
  individual: '按个人认证',
  reject: '驳回',
  revoke: '撤销',
  paid: '已打款',
};

const ON_OFF: Record<number, string> = { 1: '启用', 2: '停用' };
const OPERATOR_STATUS: Record<number, string> = { 1: '正常', 2: '已停用' };
const ARTICLE_KIND: Record<string, string> = { help: '帮助文章', news: '资讯' };

/** A field's label; `rail` is the rail a refund goes back by, except in a provider query (the rail asked). */
const fieldLabel = (k: string, c?: { action: string }) =>
  k === 'rail' && c?.action === 'Admin.OrderAskProvider' ? '支付渠道' : (FIELD_LABEL[k] ?? '其他');

/**
 * A value with no label of its own: a count, the text as it is, a list one by one, and an object (e.g. one payment's
 * outcome in a list) field by field with its labels.
 */
const plain = (v: unknown, c?: ValueContext): string => {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? '是' : '否';
  if (typeof v === 'number') return formatCount(v);
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.length === 0 ? '—' : v.map((x) => plain(x, c)).join('；');
  if (typeof v === 'object') {
    const side = v as Record<string, unknown>;
    return Object.entries(side)
      .map(([k, x]) => `${fieldLabel(k, c)} ${c ? fieldValue(k, x, { ...c, side }) : plain(x)}`)
      .join('，');
  }
  return '—';
};

interface ValueContext {
  objectKind: string;
  action: string;
  /** The other fields of the same side (a coupon's face value reads by its kind). */
  side: Record<string, unknown>;
  names: Map<string, string>;
}

function fieldValue(key: string, v: unknown, c: ValueContext): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'number' && /Fen$/.test(key)) return formatFen(v);
  if (typeof v === 'number' && /At$/.test(key)) return v > 0 ? shanghaiDateTime(v) : '不限';
  switch (key) {
    case 'value':
      if (c.objectKind === 'coupon' && typeof v === 'number') {
        const kind = Number(c.side.kind ?? 1);
        return kind === 2 ? `${couponFace(2, v)}（减免${v}%）` : formatFen(v);
      }
      if (c.objectKind === 'egress') return plain(v);
      break;
    case 'kind':
      if (c.objectKind === 'coupon') return v === 2 ? '折扣' : '立减';
      if (c.objectKind === 'egress') return EGRESS_RULE_LABEL[v as keyof typeof EGRESS_RULE_LABEL] ?? plain(v);
      if (c.objectKind === 'article') return ARTICLE_KIND[String(v)] ?? plain(v);
      break;
    case 'productTypes':
      return Array.isArray(v) && v.length > 0 ? v.map((t) => PRODUCT_LABEL[Number(t)] ?? plain(t)).join('、') : '全部';
    case 'productType':
      return PRODUCT_LABEL[Number(v)] ?? plain(v);
    case 'billingMethod':
      return Number(v) === 0 ? '全部' : (BILLING_LABEL[Number(v)] ?? plain(v));
    case 'ipDurationMinutes':
      return typeof v === 'number' ? durationOption(v) : plain(v);
    case 'role':
      return OPERATOR_ROLE_LABEL[v as OperatorRole] ?? plain(v);
    case 'decision':
      return DECISION_LABEL[String(v)] ?? plain(v);
    case 'rail':
      return REFUND_RAIL_NAME[v as PayRail] ?? plain(v);
    case 'route':
      return v === 'balance' ? '退回账户余额' : v === 'original' ? '原路退回' : plain(v);
    case 'enabled':
      return v ? '启用' : '停用';
    case 'mealId':
      return Number(v) === 0 ? '全部套餐' : `#${v}`;
    case 'phone':
      return typeof v === 'string' ? maskPhone(v) : plain(v);
    case 'userIds':
      return Array.isArray(v)
        ? `${v.length}位：${v
            .slice(0, 10)
            .map((id) => {
              const phone = c.names.get(`user:${id}`);
              return phone ? maskPhone(phone) : `#${id}`;
            })
            .join('、')}${v.length > 10 ? ' 等' : ''}`
        : plain(v);
    case 'state':
      if (c.objectKind === 'invoice') return INVOICE_STATE_LABEL[v as InvoiceState] ?? plain(v);
      return stateText(c, Number(v));
    case 'status':
      if (typeof v === 'string') return refundStatusText(v, auditRefundRail(c));
      if (c.objectKind === 'user') return CUSTOMER_STATUS_TEXT[Number(v)] ?? plain(v);
      if (c.objectKind === 'node') return Number(v) === 1 ? '启用' : '停用';
      if (c.objectKind === 'operator') return OPERATOR_STATUS[Number(v)] ?? plain(v);
      break;
    case 'refundNeeded':
      return v ? '是' : '否';
    case 'outcome':
      return PROVIDER_OUTCOME_TEXT[String(v)] ?? plain(v);
  }
  return plain(v, c);
}

/**
 * The rail of the refund an audit entry is about: written in the entry since refunds name it (decision 241); a bank
 * refund's completion is a transfer's; an older entry routed to the balance is the balance's; else not known.
 */
function auditRefundRail(c: ValueContext): PayRail | null {
  const written = c.side.rail;
  if (written === 'wechat' || written === 'alipay' || written === 'transfer' || written === 'balance') return written;
  if (c.action === 'Admin.TransferRefundDone') return 'transfer';
  return refundRail(c.side.route === 'balance' ? 'balance' : null, null);
}

function stateText(c: ValueContext, state: number): string {
  switch (c.objectKind) {
    case 'order':
      return ORDER_STATE_LABEL[state] ?? plain(state);
    case 'withdrawal':
      return WITHDRAWAL_STATE_TEXT[state] ?? plain(state);
    case 'company_auth':
      return companyStateText(state);
    case 'article':
      return articleStateText(state);
    default:
      return ON_OFF[state] ?? plain(state);
  }
}

/** A stored before/after summary: the object it was (JSON), or its text when it was written as text. */
function parseSide(s: string): unknown {
  if (s === '') return undefined;
  try {
    return JSON.parse(s);
  } catch {
    // A summary cut at its length limit is no longer JSON: never shown raw.
    return /^[[{"]/.test(s) ? '（内容较长，未全部记录）' : s;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One changed field: its label, and the value before and after in words (null: that side has none). */
export interface AuditChange {
  field: string;
  before: string | null;
  after: string | null;
  /** The values are identifiers people copy (a remittance reference, a bank serial, a payment number), not words. */
  identifier?: true;
}

/** Fields whose values are identifiers (shown as written, marked as no words of the page). */
const IDENTIFIER_FIELDS = new Set(['reference', 'bankSerial', 'outTradeNo', 'orderNo', 'invoiceNo']);

/** Fields the diff leaves out: ids and derived counters a row carries beside what was edited. */
const SKIP = new Set(['id', 'issued', 'used', 'locked', 'remaining', 'received', 'createdAt', 'updatedAt', 'reason']);

function changesOf(
  before: unknown,
  after: unknown,
  c: Omit<ValueContext, 'side'>,
): { changes: AuditChange[]; note: string } {
  if (isRecord(after) || isRecord(before)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    // An edit shows the fields it set (the "before" row may hold more); a deletion shows what was removed.
    const keys = isRecord(after) ? Object.keys(a) : Object.keys(b);
    const changes: AuditChange[] = [];
    for (const k of keys) {
      if (SKIP.has(k)) continue;
      const hasB = isRecord(before) && k in b;
      const hasA = isRecord(after) && k in a;
      const bv = hasB ? fieldValue(k, b[k], { ...c, side: b }) : null;
      const av = hasA ? fieldValue(k, a[k], { ...c, side: a }) : null;
      if (hasB && hasA && bv === av) continue; // unchanged in words
      // A refund's status is a text (worded by its rail); an object's own status is a number.
      const field = k === 'status' && typeof (a[k] ?? b[k]) === 'string' ? '退款状态' : (FIELD_LABEL[k] ?? '其他');
      changes.push({
        field,
        before: bv,
        after: av,
        ...(IDENTIFIER_FIELDS.has(k) ? { identifier: true as const } : {}),
      });
    }
    const text = [before, after].filter((x) => typeof x === 'string' && x !== '').join(' → ');
    return { changes, note: text };
  }
  // Written as text (a sentence, a list of hosts, a switch): shown as it is, before → after when both are there.
  const word = (v: unknown) =>
    v === undefined ? null : typeof v === 'boolean' ? (v ? '开启' : '关闭') : plain(v, { ...c, side: {} });
  const bw = word(before);
  const aw = word(after);
  if (bw !== null && aw !== null) return { changes: [{ field: '内容', before: bw, after: aw }], note: '' };
  return { changes: [], note: aw ?? bw ?? '' };
}

/** An audit entry as people read it. */
export interface AuditView {
  id: number;
  createdAt: number;
  operatorName: string;
  /** The operator's role in words. */
  roleLabel: string;
  /** The action name (for API callers; the console shows actionLabel). */
  action: string;
  actionLabel: string;
  /** What the action was done to, in words (客户 138****0001, 订单 P…, 节点 名称). */
  object: string;
  /** The console page of that object, when it has one. */
  objectHref: string | null;
  changes: AuditChange[];
  /** What was recorded as a sentence rather than fields. */
  note: string;
  reason: string;
  clientIp: string;
}

/** `kind:id` split; ids that are numbers are looked up by name. */
function splitTarget(target: string): { kind: string; id: string } {
  const i = target.indexOf(':');
  return i < 0 ? { kind: target, id: '' } : { kind: target.slice(0, i), id: target.slice(i + 1) };
}

function objectText(
  kind: string,
  id: string,
  after: unknown,
  names: Map<string, string>,
): { text: string; href: string | null } {
  const kindLabel = AUDIT_OBJECT_KINDS[kind] ?? '对象';
  if (kind === '') return { text: '—', href: null };
  if (kind === 'orders') return { text: '订单（导出）', href: null };
  if (kind === 'setting') return { text: `设置：${SETTING_LABEL[id] ?? '其他'}`, href: null };
  if (kind === 'egress') {
    const j = id.indexOf(':');
    const rk = id.slice(0, j) as keyof typeof EGRESS_RULE_LABEL;
    return { text: `${kindLabel} ${EGRESS_RULE_LABEL[rk] ?? ''} ${id.slice(j + 1)}`.trim(), href: null };
  }
  if (id === 'new') {
    const a = isRecord(after) ? after : {};
    const name = a.name ?? a.title ?? a.username;
    return { text: `${kindLabel}${typeof name === 'string' ? ` ${name}` : ''}（新建）`, href: null };
  }
  if (kind === 'user') {
    const phone = names.get(`user:${id}`);
    return { text: `${kindLabel} ${phone ? maskPhone(phone) : `#${id}`}`, href: `/admin/customers/${id}` };
  }
  if (kind === 'order') return { text: `${kindLabel} ${id}`, href: `/admin/orders/${id}` };
  if (kind === 'payment' || kind === 'redirect' || kind === 'transfer' || kind === 'refund')
    return { text: `${kindLabel} ${id}`, href: null };
  const name = names.get(`${kind}:${id}`);
  if (kind === 'operator' && !/^\d+$/.test(id)) return { text: `${kindLabel} ${id}`, href: null };
  return { text: name ? `${kindLabel} ${name}` : `${kindLabel} #${id}`, href: null };
}

/** Audit rows in words (one batch of name look-ups for the objects they name). */
export async function describeAudit(db: D1Database, rows: AuditRecord[]): Promise<AuditView[]> {
  const parsed = rows.map((r) => ({
    r,
    t: splitTarget(r.target),
    before: parseSide(r.before),
    after: parseSide(r.after),
  }));
  const ids = new Map<string, Set<number>>();
  const want = (kind: string, id: unknown) => {
    const n = Number(id);
    if (!Number.isSafeInteger(n) || n <= 0) return;
    if (!ids.has(kind)) ids.set(kind, new Set());
    ids.get(kind)?.add(n);
  };
  for (const p of parsed) {
    if (/^\d+$/.test(p.t.id)) want(p.t.kind, p.t.id);
    if (isRecord(p.after) && Array.isArray(p.after.userIds))
      for (const u of p.after.userIds.slice(0, 10)) want('user', u);
  }
  const names = await auditObjectNames(db, ids);
  return parsed.map(({ r, t, before, after }) => {
    const object = objectText(t.kind, t.id, after, names);
    const { changes, note } = changesOf(before, after, { objectKind: t.kind, action: r.action, names });
    let actionLabel = auditActionLabel(r.action);
    if (actionLabel.startsWith('保存')) actionLabel = `${t.id === 'new' ? '新建' : '修改'}${actionLabel.slice(2)}`;
    // A deployment command (npm run admin:create / catalogue:import) writes as operator 'cli': said in words.
    const byCommand = r.operatorName === CLI_OPERATOR && r.role === 'none';
    return {
      id: r.id,
      createdAt: r.createdAt,
      operatorName: byCommand ? '部署命令' : r.operatorName,
      roleLabel: byCommand ? '系统' : (OPERATOR_ROLE_LABEL[r.role as OperatorRole] ?? '未登录'),
      action: r.action,
      actionLabel,
      object: object.text,
      objectHref: object.href,
      changes,
      note,
      reason: byCommand ? (CLI_REASONS[r.reason] ?? '由部署命令写入') : r.reason,
      clientIp: byCommand ? '' : r.clientIp,
    };
  });
}

/** The operator name the deployment commands write audit rows as (seed/operator-create.ts, seed/catalogue-import.ts). */
const CLI_OPERATOR = 'cli';
/** What each deployment command's audit row says, in words. */
const CLI_REASONS: Record<string, string> = {
  'npm run admin:create': '部署时用命令创建运营账号',
  'npm run catalogue:import': '部署时用命令导入商品目录',
};

export interface AuditQuery {
  operator?: string | undefined;
  action?: string | undefined;
  /** One object exactly, as stored (kind:id). */
  target?: string | undefined;
  /** An object kind (AUDIT_OBJECT_KINDS), alone or with objectId. */
  objectKind?: string | undefined;
  /** The object's id; for 客户 also a phone number. */
  objectId?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  beforeId?: number | undefined;
}

export const AUDIT_PAGE = 50;

/** One page of the entries `role` may read, newest first, in words; and the action list its filter offers. */
export async function readAuditLog(db: D1Database, role: OperatorRole, q: AuditQuery) {
  const readable = auditReadableActions(role);
  const actions = Object.entries(AUDIT_ACTIONS)
    .filter(([name]) => readable === 'all' || readable.includes(name))
    .map(([value, info]) => ({ value, label: info.label }));
  let target = q.target;
  let targetKind: string | undefined;
  if (q.objectKind && q.objectId) {
    let id = q.objectId.trim();
    if (q.objectKind === 'user' && /^1\d{10}$/.test(id)) {
      const user = await findUserByPhone(db, id);
      id = user ? String(user.id) : '0';
    }
    target = `${q.objectKind}:${id}`;
  } else if (q.objectKind) targetKind = q.objectKind;
  const rows = await searchAuditLog(db, {
    limit: AUDIT_PAGE,
    ...(q.operator ? { operator: q.operator } : {}),
    ...(q.action ? { action: q.action } : {}),
    ...(target ? { target } : {}),
    ...(targetKind ? { targetKind } : {}),
    ...(readable === 'all' ? {} : { visibleTo: { role, actions: readable } }),
    ...(q.from !== undefined ? { from: q.from } : {}),
    ...(q.to !== undefined ? { to: q.to } : {}),
    ...(q.beforeId !== undefined ? { beforeId: q.beforeId } : {}),
  });
  return {
    list: await describeAudit(db, rows),
    actions,
    objectKinds: Object.entries(AUDIT_OBJECT_KINDS)
      .filter(([k]) => k !== 'orders')
      .map(([value, label]) => ({ value, label })),
  };
}
