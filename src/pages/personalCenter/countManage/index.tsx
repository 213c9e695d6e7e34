// /personalCenter/countManage: account settings (phone, password, auto-replace) and the identity summary.
import { PageHead } from '../../../components/page-head';
import { WelfareClaim } from '../../../components/trust/welfare-claim';
import { REAL_NAME_FORM } from '../../../lib/personal-center-nav';
import { currentMineInfo } from '../../../server/api-server';
import { load } from '../../../server/page-data';
import { AutoReplaceSwitch, PasswordForm, PhoneChangeForm } from './_components/account-forms';

export default async function CountManagePage() {
  const info = await currentMineInfo();
  if (!info) return null;
  const [auto, welfare] = await Promise.all([
    load('User.IsAutoReplace', {}, { isAutoReplace: false }),
    load('User.WelfareAble', {}, { able: false, reason: 'unavailable' }),
  ]);
  const verified = info.identityLabel !== '未认证';
  return (
    <div className="space-y-5" data-testid="count-manage-page">
      <PageHead trail={[{ label: '账户' }, { label: '账户设置' }]} title="账户设置" />
      <section className="card divide-y divide-slate-100 px-6">
        <div className="flex items-center justify-between py-5">
          <div>
            <p className="font-medium text-ink">实名认证</p>
            <p className="text-sm text-slate-500">用户ID {info.id}</p>
          </div>
          <div className="flex items-center gap-3">
            <span
              className={`rounded px-2 py-0.5 text-xs ${verified ? 'bg-emerald-50 text-emerald-700' : 'bg-amber-50 text-amber-700'}`}
            >
              {info.identityLabel}
            </span>
            <a
              href={verified ? '/personalCenter/realNameAuth' : REAL_NAME_FORM}
              className="text-sm text-brand-700 hover:underline"
            >
              {verified ? '查看' : '去认证'}
            </a>
          </div>
        </div>
        <div className="py-5">
          <PhoneChangeForm phone={info.phone} />
        </div>
        <div className="py-5">
          <PasswordForm hasPassword={info.hasPassword} />
        </div>
        <div className="py-5">
          <AutoReplaceSwitch initial={auto.isAutoReplace} />
        </div>
        <div className="flex flex-col gap-3 py-5 md:flex-row md:items-center md:justify-between">
          <div>
            <p className="font-medium text-ink">免费试用</p>
            <p className="text-sm text-slate-500">实名认证后可领取一次免费试用套餐（按实名身份计）</p>
          </div>
          <WelfareClaim able={welfare.able} reason={welfare.reason} />
        </div>
      </section>
    </div>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
