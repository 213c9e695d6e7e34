// The catalogue screen's lists (server components): filter chips, the meal table (a table from md up; on a phone one
// dense two-line row per meal, the whole row a link to its edit view), the activity table, the region chips, the
// folded "new" form and the edit panel (the row's state switch, its form, the way back to the list). One markup for
// both widths: cells that only one width shows are hidden with CSS, so test ids and row texts are the same on both.
import type { ReactNode } from 'react';
import { sizeText } from '../../../lib/catalogue-rules';
import { BILLING_LABEL, durationLabel, periodLabel } from '../../../lib/commerce';
import { formatDateTime, formatFen } from '../../../lib/format';
import type { Catalogue } from './catalogue-fields';
import { windowText } from './labels';
import { ReasonAction } from './reason-action';

type MealRow = Catalogue['meals'][number];
type ActivityRow = Catalogue['activities'][number];
type RegionRow = Catalogue['regions'][number];

const cx = (...parts: (string | false | null | undefined)[]) => parts.filter(Boolean).join(' ');

/** One filter's choices as links (the current one marked), a line that scrolls sideways on a phone. */
export function FilterChips({
  label,
  name = label,
  items,
}: {
  label: string;
  /** The accessible name, when the visible label is shortened. */
  name?: string;
  items: { key: string; text: string; href: string; current: boolean; count?: number | undefined }[];
}) {
  return (
    <nav
      aria-label={name}
      className="-mx-4 flex items-center gap-1.5 overflow-x-auto px-4 py-0.5 whitespace-nowrap [scrollbar-width:none] max-md:[mask-image:linear-gradient(90deg,#000_85%,transparent)] md:mx-0 md:px-0"
    >
      <span className="w-9 shrink-0 text-xs text-slate-400 md:w-auto md:pr-1">{label}</span>
      {items.map((i) => (
        <a
          key={i.key}
          href={i.href}
          aria-current={i.current ? 'page' : undefined}
          className="inline-flex shrink-0 items-center gap-1 rounded-full border border-slate-200 bg-white px-2.5 py-1 text-xs text-slate-600 hover:border-slate-300 aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-50 aria-[current=page]:text-brand-700"
        >
          {i.text}
          {i.count === undefined ? null : <span className="text-slate-400 tabular-nums">{i.count}</span>}
        </a>
      ))}
    </nav>
  );
}

/** On sale / withdrawn, as a small badge. */
export function StateBadge({
  on,
  onText = '在售',
  offText = '已下架',
}: {
  on: boolean;
  onText?: string;
  offText?: string;
}) {
  return (
    <span
      className={cx(
        'inline-flex shrink-0 items-center rounded px-1.5 py-0.5 text-[11px] leading-none font-medium',
        on ? 'bg-emerald-50 text-emerald-700' : 'bg-slate-100 text-slate-500',
      )}
    >
      {on ? onText : offText}
    </span>
  );
}

// A row that is a table row from md up and, on a phone, a grid: the first cells on the first line, the rest on the
// second, a chevron at the end; the title cell's link covers the whole row there.
const PHONE_ROW =
  'hover:bg-slate-50 max-md:relative max-md:grid max-md:grid-cols-[minmax(0,1fr)_auto_0.75rem] max-md:items-baseline max-md:gap-x-3 max-md:gap-y-0.5 max-md:px-4 max-md:py-2.5';
const TD = 'px-3 py-2.5 align-middle max-md:p-0';
const CURRENT = 'aria-[current=true]:bg-brand-50/60';
const DESKTOP = 'max-md:hidden';
const PHONE = 'md:hidden';
const COVER = 'max-md:after:absolute max-md:after:inset-0';
const TABLE = 'w-full text-left text-sm max-md:block';
const HEAD = 'bg-slate-50 text-xs text-slate-500 max-md:hidden';
const BODY = 'divide-y divide-slate-100 max-md:block';

function Chevron() {
  return (
    <td aria-hidden="true" className={cx(PHONE, 'self-center text-slate-300 max-md:col-start-3 max-md:row-span-2')}>
      ›
    </td>
  );
}

function Empty({ cols, children }: { cols: number; children: ReactNode }) {
  return (
    <tr className="max-md:block">
      <td colSpan={cols} className="px-3 py-8 text-center text-slate-400 max-md:block">
        {children}
      </td>
    </tr>
  );
}

