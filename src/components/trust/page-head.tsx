// The heading of a trust page: document title, breadcrumb and h1.
import { Breadcrumb } from '../breadcrumb';

export function TrustPageHead({ trail, title }: { trail: { label: string; href?: string }[]; title: string }) {
  return (
    <div className="space-y-3">
      <title>{`${title} - 云枢代理`}</title>
      <Breadcrumb items={[{ label: '个人中心', href: '/personalCenter' }, ...trail]} />
      <h1 className="text-xl font-semibold text-ink">{title}</h1>
    </div>
  );
}
