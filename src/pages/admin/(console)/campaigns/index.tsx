// /admin/campaigns: coupons (rules as the pricing engine applies them, use: issued / locked by unpaid orders / used /
// stock left; create, edit with ?coupon=, enable/disable, issue to customers by phone or id) and red-packet launches
// (budget, window, use: received / used / budget left; create, edit with ?launch=, enable/disable).
import { rowAction } from '../../../../components/data-table';
import type { ActionOutput } from '../../../../lib/api-core';
import { durationOption, IP_DURATIONS } from '../../../../lib/catalogue-rules';
import { couponFace, PRODUCT_LABEL } from '../../../../lib/commerce';
import { COUPON_STACKING_NOTE, couponRuleText } from '../../../../lib/coupon-rules';
import { formatDateTime, formatFen } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { type Column, ListTable, listHref, TableCard } from '../../_components/console-list';
import { windowText } from '../../_components/labels';
import { NoAccess, PageTitle, Section } from '../../_components/parts';
import { ReasonAction } from '../../_components/reason-action';
import { type FormField, RecordForm } from '../../_components/record-form';
import { SaveForm } from '../../_components/save-form';
import { DAY_MS } from '../../../../lib/time';
import { ON_OFF, otherOnOff } from '../../../../lib/on-off-states';

type Campaigns = ActionOutput<'Admin.CampaignList'>;
type Coupon = Campaigns['coupons'][number];
type Launch = Campaigns['launches'][number];

/** A coupon is 立减 (a sum of money, typed in 元 and kept in fen) or 折扣 (a percentage off): one form for each. */
type CouponKind = 1 | 2;

const COUPON_KIND_TAB: Record<CouponKind, string> = { 1: '立减券（减金额）', 2: '折扣券（打折）' };

/** A coupon's face in the console: 立减 as ¥x.xx, 折扣 as its 折 (9折). */
const couponFaceText = (c: { kind: number; value: number }) =>
  c.kind === 1 ? formatFen(c.value) : couponFace(c.kind, c.value);

function couponFields(kind: CouponKind, c?: Coupon): FormField[] {
  const now = Date.now();
  const same = c?.kind === kind;
  return [
    { name: 'name', label: '名称', kind: 'text', maxLength: 30, ...(c ? { defaultValue: c.name } : {}) },
    kind === 1
      ? {
          name: 'value',
          label: '立减金额（元）',
          kind: 'yuan',
          hint: '例：立减10元填 10',
          ...(same && c ? { defaultValue: c.value } : {}),
        }
      : {
          name: 'value',
          label: '减免比例（%，1-90）',
          kind: 'int',
          hint: '例：9折填 10，8.5折填 15',
          ...(same && c ? { defaultValue: c.value } : {}),
        },
    {
      name: 'thresholdFen',
      label: '使用门槛：订单原价满（元，0为无门槛）',
      kind: 'yuan',
      defaultValue: c?.thresholdFen ?? 0,
    },
    {
      name: 'productTypes',
      label: '适用产品（不选为全部）',
      kind: 'checks',
      options: [10, 40, 30, 50].map((t) => ({ value: t, label: PRODUCT_LABEL[t] ?? String(t) })),
      defaultValue: c?.productTypes ?? [],
    },
    { name: 'validDays', label: '领取后有效天数', kind: 'int', defaultValue: c?.validDays ?? 30 },
    { name: 'perUserLimit', label: '每人限领', kind: 'int', defaultValue: c?.perUserLimit ?? 1 },
    { name: 'totalStock', label: '库存（0为不限）', kind: 'int', defaultValue: c?.totalStock ?? 100 },
    { name: 'claimable', label: '客户可在领券中心自行领取', kind: 'bool', defaultValue: c?.claimable ?? false },
    { name: 'startsAt', label: '开始时间（北京时间）', kind: 'datetime', defaultValue: c?.startsAt ?? now },
    { name: 'endsAt', label: '结束时间（北京时间）', kind: 'datetime', defaultValue: c?.endsAt ?? now + 30 * DAY_MS },
  ];
}

