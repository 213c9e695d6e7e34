// The catalogue screen's lists (server components): filter chips, the meal and activity tables (the console's
// ListTable, dense: on a phone one two-line row per item, the whole row a link to its edit view), the region chips, the
// folded "new" form and the edit panel (the row's state switch, its form, the way back to the list).
import type { ReactNode } from 'react';
import { sizeText } from '../../../../../lib/catalogue-rules';
import { BILLING_LABEL, durationLabel, periodLabel } from '../../../../../lib/commerce';
import { formatDateTime, formatFen } from '../../../../../lib/format';
import type { Catalogue } from './catalogue-fields';
import { type Column, denseLink, ListTable } from '../../../_components/console-list';
import { windowText } from '../../../_components/labels';
import { ReasonAction } from '../../../_components/reason-action';
import { ON_OFF } from '../../../../../lib/on-off-states';

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

const DESKTOP = 'max-md:hidden';
const PHONE = 'md:hidden';
const NOWRAP = 'whitespace-nowrap text-slate-600';

/** A catalogue list: dense (a row opens its edit view), rows keyed by id, the one open in the edit view marked. */
function CatalogueList<T extends { id: number }>({
  testId,
  rows,
  current,
  empty,
  columns,
  rowClassName,
}: {
  testId: string;
  rows: T[];
  current: number | undefined;
  empty: ReactNode;
  columns: Column<T>[];
  rowClassName?: (row: T) => string | undefined;
}) {
  return (
    <ListTable
      data-testid={testId}
      dense
      pad="px-3"
      rows={rows}
      rowKey={(r) => r.id}
      current={(r) => r.id === current}
      empty={empty}
      columns={columns}
      {...(rowClassName ? { rowClassName } : {})}
    />
  );
}

/** 操作: 编辑 (or 查看 when the operator may not change the catalogue: no state switch) and the row's state switch. */
function editColumn<T extends { id: number }>(
  editHref: (id: number) => string,
  stateSwitch: ((row: T) => ReactNode) | null,
): Column<T> {
  return {
    head: '操作',
    headClassName: 'text-right',
    className: 'text-right whitespace-nowrap',
    cell: (row) => (
      <span className="inline-flex items-center gap-3">
        <a href={editHref(row.id)} className="text-brand-600 hover:underline">
          {stateSwitch ? '编辑' : '查看'}
        </a>
        {stateSwitch?.(row)}
      </span>
    ),
  };
}

/** The meal columns (IP时长 only for types that sell durations); the phone row: name and price, then a summary. */
function mealColumns(timed: boolean, readOnly: boolean, editHref: (id: number) => string): Column<MealRow>[] {
  const columns: (Column<MealRow> | null)[] = [
    {
      head: 'ID',
      headClassName: 'w-20',
      className: 'text-xs text-slate-400 tabular-nums',
      cell: (m) => `#${m.id}`,
    },
    {
      head: '套餐',
      dense: 'title',
      cell: (m) => (
        <>
          {m.state === ON_OFF.on ? null : (
            <span className={PHONE}>
              <StateBadge on={false} />
            </span>
          )}
          <a
            href={editHref(m.id)}
            className={cx(
              'font-medium hover:text-brand-600',
              m.state === ON_OFF.on ? 'text-slate-800' : 'text-slate-500',
              denseLink,
            )}
          >
            {m.name}
          </a>
        </>
      ),
    },
    {
      head: '摘要',
      phoneOnly: true,
      dense: 'sub',
      className: 'truncate text-xs text-slate-500',
      cell: (m) =>
        `#${m.id} · ${BILLING_LABEL[m.billingMethod]?.slice(0, 2)} · ${sizeText(m.productType, m.billingMethod, m.size, true)}${
          m.ipDurationMinutes > 0 ? ` · ${durationLabel(m.ipDurationMinutes)}` : ''
        } · ${periodLabel(m.periodDays)}`,
    },
    { head: '计费方式', className: NOWRAP, cell: (m) => BILLING_LABEL[m.billingMethod] },
    timed
      ? {
          head: 'IP时长',
          className: NOWRAP,
          cell: (m) => (m.ipDurationMinutes > 0 ? durationLabel(m.ipDurationMinutes) : '—'),
        }
      : null,
    {
      head: '数量',
      headClassName: 'text-right',
      className: `text-right tabular-nums ${NOWRAP}`,
      cell: (m) => sizeText(m.productType, m.billingMethod, m.size),
    },
    { head: '有效期', className: NOWRAP, cell: (m) => periodLabel(m.periodDays) },
    {
      head: '原价/份',
      headClassName: 'text-right',
      className: 'text-right whitespace-nowrap tabular-nums',
      cell: (m) => <span className={m.payFen !== m.priceFen ? 'text-slate-400' : ''}>{formatFen(m.priceFen)}</span>,
    },
    {
      head: '当前售价/份',
      headClassName: 'text-right',
      dense: 'end',
      className: 'text-right whitespace-nowrap tabular-nums max-md:font-semibold',
      cell: (m) => (
        <span className={m.state === ON_OFF.on ? 'text-slate-900' : ''}>
          {formatFen(m.payFen)}
          {m.tag ? <span className={cx(DESKTOP, 'ml-1.5 text-xs font-normal text-rose-600')}>{m.tag}</span> : null}
          {m.bonusPercent > 0 && !m.tag ? (
            <span className={cx(DESKTOP, 'ml-1.5 text-xs font-normal text-amber-600')}>赠{m.bonusPercent}%</span>
          ) : null}
        </span>
      ),
    },
    {
      head: '原价与赠送',
      phoneOnly: true,
      dense: 'subEnd',
      className: 'text-xs whitespace-nowrap tabular-nums',
      cell: (m) => (
        <>
          {m.payFen !== m.priceFen ? <s className="text-slate-400">{formatFen(m.priceFen)}</s> : null}
          {m.bonusPercent > 0 ? <span className="ml-1 text-amber-600">赠{m.bonusPercent}%</span> : null}
        </>
      ),
    },
    { head: '状态', cell: (m) => <StateBadge on={m.state === ON_OFF.on} /> },
    editColumn(editHref, readOnly ? null : (m) => <MealStateAction meal={m} compact />),
  ];
  return columns.filter((c) => c !== null);
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
  return (
    <CatalogueList
      testId="meal-table"
      rows={meals}
      current={current}
      empty={empty}
      columns={mealColumns(timed, readOnly, editHref)}
      rowClassName={(m) => (m.state === ON_OFF.on ? undefined : 'text-slate-400')}
    />
  );
}

