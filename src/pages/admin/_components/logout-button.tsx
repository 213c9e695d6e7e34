'use client';
// 退出: ends the operator session on the server (the cookie is HttpOnly) and goes to the console login.
import { consoleApi } from './console-api';

export function AdminLogoutButton() {
  return (
    <button
      type="button"
      className="btn-ghost px-2 py-1 text-xs"
      onClick={async () => {
        await consoleApi.call('Operator.Logout', {}, { silent: true });
        window.location.assign('/admin/login');
      }}
    >
      退出
    </button>
  );
}