/** The coupon list's columns: the face in ¥x.xx, the rules as the engine applies them, the window and the use. */
function couponColumns(now: number): Column<Coupon>[] {
  return [
    {
      head: '优惠券',
      kind: 'title',
      cell: (c) => (
        <>
          <span className="text-xs text-slate-400">#{c.id}</span> {c.name}{' '}
          <span className="font-semibold text-rose-600">{couponFaceText(c)}</span>
          {c.state !== ON_OFF.on && <span className="ml-1 text-xs text-slate-400">已停用</span>}
        </>
      ),
    },
    {
      head: '规则',
      className: 'text-xs',
      cell: (c) => (
        <span>
          {couponRuleText(c)} · 每人限{c.perUserLimit}张{c.claimable ? ' · 可自领' : ''}
        </span>
      ),
    },
    {
      head: '有效期',
      className: 'text-xs',
      cell: (c) => (
        <span>
          {windowText(c.startsAt, c.endsAt, formatDateTime)}
          {c.endsAt <= now ? '（已结束）' : ''}；领取后{c.validDays}天
        </span>
      ),
    },
    {
      head: '使用情况',
      className: 'text-xs',
      cell: (c) => (
        <span>
          已发 {c.issued} · 待支付占用 {c.locked} · 已用 {c.used} · 剩余 {c.remaining === null ? '不限' : c.remaining}
        </span>
      ),
    },
    {
      head: '操作',
      kind: 'actions',
      cell: (c) => (
        <div className="flex flex-wrap items-center gap-2">
          <a href={`/admin/campaigns?coupon=${c.id}`} className={rowAction()}>
            编辑
          </a>
          <ReasonAction
            label={c.state === ON_OFF.on ? '停用' : '启用'}
            title={c.state === ON_OFF.on ? '停用优惠券' : '启用优惠券'}
            description="停用后不能再领取或发放；已发放的券仍可使用。"
            action="Admin.CouponSetState"
            params={{ id: c.id, state: otherOnOff(c.state) }}
            done="已更新"
            tone={c.state === ON_OFF.on ? 'danger' : 'primary'}
          />
        </div>
      ),
    },
  ];
}

function launchFields(l?: Launch): FormField[] {
  const now = Date.now();
  return [
    { name: 'title', label: '标题', kind: 'text', maxLength: 30, ...(l ? { defaultValue: l.title } : {}) },
    { name: 'description', label: '说明', kind: 'text', maxLength: 100, defaultValue: l?.description ?? '' },
    {
      name: 'productType',
      label: '产品',
      kind: 'select',
      options: [10, 40].map((t) => ({ value: t, label: PRODUCT_LABEL[t] ?? String(t) })),
      defaultValue: l?.productType ?? 10,
    },
    {
      name: 'ipDurationMinutes',
      label: 'IP时长（须属于所选产品）',
      kind: 'select',
      options: [10, 40].flatMap((t) =>
        (IP_DURATIONS[t] ?? []).map((d) => ({ value: d, label: `${PRODUCT_LABEL[t]} · ${durationOption(d)}` })),
      ),
      defaultValue: l?.ipDurationMinutes ?? 5,
    },
    { name: 'ipCount', label: '每个红包的IP数', kind: 'int', defaultValue: l?.ipCount ?? 100 },
    { name: 'validDays', label: '领取后有效天数', kind: 'int', defaultValue: l?.validDays ?? 7 },
    { name: 'budget', label: '红包个数（预算）', kind: 'int', defaultValue: l?.budget ?? 1000 },
    { name: 'startsAt', label: '开始时间（北京时间）', kind: 'datetime', defaultValue: l?.startsAt ?? now },
    { name: 'endsAt', label: '结束时间（北京时间）', kind: 'datetime', defaultValue: l?.endsAt ?? now + 7 * DAY_MS },
  ];
}

