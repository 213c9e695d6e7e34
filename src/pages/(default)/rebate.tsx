// /rebate: the promotion rebate programme explained from the commission rules in src/lib/commission-rules.ts (the ones
// the engine applies); a logged-in user sees their own promotion link (the code is created on first visit).
import { PageHero, SectionTitle } from '../../components/content/page-hero';
import { PageMeta } from '../../components/page-meta';
import {
  bpPercent,
  commissionRateRows,
  commissionRuleLines,
  INVITATION_VALID_DAYS,
  MIN_WITHDRAWAL_FEN,
  maxCommissionBp,
} from '../../lib/commission-rules';
import { formatFen } from '../../lib/format';
import { PROMOTION_COOKIE_DAYS } from '../../lib/promotion';
import { currentMineInfo } from '../../server/api-server';
import { load } from '../../server/page-data';

const STEPS = [
  { t: '获取专属链接', d: '登录后在本页或个人中心“推广返利”复制您的专属推广链接（首次打开自动开通）。' },
  {
    t: '分享给好友',
    d: `好友通过链接访问后${PROMOTION_COOKIE_DAYS}天内注册，即与您绑定邀请关系。`,
  },
  { t: '好友实名并消费', d: '好友完成实名认证并购买任意套餐，支付成功即为您产生佣金。' },
  {
    t: '获得返佣',
    d: `按实付金额和产品比例计佣，立即计入可提现余额，满${formatFen(MIN_WITHDRAWAL_FEN)}可申请提现。`,
  },
];

/** The promoter's invitation link: the code is created on first use, so the link always credits them. */
async function promotionLink(): Promise<string | null> {
  const p = await load('UserPromotion.AddUserPromotion', {}, null);
  return typeof p?.link === 'string' && typeof p.code === 'string' && p.code ? p.link : null;
}

export default async function RebatePage() {
  const mine = await currentMineInfo();
  const link = mine ? await promotionLink() : null;
  const top = bpPercent(maxCommissionBp());
  const rows = commissionRateRows();
  return (
    <>
      <PageMeta
        title="推广返利 - 邀请好友赚佣金"
        description={`云枢代理推广返利计划：分享专属链接，好友注册后${INVITATION_VALID_DAYS}天内每笔实付订单按产品比例返佣，最高${top}，满${formatFen(MIN_WITHDRAWAL_FEN)}可提现。`}
        path="/rebate"
      />
      <PageHero
        eyebrow="推广返利"
        title={`邀请好友使用云枢代理，最高可得${top}返佣`}
        lead={`好友注册后${INVITATION_VALID_DAYS}天内的每一笔实付订单，都按产品比例计入您的佣金。`}
      >
        <div className="mt-8 max-w-xl rounded-xl bg-white/10 p-5 ring-1 ring-white/20" data-testid="rebate-link">
          {mine && !link ? (
            <>
              <p className="text-sm text-brand-100">暂时无法生成推广链接，请到个人中心开通</p>
              <a href="/personalCenter/promotionRebate" className="btn mt-4 bg-white text-brand-700 hover:bg-brand-50">
                前往推广返利
              </a>
            </>
          ) : link ? (
            <>
              <p className="text-sm text-brand-100">您的专属推广链接</p>
              <p className="mt-2 font-mono text-sm break-all text-white select-all">{link}</p>
              <a href="/personalCenter/promotionRebate" className="btn mt-4 bg-white text-brand-700 hover:bg-brand-50">
                查看推广收益
              </a>
            </>
          ) : (
            <>
              <p className="text-sm text-brand-100">登录后即可获取您的专属推广链接</p>
              <div className="mt-4 flex gap-3">
                <a href="/login?redirect=%2Frebate" className="btn bg-white text-brand-700 hover:bg-brand-50">
                  登录获取链接
                </a>
                <a
                  href="/login?type=sms&redirect=%2Frebate"
                  className="btn text-white ring-1 ring-white/40 hover:bg-white/10"
                >
                  免费注册
                </a>
              </div>
            </>
          )}
        </div>
      </PageHero>
      <section className="container-page py-14">
        <SectionTitle title="四步参与" />
        <ol className="mt-8 grid gap-5 md:grid-cols-4">
          {STEPS.map((s, i) => (
            <li key={s.t} className="card p-6">
              <span className="text-sm font-semibold text-brand-700">第 {i + 1} 步</span>
              <h3 className="mt-2 font-semibold text-ink">{s.t}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{s.d}</p>
            </li>
          ))}
        </ol>
      </section>
      <section className="bg-white py-14">
        <div className="container-page">
          <SectionTitle
            title="返佣比例"
            lead="按被邀请好友订单的实付金额计算（已扣除活动优惠、优惠券与升级抵扣），向下取整到分"
          />
          <div className="mx-auto mt-8 max-w-3xl overflow-x-auto">
            <table className="w-full text-left text-sm" data-testid="rebate-rates">
              <thead>
                <tr className="border-b border-slate-200 text-slate-600">
                  <th scope="col" className="py-3 pr-4 font-medium">
                    产品
                  </th>
                  <th scope="col" className="py-3 pr-4 font-medium">
                    好友首单
                  </th>
                  <th scope="col" className="py-3 font-medium">
                    后续订单
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.productType} className="border-b border-slate-100">
                    <td className="py-3 pr-4 font-medium text-ink">{r.label}</td>
                    <td className="py-3 pr-4 font-semibold text-brand-700">{r.first}</td>
                    <td className="py-3 font-semibold text-brand-700">{r.recurring}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>
      <section className="container-page py-14">
        <h2 className="text-xl font-bold text-ink">规则说明</h2>
        <ul className="mt-4 list-disc space-y-2 pl-6 text-sm leading-6 text-slate-700" data-testid="rebate-rules">
          {commissionRuleLines().map((l) => (
            <li key={l}>{l}</li>
          ))}
          <li>链接参数错误时页面会提示“推广链接有误，请联系客服”。</li>
          <li>
            完整规则见帮助中心{' '}
            <a href="/helpDetails/rebate-rules.html" className="text-brand-700 underline">
              推广返利规则说明
            </a>
            。
          </li>
        </ul>
      </section>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
