// The heading of a personal-centre page: the document title (one rule: pageTitle), the breadcrumb under 个人中心,
// the h1 and optional actions beside it.
import type { ReactNode } from 'react';
import { pageTitle } from '../lib/site';
import { Breadcrumb } from './breadcrumb';

export type Crumb = string | { label: string; href?: string };

export function PageHead({ trail, title, actions }: { trail: Crumb[]; title: string; actions?: ReactNode }) {
  const items = trail.map((c) => (typeof c === 'string' ? { label: c } : c));
  return (
    <div className="space-y-3">
      <title>{pageTitle(title)}</title>
      <Breadcrumb items={[{ label: '个人中心', href: '/personalCenter' }, ...items]} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-xl font-semibold text-ink">{title}</h1>
        {actions}
      </div>
    </div>
  );
}
