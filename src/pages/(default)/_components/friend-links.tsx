// Friend links (Link.queryLinks), shown on the home page only, as the top strip of the footer; noFollow honoured.
import type { FriendLink } from '../../../components/shell/footer';

export function FriendLinks({ links }: { links: FriendLink[] }) {
  if (links.length === 0) return null;
  return (
    <section aria-label="友情链接" className="bg-ink text-sm text-slate-400" data-testid="friend-links">
      <div className="container-page flex flex-wrap items-center gap-x-5 gap-y-2 border-b border-white/10 py-4">
        <span className="text-slate-300">友情链接：</span>
        {links.map((l) => (
          <a
            key={l.linkUrl}
            href={l.linkUrl}
            target={l.linkTarget || '_blank'}
            rel={
              [l.noFollow ? 'nofollow' : '', l.linkTarget === '_self' ? '' : 'noopener'].filter(Boolean).join(' ') ||
              undefined
            }
            className="hover:text-white"
          >
            {l.linkName}
          </a>
        ))}
      </div>
    </section>
  );
}
