// /admin/catalogue?type=10: the catalogue of one product type — its meals (filtered by billing method, IP duration and
// state, 20 a page with the shared pager, each with what it sells for now from the pricing engine), activities and, for
// fixed and premium IPs, sale regions. A row opens its edit view (?meal= / ?activity= / ?region=, with the state
// switch); new ones are folded behind ＋. Changes apply to orders placed afterwards. A link previews the public buy page.
import { Pager } from '../../../../components/pager';
import { BILLING_METHODS_FOR, IP_DURATIONS, mealTermsText } from '../../../../lib/catalogue-rules';
import { BILLING_LABEL, durationLabel, isProductType, PRODUCT_LABEL, PRODUCT_TYPES } from '../../../../lib/commerce';
import { formatFen } from '../../../../lib/format';
import { load } from '../../../../server/page-data';
import { canCall } from '../../../../server/operator-access';
import { activityFields, type Catalogue, mealFields, regionFields } from './_components/catalogue-fields';
import {
  ActivityStateAction,
  ActivityTable,
  activityState,
  CreateFold,
  EditPanel,
  FilterChips,
  MealStateAction,
  MealTable,
  RegionChips,
  RegionStateAction,
  StateBadge,
} from './_components/catalogue-lists';
import { listHref, queryInt } from '../../_components/console-list';
import { NoAccess, PageTitle } from '../../_components/parts';
import { RecordForm } from '../../_components/record-form';
import { EDIT_REASON, SaveForm } from '../../_components/save-form';
import { ON_OFF } from '../../../../lib/on-off-states';

const PATH = '/admin/catalogue';
type ActivityRow = Catalogue['activities'][number];
const STATE_LABEL: Record<number, string> = { 1: '在售', 2: '已下架' };

