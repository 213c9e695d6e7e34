// /demo: a walk-through of one extraction: the request, the TXT and JSON answers, and using a returned proxy.
import { PageHero } from '../../components/content/page-hero';
import { PageMeta } from '../../components/page-meta';

const REQUEST =
  'https://www.example-proxy.cn/extract?key=YOUR_KEY&num=2&protocol=http&format=json&fields=region,carrier,ttl';
const JSON_ANSWER = `{
  "code": 0,
  "msg": "成功",
  "data": {
    "count": 2,
    "list": [
      {"ip": "203.0.113.7", "port": 40012, "protocol": "http", "region": "广东省深圳市", "carrier": "电信", "ttl": 287},
      {"ip": "198.51.100.23", "port": 40031, "protocol": "http", "region": "浙江省杭州市", "carrier": "联通", "ttl": 417}
    ]
  }
}`;
const TXT_ANSWER = '203.0.113.7:40012\n198.51.100.23:40031';
const USE = 'curl -x http://203.0.113.7:40012 https://httpbin.org/ip\n# {"origin": "203.0.113.7"}';

// min-w-0: a grid item is as wide as its longest unbreakable line by default; the code blocks scroll inside instead.
function Step({ n, title, children }: { n: number; title: string; children: React.ReactNode }) {
  return (
    <li className="card min-w-0 p-6">
      <h2 className="flex items-center gap-3 text-lg font-semibold text-ink">
        <span className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-600 text-sm text-white">
          {n}
        </span>
        {title}
      </h2>
      <div className="mt-4 text-sm leading-6 text-slate-700">{children}</div>
    </li>
  );
}

const code = 'mt-3 overflow-x-auto rounded-lg bg-ink p-4 text-[13px] leading-6 text-slate-100';

export default async function DemoPage() {
  return (
    <>
      <PageMeta
        title="提取演示 - 一次完整的代理IP提取"
        description="通过一个完整示例了解代理IP的提取请求、JSON与TXT返回格式，以及如何使用返回的代理访问网站。"
        path="/demo"
      />
      <PageHero
        eyebrow="演示"
        title="30秒看懂一次代理IP提取"
        lead="请求提取接口 → 拿到代理列表 → 通过代理访问目标网站。示例使用文档保留地址，不代表真实节点。"
      />
      <ol className="container-page grid gap-5 py-14 md:grid-cols-2">
        <Step n={1} title="发起提取请求">
          <p>把 YOUR_KEY 换成个人中心“API提取”页面的密钥；调用机器的公网IP需在白名单中。</p>
          <pre className={code}>
            <code>{REQUEST}</code>
          </pre>
        </Step>
        <Step n={2} title="TXT 格式返回">
          <p>format=txt 时每行一个 ip:port，分隔符由 sep 参数决定。</p>
          <pre className={code}>
            <code>{TXT_ANSWER}</code>
          </pre>
        </Step>
        <Step n={3} title="JSON 格式返回">
          <p>code 为 0 表示成功；fields 指定的附加字段会出现在每条记录中，ttl 为剩余秒数。</p>
          <pre className={code}>
            <code>{JSON_ANSWER}</code>
          </pre>
        </Step>
        <Step n={4} title="通过代理访问">
          <p>目标网站看到的来源IP就是代理出口IP。各语言示例见获取代理页的代码示例。</p>
          <pre className={code}>
            <code>{USE}</code>
          </pre>
          <div className="mt-4 flex flex-wrap gap-3">
            <a href="/getProxy/10#api" className="btn-primary">
              API文档
            </a>
            <a href="/getProxy/10#code" className="btn-outline">
              代码示例下载
            </a>
          </div>
        </Step>
      </ol>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
