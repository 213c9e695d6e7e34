// /rebate: the promotion rebate programme explained; a logged-in user sees their own promotion link.
import { PageHero, SectionTitle } from '../../components/content/page-hero';
import { PageMeta } from '../../components/page-meta';
import { currentMineInfo } from '../../server/api-server';
import { siteOrigin } from '../../server/page-meta';
import { publicCall } from '../../server/public-data';

const STEPS = [
  { t: '获取专属链接', d: '登录后在本页或个人中心“推广返利”复制您的专属推广链接。' },
  { t: '分享给好友', d: '好友通过链接访问，30天内注册即与您绑定推广关系。' },
  { t: '好友实名并消费', d: '好友完成实名认证并购买任意套餐。' },
  { t: '获得返佣', d: '每笔实付金额按比例计入您的佣金，次月可申请提现。' },
];

const TIERS = [
  { level: '普通推广', cond: '累计邀请 1-9 位付费用户', rate: '10%' },
  { level: '银牌推广', cond: '累计邀请 10-49 位付费用户', rate: '15%' },
  { level: '金牌推广', cond: '累计邀请 50 位以上付费用户', rate: '20%' },
  { level: '渠道合作', cond: '签约渠道商 / 分销商', rate: '最高30%' },
];

async function promotionDid(userId: number): Promise<string> {
  const p = await publicCall<{ did?: unknown; code?: unknown }>('UserPromotion.GetUserPromotion');
  const did = p?.did ?? p?.code;
  return typeof did === 'string' && /^[A-Za-z0-9_-]{1,32}$/.test(did) ? did : String(userId);
}

export default async function RebatePage() {
  const mine = await currentMineInfo();
  const link = mine ? `${await siteOrigin()}/?did=${encodeURIComponent(await promotionDid(mine.id))}` : null;
  return (
    <>
      <PageMeta
        title="推广返利 - 邀请好友赚佣金"
        description="云枢代理推广返利计划：分享专属链接，好友实名并消费后按实付金额获得10%-30%佣金，次月提现。"
        path="/rebate"
      />
      <PageHero
        eyebrow="推广返利"
        title="邀请好友使用云枢代理，最高可得30%返佣"
        lead="好友每一笔实付订单都按比例计入您的佣金，长期有效。"
      >
        <div className="mt-8 max-w-xl rounded-xl bg-white/10 p-5 ring-1 ring-white/20" data-testid="rebate-link">
          {link ? (
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
                <a href="/login?type=sms" className="btn text-white ring-1 ring-white/40 hover:bg-white/10">
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
          <SectionTitle title="返佣比例" lead="按被邀请用户的实付金额计算（不含优惠券抵扣部分）" />
          <div className="mx-auto mt-8 max-w-3xl overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-slate-600">
                  <th scope="col" className="py-3 pr-4 font-medium">
                    等级
                  </th>
                  <th scope="col" className="py-3 pr-4 font-medium">
                    条件
                  </th>
                  <th scope="col" className="py-3 font-medium">
                    返佣比例
                  </th>
                </tr>
              </thead>
              <tbody>
                {TIERS.map((t) => (
                  <tr key={t.level} className="border-b border-slate-100">
                    <td className="py-3 pr-4 font-medium text-ink">{t.level}</td>
                    <td className="py-3 pr-4 text-slate-700">{t.cond}</td>
                    <td className="py-3 font-semibold text-brand-700">{t.rate}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      </section>
      <section className="container-page py-14">
        <h2 className="text-xl font-bold text-ink">规则说明</h2>
        <ul className="mt-4 list-disc space-y-2 pl-6 text-sm leading-6 text-slate-700">
          <li>推广关系以好友首次通过链接访问后30天内注册为准；链接参数错误时页面会提示“推广链接有误，请联系客服”。</li>
          <li>被邀请用户须完成实名认证，退款订单对应的佣金将被扣回。</li>
          <li>佣金按自然月结算，满100元可申请提现，提现需推广者本人完成实名认证。</li>
          <li>严禁自我邀请、虚假注册、刷单等作弊行为，一经发现取消返利资格并追回佣金，详见《用户协议》。</li>
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
