// /admin/catalogue?type=10: the catalogue of one product type — meals (with what each sells for now, from the pricing
// engine), activities and, for fixed and premium IPs, sale regions; create, edit (?meal= / ?activity= / ?region=),
// withdraw and restore. Changes apply to orders placed afterwards. A link previews the public buy page of the type.
import { Cell, DataBody, DataHead, DataRow, DataTable, EmptyRow, rowAction, Th } from '../../../components/data-table';
import type { ActionOutput } from '../../../lib/api-core';
import {
  BILLING_METHODS_FOR,
  durationOption,
  IP_DURATIONS,
  mealTermsText,
  sizeText,
} from '../../../lib/catalogue-rules';
import { BILLING_LABEL, isProductType, PRODUCT_LABEL, PRODUCT_TYPES, periodLabel } from '../../../lib/commerce';
import { formatDateTime, formatFen } from '../../../lib/format';
import { serverApi } from '../../../server/api-server';
import { windowText } from '../_components/labels';
import { NoAccess, PageTitle, Section } from '../_components/parts';
import { ReasonAction } from '../_components/reason-action';
import { type FormField, RecordForm } from '../_components/record-form';
import { EDIT_REASON, SaveForm } from '../_components/save-form';

type Catalogue = ActionOutput<'Admin.CatalogueList'>;

function mealFields(type: number, m?: Catalogue['meals'][number]): FormField[] {
  const dedicated = type === 30 || type === 50;
  return [
    {
      name: 'billingMethod',
      label: '计费方式',
      kind: 'select',
      options: (BILLING_METHODS_FOR[type] ?? []).map((b) => ({ value: b, label: BILLING_LABEL[b] ?? String(b) })),
      ...(m ? { defaultValue: m.billingMethod } : {}),
    },
    { name: 'name', label: '套餐名称', kind: 'text', maxLength: 60, ...(m ? { defaultValue: m.name } : {}) },
    {
      name: 'ipDurationMinutes',
      label: 'IP时长',
      kind: 'select',
      options: (IP_DURATIONS[type] ?? []).map((d) => ({ value: d, label: durationOption(d) })),
      ...(m ? { defaultValue: m.ipDurationMinutes } : {}),
    },
    {
      name: 'size',
      label: dedicated ? '每份IP数' : '数量（按量为IP数，包天为每日IP数）',
      kind: 'int',
      defaultValue: m?.size ?? 1,
      ...(dedicated ? { hint: '固定IP与优质IP每份为1个IP' } : {}),
    },
    { name: 'periodDays', label: '有效期（天）', kind: 'int', ...(m ? { defaultValue: m.periodDays } : {}) },
    {
      name: 'priceFen',
      label: '每份价格（元）',
      kind: 'yuan',
      hint: '以分保存；活动折扣在下单时按此价计算',
      ...(m ? { defaultValue: m.priceFen } : {}),
    },
    { name: 'isOverseas', label: '海外线路（显示“超低折扣”）', kind: 'bool', defaultValue: m?.isOverseas ?? false },
    { name: 'sort', label: '排序（小的在前）', kind: 'int', defaultValue: m?.sort ?? 0 },
  ];
}

function activityFields(type: number, meals: Catalogue['meals'], a?: Catalogue['activities'][number]): FormField[] {
  const now = Date.now();
  return [
    { name: 'name', label: '活动名称', kind: 'text', maxLength: 40, ...(a ? { defaultValue: a.name } : {}) },
    {
      name: 'billingMethod',
      label: '适用计费方式',
      kind: 'select',
      options: [
        { value: 0, label: '全部' },
        ...(BILLING_METHODS_FOR[type] ?? []).map((b) => ({ value: b, label: BILLING_LABEL[b] ?? String(b) })),
      ],
      defaultValue: a?.billingMethod ?? 0,
    },
    {
      name: 'mealId',
      label: '适用套餐',
      kind: 'select',
      options: [
        { value: 0, label: '该类型全部套餐' },
        ...meals.filter((m) => m.state === 1).map((m) => ({ value: m.id, label: `#${m.id} ${m.name}` })),
      ],
      defaultValue: a?.mealId ?? 0,
    },
    { name: 'discountPercent', label: '折扣比例（%，0-90）', kind: 'int', defaultValue: a?.discountPercent ?? 0 },
    {
      name: 'bonusPercent',
      label: '赠送比例（%，0-200）',
      kind: 'int',
      defaultValue: a?.bonusPercent ?? 0,
      ...(type === 30 || type === 50 ? { hint: '固定IP与优质IP不赠送，须为0' } : {}),
    },
    { name: 'startsAt', label: '开始时间（北京时间）', kind: 'datetime', defaultValue: a?.startsAt ?? now },
    {
      name: 'endsAt',
      label: '结束时间（北京时间）',
      kind: 'datetime',
      defaultValue: a?.endsAt ?? now + 30 * 86_400_000,
    },
  ];
}

