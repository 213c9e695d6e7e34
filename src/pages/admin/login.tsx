// /admin/login: the console's login (password, then TOTP; enrolment at the first login).
import { unstable_redirect as redirect } from 'waku/router/server';
import { load } from '../../server/page-data';
import { AdminLoginForm } from './_components/login-form';

export default async function AdminLoginPage() {
  const me = await load('Operator.Me', {}, false);
  if (me) redirect('/admin');
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-10">
      <title>运营后台登录</title>
      <div className="card w-full max-w-sm p-6">
        <h1 className="mb-1 text-xl font-bold text-slate-900">云枢代理 · 运营后台</h1>
        <p className="mb-5 text-sm text-slate-500">仅限运营人员使用，所有操作均记录在案。</p>
        <AdminLoginForm />
      </div>
    </main>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
