// Small presentational pieces shared by the console's screens (server components).
import type { ReactNode } from 'react';

export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <title>{`${title} - 运营后台`}</title>
      <h1 className="text-lg font-bold text-slate-900">{title}</h1>
      {children}
    </div>
  );
}

export function Stat({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <div className="card p-4">
      <p className="text-xs text-slate-500">{label}</p>
      <p className="mt-1 text-xl font-semibold text-slate-900">{value}</p>
      {hint ? <p className="mt-1 text-xs text-slate-400">{hint}</p> : null}
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card p-4">
      <h2 className="mb-3 text-sm font-semibold text-slate-700">{title}</h2>
      {children}
    </section>
  );
}

/** Shown when the operator's role may not use a screen (the action answered 403). */
export function NoAccess() {
  return <p className="card p-6 text-sm text-slate-500">当前角色无权查看此页面。</p>;
}

/**
 * A small bar chart drawn on the server (no script): one bar per point, the largest at full height, each bar's exact
 * figure in its tooltip and the whole series in the label for screen readers.
 */
export function MiniBars({
  title,
  points,
  format = String,
}: {
  title: string;
  points: { label: string; value: number }[];
  format?: (n: number) => string;
}) {
  const max = Math.max(1, ...points.map((p) => p.value));
  const w = 10;
  const gap = 4;
  const h = 48;
  const total = points.reduce((sum, p) => sum + p.value, 0);
  return (
    <figure className="min-w-0">
      <figcaption className="flex justify-between text-xs text-slate-500">
        <span>{title}</span>
        <span className="font-semibold text-slate-700">合计 {format(total)}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${points.length * (w + gap) - gap} ${h}`}
        className="mt-1 h-12 w-full"
        preserveAspectRatio="none"
        role="img"
        aria-label={`${title}：${points.map((p) => `${p.label} ${format(p.value)}`).join('，')}`}
      >
        {points.map((p, i) => {
          const bh = p.value === 0 ? 1 : Math.max(2, Math.round((p.value / max) * h));
          return (
            <rect
              key={p.label}
              x={i * (w + gap)}
              y={h - bh}
              width={w}
              height={bh}
              rx={1.5}
              className={p.value === 0 ? 'fill-slate-200' : 'fill-brand-500'}
            >
              <title>{`${p.label}：${format(p.value)}`}</title>
            </rect>
          );
        })}
      </svg>
      <div className="flex justify-between text-[11px] text-slate-400">
        <span>{points[0]?.label.slice(5)}</span>
        <span>{points.at(-1)?.label.slice(5)}</span>
      </div>
    </figure>
  );
}