function regionFields(r?: Catalogue['regions'][number]): FormField[] {
  return [
    { name: 'name', label: '地区（城市）名称', kind: 'text', maxLength: 20, ...(r ? { defaultValue: r.name } : {}) },
    { name: 'province', label: '省份（海外填“海外”）', kind: 'text', maxLength: 20, defaultValue: r?.province ?? '' },
    {
      name: 'productTypes',
      label: '适用产品',
      kind: 'checks',
      options: [
        { value: 30, label: PRODUCT_LABEL[30] ?? '固定IP' },
        { value: 50, label: PRODUCT_LABEL[50] ?? '优质IP' },
      ],
      defaultValue: r?.productTypes ?? [30, 50],
    },
    { name: 'isOverseas', label: '海外地区', kind: 'bool', defaultValue: r?.isOverseas ?? false },
    { name: 'sort', label: '排序', kind: 'int', defaultValue: r?.sort ?? 0 },
  ];
}

const stateBadge = (on: boolean, onText = '在售', offText = '已下架') => (
  <span className={on ? 'text-emerald-600' : 'text-slate-400'}>{on ? onText : offText}</span>
);

export default async function AdminCataloguePage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const t = Number(p.get('type'));
  const type = isProductType(t) ? t : 10;
  const res = await (await serverApi()).call('Admin.CatalogueList', { productType: type }, { silent: true });
  if (!res) return <NoAccess />;
  const editMeal = res.meals.find((m) => m.id === Number(p.get('meal')));
  const activities = res.activities.filter((a) => a.productType === type);
  const editActivity = activities.find((a) => a.id === Number(p.get('activity')));
  const editRegion = res.regions.find((r) => r.id === Number(p.get('region')));
  const dedicated = type === 30 || type === 50;
  const regions = res.regions.filter((r) => r.productTypes.includes(type));
  // Narrow the meal list by billing method and IP duration (an extractable type sells dozens of meals).
  const billing = Number(p.get('billing'));
  const minutes = p.has('minutes') ? Number(p.get('minutes')) : Number.NaN;
  const meals = res.meals.filter(
    (m) => (!billing || m.billingMethod === billing) && (Number.isNaN(minutes) || m.ipDurationMinutes === minutes),
  );
  const filterHref = (b: number, mins: number) =>
    `/admin/catalogue?type=${type}${b ? `&billing=${b}` : ''}${Number.isNaN(mins) ? '' : `&minutes=${mins}`}`;
  const chip =
    'rounded-full border border-slate-200 bg-white px-2.5 py-0.5 text-xs aria-[current=page]:border-brand-600 aria-[current=page]:text-brand-700';
  return (
    <div className="space-y-4">
      <PageTitle title="商品目录">
        <a
          href={`/buy?type=${type}`}
          target="_blank"
          rel="noreferrer"
          className="btn-outline"
          data-testid="buy-preview"
        >
          预览{PRODUCT_LABEL[type]}购买页 ↗
        </a>
      </PageTitle>
      <nav className="flex flex-wrap gap-2" aria-label="产品类型">
        {PRODUCT_TYPES.map((v) => (
          <a
            key={v}
            href={`/admin/catalogue?type=${v}`}
            aria-current={type === v ? 'page' : undefined}
            className="rounded-full border border-slate-200 bg-white px-3 py-1 text-sm aria-[current=page]:border-brand-600 aria-[current=page]:text-brand-700"
          >
            {PRODUCT_LABEL[v]}
          </a>
        ))}
      </nav>
      <p className="text-xs text-slate-500">
        修改只影响之后的新订单：已下单的订单按下单时的金额支付与发货。价格以分保存，活动折扣按订单原价计算并向下取整到分。
      </p>

      {editMeal ? (
        <Section title={`编辑套餐 #${editMeal.id}`}>
          <p className="mb-3 text-xs text-slate-500">当前：{mealTermsText(editMeal)}</p>
          <RecordForm
            key={editMeal.id}
            action="Admin.MealSave"
            fields={[...mealFields(type, editMeal), EDIT_REASON]}
            fixed={{ id: editMeal.id, productType: type }}
            submitLabel="保存修改"
            done="套餐已修改，新订单按新价格"
            testId="meal-edit"
          />
        </Section>
      ) : (
        // Folded so the list comes first (a type sells dozens of meals; on a phone the open form is a screen long).
        <details className="group" data-testid="meal-create-fold">
          <summary className="btn-primary w-fit cursor-pointer list-none [&::-webkit-details-marker]:hidden">
            <span className="group-open:hidden">＋ 新建{PRODUCT_LABEL[type]}套餐</span>
            <span className="hidden group-open:inline">收起新建表单</span>
          </summary>
          <section className="card mt-3 p-4">
            <h2 className="mb-3 text-sm font-semibold text-slate-700">新建{PRODUCT_LABEL[type]}套餐</h2>
            <RecordForm
              action="Admin.MealSave"
              fields={mealFields(type)}
              fixed={{ productType: type }}
              submitLabel="新建套餐"
              done="套餐已上架"
              testId="meal-create"
              reset
            />
          </section>
        </details>
      )}

      {!dedicated && (
        <nav className="flex flex-wrap items-center gap-1.5" aria-label="筛选套餐">
          {[0, ...(BILLING_METHODS_FOR[type] ?? [])].map((b) => (
            <a
              key={`b${b}`}
              href={filterHref(b, minutes)}
              aria-current={billing === b ? 'page' : undefined}
              className={chip}
            >
              {b ? BILLING_LABEL[b] : '全部计费'}
            </a>
          ))}
          <span className="mx-1 text-slate-300">|</span>
          {[Number.NaN, ...(IP_DURATIONS[type] ?? [])].map((d) => (
            <a
              key={`d${d}`}
              href={filterHref(billing, d)}
              aria-current={(Number.isNaN(d) ? Number.isNaN(minutes) : d === minutes) ? 'page' : undefined}
              className={chip}
            >
              {Number.isNaN(d) ? '全部时长' : durationOption(d)}
            </a>
          ))}
          <span className="ml-1 text-xs text-slate-400">共 {meals.length} 个</span>
        </nav>
      )}
      <div className="card overflow-hidden p-0 max-md:border-0 max-md:bg-transparent max-md:shadow-none">
        <DataTable data-testid="meal-table">
          <DataHead className="bg-slate-50 text-xs text-slate-500">
            <tr>
              <Th className="px-3 py-2">套餐</Th>
              <Th className="px-3 py-2">规格</Th>
              <Th className="px-3 py-2">原价/份</Th>
              <Th className="px-3 py-2">当前售价/份</Th>
              <Th className="px-3 py-2">状态</Th>
              <Th className="px-3 py-2">操作</Th>
            </tr>
          </DataHead>
          <DataBody>
            {meals.length === 0 && (
              <EmptyRow cols={6} className="py-8 text-slate-400">
                没有符合条件的套餐
              </EmptyRow>
            )}
            {meals.map((m) => (
              <DataRow key={m.id} className="border-t border-slate-100">
                <Cell kind="title" className="px-3 py-2">
                  <span className="text-xs text-slate-400">#{m.id}</span> {m.name}
                </Cell>
                <Cell label="规格" className="px-3 py-2 text-xs">
                  {BILLING_LABEL[m.billingMethod]} · {sizeText(m.productType, m.billingMethod, m.size)}
                  {m.ipDurationMinutes > 0 ? ` · ${durationOption(m.ipDurationMinutes)}` : ''} ·{' '}
                  {periodLabel(m.periodDays)}
                </Cell>
                <Cell label="原价/份" className="px-3 py-2">
                  {formatFen(m.priceFen)}
                </Cell>
                <Cell label="当前售价/份" className="px-3 py-2">
                  {formatFen(m.payFen)}
                  {m.tag ? <span className="ml-1 text-xs text-rose-600">{m.tag}</span> : null}
                  {m.bonusPercent > 0 ? <span className="ml-1 text-xs text-amber-600">赠{m.bonusPercent}%</span> : null}
                </Cell>
                <Cell label="状态" className="px-3 py-2">
                  {stateBadge(m.state === 1)}
                </Cell>
                <Cell kind="actions" className="px-3 py-2">
                  <div className="flex flex-wrap items-center gap-2">
                    <a href={`/admin/catalogue?type=${type}&meal=${m.id}`} className={rowAction()}>
                      编辑
                    </a>
                    <ReasonAction
                      label={m.state === 1 ? '下架' : '上架'}
                      title={m.state === 1 ? `下架套餐 #${m.id}` : `重新上架套餐 #${m.id}`}
                      description={
                        m.state === 1
                          ? '下架后购买页不再显示，已购套餐与未支付订单不受影响。'
                          : '上架后购买页立即显示。'
                      }
                      action="Admin.CatalogueSetState"
                      params={{ kind: 'meal', id: m.id, state: m.state === 1 ? 2 : 1 }}
                      done={m.state === 1 ? '已下架' : '已上架'}
                      tone={m.state === 1 ? 'danger' : 'primary'}
                    />
                  </div>
                </Cell>
              </DataRow>
            ))}
          </DataBody>
        </DataTable>
      </div>

      <Section title={editActivity ? `编辑活动 #${editActivity.id}` : '活动'}>
        <ul className="mb-4 divide-y divide-slate-100 text-sm" data-testid="activity-list">
          {activities.length === 0 && <li className="py-2 text-slate-400">该产品没有活动</li>}
          {activities.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="font-medium text-slate-800">
                  {a.name}{' '}
                  {a.live ? stateBadge(true, '进行中') : stateBadge(false, '', a.state === 1 ? '未在时间内' : '已停用')}
                </p>
                <p className="text-xs text-slate-500">
                  {a.ruleText} · {a.billingMethod ? BILLING_LABEL[a.billingMethod] : '全部计费方式'}
                  {a.mealId ? ` · 仅套餐 #${a.mealId}` : ''} · {windowText(a.startsAt, a.endsAt, formatDateTime)}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <a href={`/admin/catalogue?type=${type}&activity=${a.id}`} className={rowAction()}>
                  编辑
                </a>
                <ReasonAction
                  label={a.state === 1 ? '停用' : '启用'}
                  title={a.state === 1 ? '停用活动' : '启用活动'}
                  description="只影响之后的新订单。"
                  action="Admin.CatalogueSetState"
                  params={{ kind: 'activity', id: a.id, state: a.state === 1 ? 2 : 1 }}
                  done={a.state === 1 ? '活动已停用' : '活动已启用'}
                  tone={a.state === 1 ? 'danger' : 'primary'}
                />
              </div>
            </li>
          ))}
        </ul>
        <SaveForm
          row={editActivity}
          action="Admin.ActivitySave"
          fields={(a) => activityFields(type, res.meals, a)}
          fixed={{ productType: type }}
          labels={['保存活动', '新建活动']}
          done={['活动已修改', '活动已创建']}
          testId="activity-form"
        />
      </Section>

      {dedicated && (
        <Section title={editRegion ? `编辑地区 #${editRegion.id}` : '销售地区'}>
          <ul className="mb-4 flex flex-wrap gap-2 text-sm" data-testid="region-list">
            {regions.map((r) => (
              <li
                key={r.id}
                className={`flex items-center gap-1 rounded border border-slate-200 px-2 py-1 ${r.state === 1 ? '' : 'opacity-50'}`}
              >
                <a href={`/admin/catalogue?type=${type}&region=${r.id}`} className="hover:underline">
                  {r.name}
                  {r.isOverseas ? '（海外）' : ''}
                </a>
                <ReasonAction
                  label={r.state === 1 ? '停用' : '启用'}
                  title={`${r.state === 1 ? '停用' : '启用'}地区 ${r.name}`}
                  description="停用后购买时不再可选，已分配的IP不受影响。"
                  action="Admin.CatalogueSetState"
                  params={{ kind: 'region', id: r.id, state: r.state === 1 ? 2 : 1 }}
                  done="已更新"
                  tone={r.state === 1 ? 'danger' : 'primary'}
                />
              </li>
            ))}
          </ul>
          <SaveForm
            row={editRegion}
            action="Admin.RegionSave"
            fields={regionFields}
            labels={['保存地区', '新增地区']}
            done="地区已保存"
            testId="region-form"
          />
        </Section>
      )}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
