// /firmsServer: enterprise services: what enterprise customers get, the delivery process, and the consultation form.
import { PageHero, SectionTitle } from '../../components/content/page-hero';
import { PageMeta } from '../../components/page-meta';
import { SITE } from '../../lib/site';
import { ConsultForm } from './_components/consult-form';

const SERVICES = [
  { title: '专属IP池', text: '按业务量与地区需求划分独享资源池，不与其他客户共用出口。' },
  { title: '定制线路与带宽', text: '指定省市、运营商与带宽规格，支持高并发长连接业务。' },
  { title: '专属客户经理', text: '一对一对接需求、方案设计与上线支持，7×24小时技术响应。' },
  { title: '对公付款与发票', text: '企业认证后支持对公转账、合同签署与增值税专用发票。' },
  { title: 'SLA 保障', text: '可用率承诺写入合同，未达标按约定补偿服务时长。' },
  { title: '合规审计支持', text: '实名认证、日志留存不少于6个月，配合客户内部合规审计。' },
];

const STEPS = ['提交需求', '顾问沟通与方案设计', '免费测试', '签约与对公付款', '上线与持续服务'];

export default async function FirmsServerPage() {
  return (
    <>
      <PageMeta
        title="企业服务 - 定制代理IP方案"
        description="云枢代理企业服务：专属IP池、定制线路与带宽、专属客户经理、对公付款与发票、SLA保障，已服务1000+企业。"
        path="/firmsServer"
      />
      <PageHero
        eyebrow="企业服务"
        title="为1000+企业提供稳定、合规的代理IP方案"
        lead="从需求评估、免费测试到签约上线，专属顾问全程服务。"
      >
        <div className="mt-8 flex flex-wrap gap-3">
          <a href="#consult" className="btn bg-white px-6 py-3 text-base text-brand-700 hover:bg-brand-50">
            提交咨询
          </a>
          <a
            href={`tel:${SITE.businessPhone}`}
            className="btn px-6 py-3 text-base text-white ring-1 ring-white/40 hover:bg-white/10"
          >
            商务热线 {SITE.businessPhone}
          </a>
        </div>
      </PageHero>
      <section className="container-page py-14">
        <SectionTitle title="企业专享服务" />
        <ul className="mt-8 grid gap-5 md:grid-cols-3">
          {SERVICES.map((s) => (
            <li key={s.title} className="card p-6">
              <h3 className="font-semibold text-ink">{s.title}</h3>
              <p className="mt-2 text-sm leading-6 text-slate-600">{s.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="bg-white py-14">
        <div className="container-page">
          <SectionTitle title="合作流程" />
          <ol className="mt-8 grid gap-4 md:grid-cols-5">
            {STEPS.map((s, i) => (
              <li key={s} className="rounded-xl bg-slate-50 p-5 text-center">
                <span className="mx-auto flex h-9 w-9 items-center justify-center rounded-full bg-brand-600 font-bold text-white">
                  {i + 1}
                </span>
                <span className="mt-3 block text-sm font-medium text-ink">{s}</span>
              </li>
            ))}
          </ol>
        </div>
      </section>
      <section className="container-page py-14" id="consult">
        <div className="card grid gap-8 p-6 md:grid-cols-[1fr_2fr] md:p-10">
          <div>
            <h2 className="text-2xl font-bold text-ink">提交企业需求</h2>
            <p className="mt-3 text-sm leading-6 text-slate-600">
              留下联系方式与业务需求，商务顾问将在1个工作日内联系您，并可安排免费测试。
            </p>
            <ul className="mt-6 space-y-2 text-sm text-slate-700">
              <li>商务热线：{SITE.businessPhone}</li>
              <li>商务微信：{SITE.businessWechat}</li>
              <li>邮箱：{SITE.email}</li>
            </ul>
          </div>
          <ConsultForm />
        </div>
      </section>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
