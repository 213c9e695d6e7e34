// The console's screens: a live operator session is required (else /admin/login); the navigation shows the screens of
// the operator's role. Phones get the navigation as a scrolling strip above the screen.
import type { ReactNode } from 'react';
import { unstable_redirect as redirect } from 'waku/router/server';
import { OPERATOR_ROLE_LABEL } from '../../../lib/operator-roles';
import { load } from '../../../server/page-data';
import { canCall } from '../../../server/operator-access';
import { navFor } from '../_components/console-nav';
import { AdminNavLinks } from '../_components/console-nav-links';
import { ChangePasswordButton } from '../_components/change-password';
import { AdminLogoutButton } from '../_components/logout-button';

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const me = await load('Operator.Me', {}, false);
  if (!me) redirect('/admin/login');
  const nav = navFor(me.role, canCall);
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <aside className="bg-slate-900 text-slate-200 md:w-52 md:shrink-0">
        <div className="flex items-center justify-between gap-2 px-4 py-3 md:block md:py-5">
          <p className="font-bold text-white">运营后台</p>
          <p className="truncate text-xs text-slate-400 md:mt-1" data-testid="admin-whoami">
            {me.displayName}（{OPERATOR_ROLE_LABEL[me.role]}）
          </p>
        </div>
        <AdminNavLinks items={nav} />
      </aside>
      <div className="min-w-0 flex-1">
        <header className="flex items-center justify-end gap-3 border-b border-slate-200 bg-white px-4 py-2 text-sm">
          <span className="text-slate-500">{me.username}</span>
          <ChangePasswordButton username={me.username} />
          <AdminLogoutButton />
        </header>
        <main className="p-4 md:p-6">{children}</main>
      </div>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
