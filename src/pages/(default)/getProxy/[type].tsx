// /getProxy/{10|40}: how to get proxies of a product: steps, the extraction API documentation (#api) and code samples
// to download (#code). Other types are a 404.
import { Breadcrumb } from '../../../components/breadcrumb';
import { notFoundPage } from '../../../components/not-found-view';
import { PageMeta } from '../../../components/page-meta';
import {
  CODE_SAMPLES,
  EXTRACT_ENDPOINT,
  EXTRACT_ERRORS,
  EXTRACT_PARAMS,
  JSON_SAMPLE,
  PROXY_AUTH_SAMPLE,
  TOKEN_RECIPE,
} from './_components/api-contract';

const PRODUCTS: Record<string, { name: string; durations: string; example: string }> = {
  '10': {
    name: '短效动态IP',
    durations: '3、5、10、15、30 分钟',
    example: 'num=10&protocol=http&format=json&dedup=1&min_ttl=60',
  },
  '40': {
    name: '长效静态IP',
    durations: '1、4、8、12、24 小时',
    example: 'num=5&protocol=http&format=json&region=广东省&min_ttl=1800',
  },
};

const th = 'border-b border-slate-200 bg-slate-50 px-3 py-2 text-left font-semibold whitespace-nowrap';
const td = 'border-b border-slate-100 px-3 py-2 align-top';
const pre = 'overflow-x-auto rounded-lg bg-ink p-4 text-[13px] leading-6 text-slate-100';

