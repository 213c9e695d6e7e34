// A hand-written SVG bar chart (no chart library): one or two series per bucket, a y axis with round ticks,
// a label every few buckets and a title per bar for hover. Renders on the server; scales to its container.

export interface ChartPoint {
  label: string;
  values: number[];
}

export interface BarChartProps {
  points: ChartPoint[];
  series: { name: string; color: string }[];
  height?: number;
  formatValue?: (v: number) => string;
  emptyText?: string;
}

/** A step for ~4 ticks: 1, 2 or 5 times a power of ten, at least 1 (the charts count calls, IPs and bytes). */
function niceStep(max: number): number {
  const raw = Math.max(max, 4) / 4;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const m = raw / pow;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * pow;
}

export function BarChart({
  points,
  series,
  height = 220,
  formatValue = String,
  emptyText = '暂无数据',
}: BarChartProps) {
  // Two drawings of the same data: a wide one from md up and a narrow one for phones, so the axis text keeps a
  // readable size when the SVG scales to its container.
  const common = { points, series, height, formatValue, emptyText };
  return (
    <figure className="w-full">
      <ChartSvg {...common} width={720} maxLabels={6} className="hidden h-auto w-full md:block" />
      <ChartSvg {...common} width={360} maxLabels={4} className="h-auto w-full md:hidden" />
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-slate-500">
        {series.map((s) => (
          <span key={s.name} className="flex items-center gap-1.5">
            <span className="inline-block h-2.5 w-2.5 rounded-sm" style={{ background: s.color }} />
            {s.name}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

function ChartSvg({
  points,
  series,
  height,
  formatValue,
  emptyText,
  width,
  maxLabels,
  className,
}: Required<BarChartProps> & { width: number; maxLabels: number; className: string }) {
  const max = Math.max(0, ...points.flatMap((p) => p.values));
  const step = niceStep(max);
  const top = Math.max(step * Math.ceil(max / step), step);
  // An empty chart draws its baseline only: a scale of "0 B … 1 B" would describe data that is not there.
  const ticks = max === 0 ? [0] : Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  // The left gutter fits the widest tick label ("76.56 KB" needs more room than "8"), at about 7.5 px a character.
  const widestLabel = Math.max(...ticks.map((t) => formatValue(t).length));
  const pad = { top: 12, right: 12, bottom: 28, left: Math.max(40, Math.ceil(widestLabel * 7.5) + 14) };
  const innerW = width - pad.left - pad.right;
  const innerH = height - pad.top - pad.bottom;
  const slot = points.length ? innerW / points.length : innerW;
  const barW = Math.max(2, Math.min(28, (slot * 0.7) / Math.max(1, series.length)));
  const labelEvery = Math.max(1, Math.ceil(points.length / maxLabels));
  const y = (v: number) => pad.top + innerH - (v / top) * innerH;
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      className={className}
      role="img"
      aria-label={series.map((s) => s.name).join('、')}
    >
      {ticks.map((t) => (
        <g key={t}>
          <line
            x1={pad.left}
            x2={width - pad.right}
            y1={y(t)}
            y2={y(t)}
            stroke="#e2e8f0"
            strokeDasharray={t ? '3 3' : undefined}
          />
          {max > 0 && (
            <text x={pad.left - 8} y={y(t) + 4} textAnchor="end" fontSize="13" fill="#64748b">
              {formatValue(t)}
            </text>
          )}
        </g>
      ))}
      {points.map((p, i) => {
        const x0 = pad.left + i * slot + (slot - barW * series.length) / 2;
        return (
          <g key={p.label}>
            {/* An empty chart has no bars to point at (each would say "0 B"). */}
            {max > 0 &&
              p.values.map((v, s) => (
                <rect
                  key={`${p.label}-${series[s]?.name ?? ''}`}
                  x={x0 + s * barW}
                  y={y(v)}
                  width={barW - 1}
                  height={Math.max(0, pad.top + innerH - y(v))}
                  rx="2"
                  fill={series[s]?.color ?? '#1d54f5'}
                >
                  <title>{`${p.label} ${series[s]?.name ?? ''}：${formatValue(v)}`}</title>
                </rect>
              ))}
            {i % labelEvery === 0 && (
              <text x={pad.left + i * slot + slot / 2} y={height - 8} textAnchor="middle" fontSize="13" fill="#64748b">
                {p.label}
              </text>
            )}
          </g>
        );
      })}
      {max === 0 && (
        <text x={pad.left + innerW / 2} y={pad.top + innerH / 2} textAnchor="middle" fontSize="13" fill="#94a3b8">
          {emptyText}
        </text>
      )}
    </svg>
  );
}
