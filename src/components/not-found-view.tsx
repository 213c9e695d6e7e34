// The 404 view (seed section 2): an illustration, a playful message and a way home. Used by the /404 page and by
// pages whose slug names nothing (they call notFoundPage(), which also sets the HTTP status).
import { setPageStatus } from '../server/page-status';

/** Render the 404 view with status 404 (a page whose slug names nothing: `return notFoundPage()`). */
export function notFoundPage() {
  setPageStatus(404);
  return <NotFoundView />;
}

export function NotFoundView() {
  return (
    <section className="container-page flex flex-col items-center py-20 text-center md:py-28" data-testid="not-found">
      <title>页面不存在 - 404</title>
      <meta name="robots" content="noindex" />
      <svg viewBox="0 0 360 220" className="h-48 w-auto md:h-60" role="img" aria-label="拿着放大镜四处寻找的探险家">
        <ellipse cx="180" cy="204" rx="150" ry="10" fill="#e2e8f0" />
        <text
          x="150"
          y="112"
          textAnchor="middle"
          fontSize="112"
          fontWeight="800"
          fill="#d9e8ff"
          fontFamily="system-ui, sans-serif"
        >
          404
        </text>
        <path
          d="M40 196c10-14 30-20 44-14"
          fill="none"
          stroke="#bcd7ff"
          strokeWidth="4"
          strokeLinecap="round"
          strokeDasharray="2 10"
        />
        <g transform="translate(270 96)">
          <path d="M-22 12c-2-14 8-24 22-24s24 10 22 24z" fill="#0f1b3d" />
          <path d="M-30 12h60" stroke="#0f1b3d" strokeWidth="5" strokeLinecap="round" />
          <circle cx="0" cy="28" r="14" fill="#fde7d3" />
          <circle cx="-5" cy="27" r="1.8" fill="#0f1b3d" />
          <circle cx="5" cy="27" r="1.8" fill="#0f1b3d" />
          <path d="M-4 34q4 3 8 0" fill="none" stroke="#0f1b3d" strokeWidth="1.6" strokeLinecap="round" />
          <path d="M-20 104v-42c0-12 8-20 20-20s20 8 20 20v42z" fill="#3372ff" />
          <path d="M-14 104v-6M14 104v-6" stroke="#0f1b3d" strokeWidth="6" strokeLinecap="round" />
          <path d="M16 58l24-12" stroke="#3372ff" strokeWidth="8" strokeLinecap="round" />
          <circle cx="52" cy="38" r="14" fill="#eef5ff" stroke="#1d54f5" strokeWidth="5" />
          <path d="M42 48l-6 6" stroke="#1d54f5" strokeWidth="6" strokeLinecap="round" />
        </g>
      </svg>
      <h1 className="mt-6 text-2xl font-bold text-ink md:text-3xl">Page Not Found</h1>
      <p className="mt-3 max-w-md text-slate-500">
        哎呀，探险家翻遍了这里也没有找到任何东西，这条路可能已经不存在了。回到首页，重新开始探索吧！
      </p>
      <a href="/" className="btn-primary mt-8 px-8 py-3" data-testid="back-home">
        返回首页
      </a>
    </section>
  );
}