export default async function GetProxyPage({ type }: { type: string }) {
  const p = PRODUCTS[type];
  if (!p) return notFoundPage();
  return (
    <div className="container-page py-6 md:py-8">
      <PageMeta
        title={`获取${p.name} - API提取文档与代码示例`}
        description={`${p.name}提取接口文档：请求参数、JSON/TXT返回格式、错误码，以及 Python、Node.js、Java、Go、PHP、C# 等8种语言的代码示例下载。`}
        path={`/getProxy/${type}`}
      />
      <Breadcrumb items={[{ label: '首页', href: '/' }, { label: '获取代理' }, { label: p.name }]} />
      <div className="mt-4 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-ink md:text-3xl">获取{p.name}</h1>
          <p className="mt-2 text-slate-600">IP时长 {p.durations}；通过API链接按需提取，白名单认证，无需账号密码。</p>
        </div>
        <nav aria-label="产品切换" className="flex gap-2">
          {Object.entries(PRODUCTS).map(([t, x]) => (
            <a
              key={t}
              href={`/getProxy/${t}`}
              aria-current={t === type ? 'page' : undefined}
              className={t === type ? 'btn-primary' : 'btn-outline'}
            >
              {x.name}
            </a>
          ))}
        </nav>
      </div>

      <ol className="mt-6 grid gap-4 md:grid-cols-4">
        {[
          ['实名认证', '/personalCenter/realNameAuth'],
          ['购买套餐', `/buy?type=${type}`],
          ['添加白名单', '/personalCenter/getAgent/whiteList'],
          ['生成提取链接', `/personalCenter/getAgent/api?type=${type}`],
        ].map(([label, href], i) => (
          <li key={label} className="card flex items-center gap-3 p-4">
            <span className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white">
              {i + 1}
            </span>
            <a href={href} className="font-medium text-ink hover:text-brand-700">
              {label}
            </a>
          </li>
        ))}
      </ol>

      <section id="api" className="card mt-8 scroll-mt-24 p-5 md:p-8" data-testid="api-doc">
        <h2 className="text-xl font-bold text-ink">API文档</h2>
        <p className="mt-3 text-sm leading-6 text-slate-700">
          接口地址：<code className="rounded bg-slate-100 px-1.5 py-0.5">GET {EXTRACT_ENDPOINT}</code>
          ，参数通过查询字符串传递，中文取值按 UTF-8 进行 URL 编码。调用方公网IP须在白名单中；同一密钥每秒最多调用 10
          次。
        </p>
        <h3 className="mt-6 font-semibold text-ink">请求参数</h3>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr>
                {['参数', '是否必填', '取值', '说明'].map((h) => (
                  <th key={h} scope="col" className={th}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {EXTRACT_PARAMS.map(([name, req, values, desc]) => (
                <tr key={name}>
                  <td className={td}>
                    <code>{name}</code>
                  </td>
                  <td className={`${td} whitespace-nowrap`}>{req}</td>
                  <td className={td}>{values}</td>
                  <td className={td}>{desc}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <h3 id="auth" className="mt-6 scroll-mt-24 font-semibold text-ink">
          认证方式
        </h3>
        <div className="mt-3 grid gap-4 text-sm leading-6 text-slate-700 md:grid-cols-2" data-testid="auth-modes">
          <div className="rounded-lg border border-slate-200 p-4">
            <h4 className="font-semibold text-ink">提取接口：密钥或AES令牌</h4>
            <p className="mt-1">
              <b>密钥模式</b>：链接带 <code>key=提取密钥</code>，最简单。<b>AES令牌模式</b>：不带 key，改带{' '}
              <code>uid=账号ID&token=令牌</code>，密钥不出现在网络与日志中。两种模式调用IP都须在白名单中。
            </p>
          </div>
          <div className="rounded-lg border border-slate-200 p-4">
            <h4 className="font-semibold text-ink">使用代理：白名单或账号密码</h4>
            <p className="mt-1">
              来源IP在白名单内可直接连接；出口IP不固定时用代理账号密码（个人中心“API提取”页查看、可重置）。同一端口支持
              HTTP、HTTPS 与 SOCKS5。
            </p>
          </div>
        </div>
        <h4 className="mt-4 text-sm font-semibold text-ink">生成AES令牌</h4>
        <pre className={`mt-2 ${pre}`}>
          <code>{TOKEN_RECIPE}</code>
        </pre>
        <h4 className="mt-4 text-sm font-semibold text-ink">通过代理访问</h4>
        <pre className={`mt-2 ${pre}`}>
          <code>{PROXY_AUTH_SAMPLE}</code>
        </pre>
        <h3 className="mt-6 font-semibold text-ink">请求示例</h3>
        <pre className={`mt-3 ${pre}`}>
          <code>{`${EXTRACT_ENDPOINT}?key=YOUR_KEY&${p.example}`}</code>
        </pre>
        <h3 className="mt-6 font-semibold text-ink">返回示例（JSON）</h3>
        <pre className={`mt-3 ${pre}`}>
          <code>{JSON_SAMPLE}</code>
        </pre>
        <p className="mt-3 text-sm leading-6 text-slate-700">
          TXT 格式每条为 <code>ip:port</code>，请求 fields 时按 region、carrier、expire、ttl 顺序以逗号追加。出错时 JSON
          返回 <code>{'{"code":1004,"msg":"套餐余量不足"}'}</code>，TXT 返回一行 <code>ERROR 1004 套餐余量不足</code>
          ，HTTP 状态码不再是 200。
        </p>
        <h3 className="mt-6 font-semibold text-ink">错误码</h3>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-sm">
            <thead>
              <tr>
                {['错误码', '含义', '处理建议'].map((h) => (
                  <th key={h} scope="col" className={th}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {EXTRACT_ERRORS.map(([code, meaning, fix]) => (
                <tr key={code}>
                  <td className={td}>{code}</td>
                  <td className={`${td} whitespace-nowrap`}>{meaning}</td>
                  <td className={td}>{fix}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="mt-4 text-sm">
          详细说明：
          <a href="/helpDetails/extract-parameters.html" className="text-brand-700 underline">
            提取参数详解
          </a>
          、
          <a href="/helpDetails/response-formats.html" className="text-brand-700 underline">
            返回格式说明
          </a>
          、
          <a href="/helpDetails/error-codes.html" className="text-brand-700 underline">
            错误码说明
          </a>
        </p>
      </section>

      <section id="code" className="card mt-8 scroll-mt-24 p-5 md:p-8" data-testid="code-samples">
        <h2 className="text-xl font-bold text-ink">代码示例</h2>
        <p className="mt-2 text-sm text-slate-700">
          每个示例都是可直接运行的小程序：用密钥或AES令牌调用提取接口，再通过返回的代理（白名单或账号密码认证）请求网页。下载后把
          YOUR_KEY 等占位符换成自己的密钥、AES Key/IV、账号ID与代理账号密码即可。
        </p>
        <ul className="mt-5 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {CODE_SAMPLES.map((s) => (
            <li key={s.file} className="rounded-lg border border-slate-200 p-4">
              <span className="block font-semibold text-ink">{s.label}</span>
              <span className="mt-1 block text-xs text-slate-600">{s.note}</span>
              <a
                href={`/code/${s.file}.zip`}
                download
                className="btn-outline mt-3 w-full"
                aria-label={`下载 ${s.file}.zip（${s.label}示例）`}
              >
                下载 {s.file}.zip
              </a>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
