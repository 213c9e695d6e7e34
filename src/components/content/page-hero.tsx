// The dark hero that opens home-like pages (the header floats transparent over it at scroll top).
import type { ReactNode } from 'react';

export function PageHero({
  eyebrow,
  title,
  lead,
  children,
}: {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <section className="relative overflow-hidden bg-[radial-gradient(ellipse_at_top_right,#3372ff_0%,#1935b6_45%,#0f1b3d_100%)] pt-[calc(var(--dropdown-top)+2rem)] pb-14 text-white md:pt-[calc(var(--dropdown-top)+4rem)] md:pb-20">
      <div className="container-page relative">
        {eyebrow && (
          <p className="mb-4 inline-flex rounded-full bg-white/10 px-3 py-1 text-xs tracking-wider text-brand-100 ring-1 ring-white/20">
            {eyebrow}
          </p>
        )}
        <h1 className="max-w-3xl text-3xl leading-tight font-bold md:text-[2.75rem]">{title}</h1>
        {lead && <div className="mt-5 max-w-2xl text-base leading-7 text-brand-100 md:text-lg">{lead}</div>}
        {children}
      </div>
    </section>
  );
}

/** A centred section heading with an optional lead line. */
export function SectionTitle({ title, lead, id }: { title: string; lead?: string; id?: string }) {
  return (
    <div className="text-center" {...(id ? { id } : {})}>
      <h2 className="text-2xl font-bold text-ink md:text-3xl">{title}</h2>
      {lead && <p className="mt-3 text-slate-600">{lead}</p>}
    </div>
  );
}
