// The operator console's outer layout (its own, not the public site's): never indexed, no public header or footer.
// The guarded screens sit in (console)/ with the navigation; the login page sits here alone.
import type { ReactNode } from 'react';

export default async function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-100 text-slate-800">
      <meta name="robots" content="noindex, nofollow" />
      {children}
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