export default async function AdminCataloguePage({ query }: { query: string }) {
  const p = new URLSearchParams(query);
  const t = Number(p.get('type'));
  const type = isProductType(t) ? t : 10;
  // Only filter values the type can match reach the action (a stale link shows the whole list, not an error).
  const billings = BILLING_METHODS_FOR[type] ?? [];
  const durations = IP_DURATIONS[type] ?? [];
  const b = queryInt(p, 'billing', 1, 2);
  const billing = b !== null && billings.includes(b as 1 | 2) ? (b as 1 | 2) : 0;
  const m = queryInt(p, 'minutes', 0, 1440);
  const minutes = m !== null && durations.includes(m) ? m : null;
  const s = queryInt(p, 'state', 1, 2);
  const state = s === 1 || s === 2 ? s : 0;
  const page = queryInt(p, 'page', 1, 10_000) ?? 1;
  const mealId = queryInt(p, 'meal', 1, Number.MAX_SAFE_INTEGER);
  const [res, me] = await Promise.all([
    load(
      'Admin.CatalogueList',
      {
        productType: type,
        billingMethod: billing,
        ipDurationMinutes: minutes,
        state,
        page,
        ...(mealId ? { mealId } : {}),
      },
      false,
    ),
    load('Operator.Me', {}, false),
  ]);
  if (!res) return <NoAccess />;
  // Finance reads the catalogue; who may save a meal changes it (the server refuses the rest): no forms or switches else.
  const readOnly = me ? !canCall(me.role, 'Admin.MealSave') : true;

  const dedicated = type === 30 || type === 50;
  const timed = durations.some((d) => d > 0);
  const filters = { type, billing: billing || null, minutes, state: state || null };
  const list = (change: Record<string, number | null> = {}) => listHref(PATH, { ...filters, page, ...change });
  const filterHref = (change: Record<string, number | null>) => listHref(PATH, { ...filters, ...change });
  const editHref = (key: string, anchor: string) => (id: number) => `${list({ [key]: id })}#${anchor}`;
  // Each chip counts the meals it would show with the other filters kept (counts come per billing × duration × state).
  const countWhere = (want: { billing?: number; minutes?: number | null; state?: number }) => {
    const w = { billing, minutes, state, ...want };
    return res.counts
      .filter(
        (c) =>
          (!w.billing || c.billingMethod === w.billing) &&
          (w.minutes === null || c.ipDurationMinutes === w.minutes) &&
          (!w.state || c.state === w.state),
      )
      .reduce((n, c) => n + c.n, 0);
  };
  const allMeals = res.counts.reduce((n, c) => n + c.n, 0);

  const editMeal = res.meal;
  const activities = res.activities.filter((a) => a.productType === type);
  const editActivity = activities.find((a) => a.id === Number(p.get('activity')));
  const regions = res.regions.filter((r) => r.productTypes.includes(type));
  const editRegion = regions.find((r) => r.id === Number(p.get('region')));
  // One form per kind: the same element serves the create fold (no row) and the edit view (the row being edited).
  const activityForm = (
    <SaveForm
      row={editActivity}
      action="Admin.ActivitySave"
      fields={(a?: ActivityRow) => activityFields(type, res.mealChoices, a)}
      fixed={{ productType: type }}
      labels={['保存活动', '新建活动']}
      done={['活动已修改', '活动已创建']}
      testId="activity-form"
    />
  );
  const regionForm = (
    <SaveForm
      row={editRegion}
      action="Admin.RegionSave"
      fields={regionFields}
      labels={['保存地区', '新增地区']}
      done="地区已保存"
      testId="region-form"
    />
  );
  const back = list();

  return (
    <div className="space-y-4">
      <PageTitle title="商品目录">
        <a
          href={`/buy?type=${type}`}
          target="_blank"
          rel="noreferrer"
          className="btn-outline px-3 py-1.5 text-sm"
          data-testid="buy-preview"
        >
          预览{PRODUCT_LABEL[type]}购买页 ↗
        </a>
      </PageTitle>
      <nav
        className="-mx-4 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 whitespace-nowrap [scrollbar-width:none] md:mx-0 md:px-0"
        aria-label="产品类型"
      >
        {PRODUCT_TYPES.map((v) => (
          <a
            key={v}
            href={`${PATH}?type=${v}`}
            aria-current={type === v ? 'page' : undefined}
            className="-mb-px shrink-0 border-b-2 border-transparent px-3 py-2 text-sm text-slate-500 hover:text-slate-800 aria-[current=page]:border-brand-600 aria-[current=page]:font-medium aria-[current=page]:text-brand-700"
          >
            {PRODUCT_LABEL[v]}
          </a>
        ))}
      </nav>
      <p className="text-xs text-slate-500">
        修改只影响之后的新订单：已下单的订单按下单时的金额支付与发货。价格以分保存，活动折扣按订单原价计算并向下取整到分。
      </p>

      {editMeal ? (
        <EditPanel
          id="meal-edit"
          title={`编辑套餐 #${editMeal.id}`}
          summary={
            <>
              当前：{mealTermsText(editMeal)}
              {editMeal.payFen !== editMeal.priceFen ? ` · 活动后 ${formatFen(editMeal.payFen)}/份` : ''}
            </>
          }
          state={
            <>
              <StateBadge on={editMeal.state === ON_OFF.on} />
              {readOnly ? null : <MealStateAction meal={editMeal} />}
            </>
          }
          back={back}
        >
          {readOnly ? (
            <ReadOnlyNote />
          ) : (
            <RecordForm
              key={editMeal.id}
              action="Admin.MealSave"
              fields={[...mealFields(type, editMeal), EDIT_REASON]}
              fixed={{ id: editMeal.id, productType: type }}
              submitLabel="保存修改"
              done="套餐已修改，新订单按新价格"
              testId="meal-edit"
            />
          )}
        </EditPanel>
      ) : null}

      <section className="card relative p-0" aria-labelledby="meals-title">
        <div className="px-4 pt-4 pb-3">
          <h2 id="meals-title" className="flex min-h-8 items-center gap-2 pr-40 text-sm font-semibold text-slate-700">
            套餐
            <span className="text-xs font-normal text-slate-400">
              共 {allMeals} 个 · 在售 {countWhere({ billing: 0, minutes: null, state: 1 })}
            </span>
          </h2>
          {/* Folded so the list comes first (a type sells dozens of meals; the open form is a screen long). */}
          {readOnly ? null : (
            <CreateFold label={`新建${PRODUCT_LABEL[type]}套餐`} testId="meal-create-fold">
              <RecordForm
                action="Admin.MealSave"
                fields={mealFields(type)}
                fixed={{ productType: type }}
                submitLabel="新建套餐"
                done="套餐已上架"
                testId="meal-create"
                reset
              />
            </CreateFold>
          )}
          <div
            className="mt-1 space-y-1.5 lg:flex lg:flex-wrap lg:gap-x-6 lg:gap-y-1.5 lg:space-y-0"
            data-testid="meal-filters"
          >
            {billings.length > 1 ? (
              <FilterChips
                label="计费"
                name="计费方式"
                items={[0, ...billings].map((v) => ({
                  key: `b${v}`,
                  text: v ? (BILLING_LABEL[v] ?? String(v)) : '全部',
                  href: filterHref({ billing: v || null }),
                  current: billing === v,
                  count: countWhere({ billing: v }),
                }))}
              />
            ) : null}
            {timed ? (
              <FilterChips
                label="时长"
                name="IP时长"
                items={[null, ...durations].map((v) => ({
                  key: `d${v}`,
                  text: v === null ? '全部' : durationLabel(v),
                  href: filterHref({ minutes: v }),
                  current: minutes === v,
                  count: countWhere({ minutes: v }),
                }))}
              />
            ) : null}
            <FilterChips
              label="状态"
              items={[0, 1, 2].map((v) => ({
                key: `s${v}`,
                text: v ? (STATE_LABEL[v] ?? '') : '全部',
                href: filterHref({ state: v || null }),
                current: state === v,
                count: countWhere({ state: v }),
              }))}
            />
          </div>
        </div>
        <div className="border-t border-slate-100">
          <MealTable
            meals={res.meals}
            timed={timed}
            editHref={editHref('meal', 'meal-edit')}
            current={editMeal?.id}
            readOnly={readOnly}
            empty={
              res.total > 0 ? (
                <a href={list({ page: 1 })} className="text-brand-600 hover:underline">
                  本页没有套餐，回到第1页
                </a>
              ) : (
                '没有符合条件的套餐'
              )
            }
          />
        </div>
        <div className="border-t border-slate-100 px-4 pb-3">
          <Pager page={res.page} pageSize={res.pageSize} total={res.total} href={(n) => list({ page: n })} />
        </div>
      </section>

      <section className="card relative p-0" aria-labelledby="activities-title">
        <div className="px-4 pt-4 pb-3">
          <h2 id="activities-title" className="flex min-h-8 items-center pr-32 text-sm font-semibold text-slate-700">
            活动
          </h2>
          {editActivity || readOnly ? null : (
            <CreateFold label="新建活动" testId="activity-create-fold">
              {activityForm}
            </CreateFold>
          )}
        </div>
        {editActivity ? (
          <div className="px-4 pb-4">
            <EditPanel
              id="activity-edit"
              title={`编辑活动 #${editActivity.id}`}
              summary={editActivity.ruleText}
              state={
                <>
                  {activityState(editActivity)}
                  {readOnly ? null : <ActivityStateAction activity={editActivity} />}
                </>
              }
              back={back}
            >
              {readOnly ? <ReadOnlyNote /> : activityForm}
            </EditPanel>
          </div>
        ) : null}
        <div className="border-t border-slate-100">
          <ActivityTable
            activities={activities}
            editHref={editHref('activity', 'activity-edit')}
            current={editActivity?.id}
            readOnly={readOnly}
          />
        </div>
      </section>

      {dedicated ? (
        <section className="card relative p-4" aria-labelledby="regions-title">
          <h2
            id="regions-title"
            className="mb-3 flex min-h-8 items-center gap-2 pr-32 text-sm font-semibold text-slate-700"
          >
            销售地区
            <span className="text-xs font-normal text-slate-400">
              共 {regions.length} 个 · 启用 {regions.filter((r) => r.state === ON_OFF.on).length}
            </span>
          </h2>
          {editRegion ? (
            <div className="mb-4">
              <EditPanel
                id="region-edit"
                title={`编辑地区 #${editRegion.id}`}
                summary={`${editRegion.province} · ${editRegion.name}`}
                state={
                  <>
                    <StateBadge on={editRegion.state === ON_OFF.on} onText="启用中" offText="已停用" />
                    {readOnly ? null : <RegionStateAction region={editRegion} />}
                  </>
                }
                back={back}
              >
                {readOnly ? <ReadOnlyNote /> : regionForm}
              </EditPanel>
            </div>
          ) : readOnly ? null : (
            <CreateFold label="新增地区" testId="region-create-fold">
              {regionForm}
            </CreateFold>
          )}
          <RegionChips regions={regions} editHref={editHref('region', 'region-edit')} current={editRegion?.id} />
        </section>
      ) : null}
    </div>
  );
}

/** What a finance operator sees where an admin has the form. */
function ReadOnlyNote() {
  return <p className="text-sm text-slate-500">当前角色只能查看商品目录；修改、上下架由管理员操作。</p>;
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