const LINK_BUTTON = (tone: 'danger' | 'brand') =>
  cx(tone === 'danger' ? 'text-rose-600' : 'text-brand-600', 'hover:underline disabled:opacity-50');

/** 下架 / 上架 a meal (asks for the reason in the console's dialog). */
export function MealStateAction({ meal, compact = false }: { meal: { id: number; state: number }; compact?: boolean }) {
  const on = meal.state === ON_OFF.on;
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
  const on = activity.state === ON_OFF.on;
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
  const on = region.state === ON_OFF.on;
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
    <StateBadge on={false} offText={a.state === ON_OFF.on ? '未在时间内' : '已停用'} />
  );
}

const scopeText = (a: ActivityRow) =>
  `${a.billingMethod ? BILLING_LABEL[a.billingMethod] : '全部计费方式'}${a.mealId ? ` · 仅套餐 #${a.mealId}` : ''}`;

/** The activity columns; the phone row: name and state, then rule, scope and window. */
function activityColumns(readOnly: boolean, editHref: (id: number) => string): Column<ActivityRow>[] {
  return [
    {
      head: '活动',
      dense: 'title',
      cell: (a) => (
        <a href={editHref(a.id)} className={cx('font-medium text-slate-800 hover:text-brand-600', denseLink)}>
          {a.name}
        </a>
      ),
    },
    {
      head: '规则',
      dense: 'subWide',
      className: 'text-slate-600 max-md:text-xs',
      cell: (a) => (
        <>
          {a.ruleText}
          <span className={PHONE}>
            {' '}
            · {scopeText(a)} · {windowText(a.startsAt, a.endsAt, formatDateTime)}
          </span>
        </>
      ),
    },
    { head: '适用', className: 'text-slate-600', cell: scopeText },
    {
      head: '时间（北京时间）',
      className: 'text-xs text-slate-500',
      cell: (a) => windowText(a.startsAt, a.endsAt, formatDateTime),
    },
    { head: '状态', dense: 'end', cell: activityState },
    editColumn(editHref, readOnly ? null : (a) => <ActivityStateAction activity={a} compact />),
  ];
}

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
    <CatalogueList
      testId="activity-list"
      rows={activities}
      current={current}
      empty="该产品没有活动"
      columns={activityColumns(readOnly, editHref)}
    />
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
              r.state === ON_OFF.on
                ? 'border-slate-200 bg-white text-slate-700'
                : 'border-dashed border-slate-200 text-slate-400 line-through',
            )}
            title={r.state === ON_OFF.on ? undefined : '已停用'}
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