/** The meals of one page: ID, name, terms, list and current price, state; a row opens the meal's edit view. */
export function MealTable({
  meals,
  timed,
  editHref,
  empty,
  current,
  readOnly = false,
}: {
  meals: MealRow[];
  /** The operator may read the catalogue but not change it (only admins do): rows open a view, no state switch. */
  readOnly?: boolean;
  /** The meal open in the edit view, marked in the list. */
  current?: number | undefined;
  /** The type sells IP durations (extractable types); dedicated IPs have none. */
  timed: boolean;
  editHref: (id: number) => string;
  empty: ReactNode;
}) {
  const cols = timed ? 10 : 9;
  return (
    <table className={TABLE} data-testid="meal-table">
      <thead className={HEAD}>
        <tr>
          <th className="w-20 px-3 py-2 font-normal">ID</th>
          <th className="px-3 py-2 font-normal">套餐</th>
          <th className="px-3 py-2 font-normal">计费方式</th>
          {timed ? <th className="px-3 py-2 font-normal">IP时长</th> : null}
          <th className="px-3 py-2 text-right font-normal">数量</th>
          <th className="px-3 py-2 font-normal">有效期</th>
          <th className="px-3 py-2 text-right font-normal">原价/份</th>
          <th className="px-3 py-2 text-right font-normal">当前售价/份</th>
          <th className="px-3 py-2 font-normal">状态</th>
          <th className="px-3 py-2 text-right font-normal">操作</th>
        </tr>
      </thead>
      <tbody className={BODY}>
        {meals.length === 0 ? <Empty cols={cols}>{empty}</Empty> : null}
        {meals.map((m) => {
          const on = m.state === 1;
          const discounted = m.payFen !== m.priceFen;
          const size = sizeText(m.productType, m.billingMethod, m.size);
          return (
            <tr
              key={m.id}
              className={cx(PHONE_ROW, CURRENT, !on && 'text-slate-400')}
              aria-current={m.id === current ? 'true' : undefined}
            >
              <td className={cx(TD, DESKTOP, 'text-xs text-slate-400 tabular-nums')}>#{m.id}</td>
              <td className={cx(TD, 'max-md:col-start-1 max-md:row-start-1 max-md:flex max-md:min-w-0 max-md:gap-1.5')}>
                {on ? null : (
                  <span className={PHONE}>
                    <StateBadge on={false} />
                  </span>
                )}
                <a
                  href={editHref(m.id)}
                  className={cx(
                    'font-medium hover:text-brand-600 max-md:truncate',
                    on ? 'text-slate-800' : 'text-slate-500',
                    COVER,
                  )}
                >
                  {m.name}
                </a>
              </td>
              <td
                className={cx(
                  PHONE,
                  'truncate text-xs text-slate-500 max-md:col-start-1 max-md:row-start-2 max-md:min-w-0',
                )}
              >
                #{m.id} · {BILLING_LABEL[m.billingMethod]?.slice(0, 2)} ·{' '}
                {sizeText(m.productType, m.billingMethod, m.size, true)}
                {m.ipDurationMinutes > 0 ? ` · ${durationLabel(m.ipDurationMinutes)}` : ''} ·{' '}
                {periodLabel(m.periodDays)}
              </td>
              <td className={cx(TD, DESKTOP, 'whitespace-nowrap text-slate-600')}>{BILLING_LABEL[m.billingMethod]}</td>
              {timed ? (
                <td className={cx(TD, DESKTOP, 'whitespace-nowrap text-slate-600')}>
                  {m.ipDurationMinutes > 0 ? durationLabel(m.ipDurationMinutes) : '—'}
                </td>
              ) : null}
              <td className={cx(TD, DESKTOP, 'text-right whitespace-nowrap text-slate-600 tabular-nums')}>{size}</td>
              <td className={cx(TD, DESKTOP, 'whitespace-nowrap text-slate-600')}>{periodLabel(m.periodDays)}</td>
              <td className={cx(TD, DESKTOP, 'text-right whitespace-nowrap tabular-nums')}>
                <span className={discounted ? 'text-slate-400' : ''}>{formatFen(m.priceFen)}</span>
              </td>
              <td
                className={cx(
                  TD,
                  'text-right whitespace-nowrap tabular-nums max-md:col-start-2 max-md:row-start-1 max-md:font-semibold',
                  on && 'text-slate-900',
                )}
              >
                {formatFen(m.payFen)}
                {m.tag ? (
                  <span className={cx(DESKTOP, 'ml-1.5 text-xs font-normal text-rose-600')}>{m.tag}</span>
                ) : null}
                {m.bonusPercent > 0 && !m.tag ? (
                  <span className={cx(DESKTOP, 'ml-1.5 text-xs font-normal text-amber-600')}>赠{m.bonusPercent}%</span>
                ) : null}
              </td>
              <td
                className={cx(
                  PHONE,
                  'text-right text-xs whitespace-nowrap max-md:col-start-2 max-md:row-start-2 tabular-nums',
                )}
              >
                {discounted ? <s className="text-slate-400">{formatFen(m.priceFen)}</s> : null}
                {m.bonusPercent > 0 ? <span className="ml-1 text-amber-600">赠{m.bonusPercent}%</span> : null}
              </td>
              <td className={cx(TD, DESKTOP)}>
                <StateBadge on={on} />
              </td>
              <td className={cx(TD, DESKTOP, 'text-right whitespace-nowrap')}>
                <span className="inline-flex items-center gap-3">
                  <a href={editHref(m.id)} className="text-brand-600 hover:underline">
                    {readOnly ? '查看' : '编辑'}
                  </a>
                  {readOnly ? null : <MealStateAction meal={m} compact />}
                </span>
              </td>
              <Chevron />
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

const LINK_BUTTON = (tone: 'danger' | 'brand') =>
  cx(tone === 'danger' ? 'text-rose-600' : 'text-brand-600', 'hover:underline disabled:opacity-50');

/** 下架 / 上架 a meal (asks for the reason in the console's dialog). */
export function MealStateAction({ meal, compact = false }: { meal: { id: number; state: number }; compact?: boolean }) {
  const on = meal.state === 1;
  return (
    <ReasonAction
      label={on ? '下架' : '上架'}
      title={on ? `下架套餐 #${meal.id}` : `重新上架套餐 #${meal.id}`}
      description={on ? '下架后购买页不再显示，已购套餐与未支付订单不受影响。' : '上架后购买页立即显示。'}
      action="Admin.CatalogueSetState"
      params={{ kind: 'meal', id: meal.id, state: on ? 2 : 1 }}
      done={on ? '已下架' : '已上架'}
      tone={on ? 'danger' : 'primary'}
      {...(compact ? { buttonClassName: LINK_BUTTON(on ? 'danger' : 'brand') } : {})}
    />
  );
}

/** 停用 / 启用 an activity. */
export function ActivityStateAction({ activity, compact = false }: { activity: ActivityRow; compact?: boolean }) {
  const on = activity.state === 1;
  return (
    <ReasonAction
      label={on ? '停用' : '启用'}
      title={on ? '停用活动' : '启用活动'}
      description="只影响之后的新订单。"
      action="Admin.CatalogueSetState"
      params={{ kind: 'activity', id: activity.id, state: on ? 2 : 1 }}
      done={on ? '活动已停用' : '活动已启用'}
      tone={on ? 'danger' : 'primary'}
      {...(compact ? { buttonClassName: LINK_BUTTON(on ? 'danger' : 'brand') } : {})}
    />
  );
}

/** 停用 / 启用 a sale region. */
export function RegionStateAction({ region }: { region: RegionRow }) {
  const on = region.state === 1;
  return (
    <ReasonAction
      label={on ? '停用' : '启用'}
      title={`${on ? '停用' : '启用'}地区 ${region.name}`}
      description="停用后购买时不再可选，已分配的IP不受影响。"
      action="Admin.CatalogueSetState"
      params={{ kind: 'region', id: region.id, state: on ? 2 : 1 }}
      done="已更新"
      tone={on ? 'danger' : 'primary'}
    />
  );
}

/** 进行中 / 未在时间内 / 已停用. */
export function activityState(a: ActivityRow) {
  return a.live ? (
    <StateBadge on onText="进行中" />
  ) : (
    <StateBadge on={false} offText={a.state === 1 ? '未在时间内' : '已停用'} />
  );
}

const scopeText = (a: ActivityRow) =>
  `${a.billingMethod ? BILLING_LABEL[a.billingMethod] : '全部计费方式'}${a.mealId ? ` · 仅套餐 #${a.mealId}` : ''}`;

/** A type's activities: name and state, rule, scope, window; a row opens the activity's edit view. */
export function ActivityTable({
  activities,
  editHref,
  current,
  readOnly = false,
}: {
  activities: ActivityRow[];
  current?: number | undefined;
  /** As MealTable's. */
  readOnly?: boolean;
  editHref: (id: number) => string;
}) {
  return (
    <table className={TABLE} data-testid="activity-list">
      <thead className={HEAD}>
        <tr>
          <th className="px-3 py-2 font-normal">活动</th>
          <th className="px-3 py-2 font-normal">规则</th>
          <th className="px-3 py-2 font-normal">适用</th>
          <th className="px-3 py-2 font-normal">时间（北京时间）</th>
          <th className="px-3 py-2 font-normal">状态</th>
          <th className="px-3 py-2 text-right font-normal">操作</th>
        </tr>
      </thead>
      <tbody className={BODY}>
        {activities.length === 0 ? <Empty cols={6}>该产品没有活动</Empty> : null}
        {activities.map((a) => (
          <tr key={a.id} className={cx(PHONE_ROW, CURRENT)} aria-current={a.id === current ? 'true' : undefined}>
            <td className={cx(TD, 'max-md:col-start-1 max-md:row-start-1 max-md:flex max-md:min-w-0 max-md:gap-1.5')}>
              <a
                href={editHref(a.id)}
                className={cx('font-medium text-slate-800 hover:text-brand-600 max-md:truncate', COVER)}
              >
                {a.name}
              </a>
            </td>
            <td className={cx(TD, 'text-slate-600 max-md:col-span-2 max-md:row-start-2 max-md:text-xs')}>
              {a.ruleText}
              <span className={PHONE}>
                {' '}
                · {scopeText(a)} · {windowText(a.startsAt, a.endsAt, formatDateTime)}
              </span>
            </td>
            <td className={cx(TD, DESKTOP, 'text-slate-600')}>{scopeText(a)}</td>
            <td className={cx(TD, DESKTOP, 'text-xs text-slate-500')}>
              {windowText(a.startsAt, a.endsAt, formatDateTime)}
            </td>
            <td className={cx(TD, 'max-md:col-start-2 max-md:row-start-1')}>{activityState(a)}</td>
            <td className={cx(TD, DESKTOP, 'text-right whitespace-nowrap')}>
              <span className="inline-flex items-center gap-3">
                <a href={editHref(a.id)} className="text-brand-600 hover:underline">
                  {readOnly ? '查看' : '编辑'}
                </a>
                {readOnly ? null : <ActivityStateAction activity={a} compact />}
              </span>
            </td>
            <Chevron />
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A type's sale regions as chips (withdrawn ones struck through); a chip opens the region's edit view. */
export function RegionChips({
  regions,
  editHref,
  current,
}: {
  regions: RegionRow[];
  editHref: (id: number) => string;
  current?: number | undefined;
}) {
  return (
    <ul className="flex flex-wrap gap-1.5 text-sm" data-testid="region-list">
      {regions.length === 0 ? <li className="text-slate-400">该产品没有销售地区</li> : null}
      {regions.map((r) => (
        <li key={r.id}>
          <a
            href={editHref(r.id)}
            aria-current={r.id === current ? 'true' : undefined}
            className={cx(
              'inline-flex items-center rounded-md border px-2.5 py-1 hover:border-brand-300 hover:text-brand-700 aria-[current=true]:border-brand-600 aria-[current=true]:text-brand-700',
              r.state === 1
                ? 'border-slate-200 bg-white text-slate-700'
                : 'border-dashed border-slate-200 text-slate-400 line-through',
            )}
            title={r.state === 1 ? undefined : '已停用'}
          >
            {r.name}
            {r.isOverseas ? <span className="ml-1 text-xs text-slate-400">海外</span> : null}
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * A "＋ 新建…" button whose form unfolds below the card's header (no script: a details element whose summary sits at the
 * header's right; the card must be `relative`).
 */
export function CreateFold({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <details className="group" data-testid={testId}>
      <summary className="btn-primary absolute top-3 right-4 cursor-pointer list-none px-3 py-1.5 text-sm [&::-webkit-details-marker]:hidden">
        <span className="group-open:hidden">＋ {label}</span>
        <span className="hidden group-open:inline">收起</span>
      </summary>
      <div className="mb-4 rounded-lg border border-brand-100 bg-brand-50/40 p-4">
        <h3 className="mb-3 text-sm font-semibold text-slate-700">{label}</h3>
        {children}
      </div>
    </details>
  );
}

/** The edit view of one row: its title and summary, its state switch, the way back, and the form. */
export function EditPanel({
  id,
  title,
  summary,
  state,
  back,
  children,
}: {
  id: string;
  title: string;
  summary?: ReactNode;
  state: ReactNode;
  back: string;
  children: ReactNode;
}) {
  return (
    <section id={id} className="card scroll-mt-4 border-brand-200 p-4 ring-1 ring-brand-100">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
        <div className="min-w-0">
          <a href={back} className="text-xs text-brand-600 hover:underline">
            ‹ 返回列表
          </a>
          <h2 className="mt-1 text-base font-semibold text-slate-800">{title}</h2>
          {summary ? <p className="mt-0.5 text-xs text-slate-500">{summary}</p> : null}
        </div>
        <div className="flex items-center gap-2">{state}</div>
      </div>
      {children}
    </section>
  );
}