export default async function AdminCampaignsPage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const res = await load('Admin.CampaignList', {}, false);
  if (!res) return <NoAccess />;
  const editCoupon = res.coupons.find((c) => c.id === Number(p.get('coupon')));
  const editLaunch = res.launches.find((l) => l.id === Number(p.get('launch')));
  const askedKind = Number(p.get('kind'));
  const couponKind: CouponKind = askedKind === 1 || askedKind === 2 ? askedKind : editCoupon?.kind === 2 ? 2 : 1;
  const now = Date.now();
  return (
    <div className="space-y-4">
      <PageTitle title="营销活动" />
      <Section title={editCoupon ? `编辑优惠券 #${editCoupon.id}` : '新建优惠券'}>
        <p className="mb-3 text-xs text-slate-500">{COUPON_STACKING_NOTE}</p>
        <nav className="mb-3 flex flex-wrap gap-2" aria-label="优惠券类型">
          {([1, 2] as const).map((k) => (
            <a
              key={k}
              href={listHref('/admin/campaigns', { coupon: editCoupon?.id, kind: k })}
              aria-current={k === couponKind ? 'page' : undefined}
              className="rounded-full border border-slate-200 bg-white px-3 py-1 text-xs text-slate-600 hover:border-slate-300 aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-700"
            >
              {COUPON_KIND_TAB[k]}
            </a>
          ))}
        </nav>
        <div key={`coupon-${couponKind}`}>
          <SaveForm
            row={editCoupon}
            action="Admin.CouponSave"
            fields={(c) => couponFields(couponKind, c)}
            fixed={{ kind: couponKind }}
            labels={['保存优惠券', '新建优惠券']}
            done={['优惠券已修改', '优惠券已创建']}
            testId="coupon-form"
          />
        </div>
      </Section>

      <TableCard>
        <ListTable
          data-testid="coupon-table"
          rows={res.coupons}
          rowKey={(c) => c.id}
          empty="还没有优惠券"
          pad="px-3"
          columns={couponColumns(now)}
        />
      </TableCard>

      <Section title="发放优惠券">
        <RecordForm
          action="Admin.CouponIssue"
          fields={[
            {
              name: 'couponId',
              label: '优惠券',
              kind: 'select',
              options: res.coupons
                .filter((c) => c.state === ON_OFF.on && c.endsAt > now)
                .map((c) => ({ value: c.id, label: `#${c.id} ${c.name}（${couponFaceText(c)}）` })),
            },
            {
              name: 'targets',
              label: '客户手机号或用户ID（每行一个，最多200个）',
              kind: 'textarea',
              placeholder: '13800138000\n10086',
            },
            { name: 'reason', label: '发放原因（记入操作日志）', kind: 'text', maxLength: 200 },
          ]}
          submitLabel="发放"
          done="已发放"
          testId="coupon-issue"
          reset
        />
      </Section>

      <Section title={editLaunch ? `编辑红包活动 #${editLaunch.id}` : '新建红包活动'}>
        <p className="mb-3 text-xs text-slate-500">
          每个红包是一个按量套餐（所选产品与IP时长、IP数、领取后有效天数）；每人每个活动限领一个，领完预算即止。已有人领取后只能改标题、说明、预算与时间。
        </p>
        <SaveForm
          row={editLaunch}
          action="Admin.RedLaunchSave"
          fields={launchFields}
          labels={['保存红包活动', '新建红包活动']}
          done="红包活动已保存"
          testId="launch-form"
        />
      </Section>

      <ul className="space-y-3" data-testid="launch-list">
        {res.launches.length === 0 && <li className="card p-6 text-sm text-slate-500">还没有红包活动</li>}
        {res.launches.map((l) => (
          <li key={l.id} className="card flex flex-wrap items-center justify-between gap-3 p-4 text-sm">
            <div className="min-w-0">
              <p className="font-semibold text-slate-900">
                {l.title}{' '}
                <span className={l.enabled ? 'text-xs text-emerald-600' : 'text-xs text-slate-400'}>
                  {l.enabled ? (l.startsAt <= now && l.endsAt > now ? '进行中' : '未在时间内') : '已停用'}
                </span>
              </p>
              <p className="text-xs text-slate-500">
                {PRODUCT_LABEL[l.productType]} · {l.ipCount}个IP · {durationOption(l.ipDurationMinutes)} · 领取后
                {l.validDays}天 · {formatDateTime(l.startsAt)} 至 {formatDateTime(l.endsAt)}
              </p>
              <p className="mt-1 text-xs text-slate-700" data-testid="launch-figures">
                预算 {l.budget} 个 · 已领取 {l.received} · 已使用 {l.used} · 剩余 {l.remaining}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              <a href={`/admin/campaigns?launch=${l.id}`} className={rowAction()}>
                编辑
              </a>
              <ReasonAction
                label={l.enabled ? '停用' : '启用'}
                title={l.enabled ? '停用红包活动' : '启用红包活动'}
                description="停用后不能再领取；已领取的红包仍可使用。"
                action="Admin.RedLaunchSetEnabled"
                params={{ id: l.id, enabled: !l.enabled }}
                done="已更新"
                tone={l.enabled ? 'danger' : 'primary'}
              />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
