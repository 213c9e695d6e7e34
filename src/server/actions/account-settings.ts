// User.* account-settings actions: phone change (old phone, then new), password change, the auto-replace switch, the
// customer-service signature and whether the welfare trial can be claimed.
import { z } from 'zod';
import { encodeMineInfoCookie, MINE_INFO_COOKIE } from '../../lib/mine-info';
import { passwordSchema, phoneSchema, smsCodeSchema } from '../../lib/schemas';
import { getAutoReplace, setAutoReplace } from '../db/account-settings';
import { findUserById } from '../db/users';
import { changePassword, changePhone, sendAccountCode, verifyOldPhone } from '../domain/account-settings';
import { mineInfoCookieFor } from '../domain/accounts';
import { hmacSha256Hex } from '../crypto';
import { SESSION_ABSOLUTE_MS } from '../domain/session';
import { welfareStatus } from '../domain/welfare';
import { smsProviderFor } from '../providers/sms';
import { defineAction, type UserContext } from './define';
import { MINUTE_MS } from '../../lib/time';

async function refreshMineInfoCookie(ctx: UserContext) {
  const fresh = await findUserById(ctx.db, ctx.user.id);
  if (fresh) {
    ctx.setCookie(MINE_INFO_COOKIE, encodeMineInfoCookie(mineInfoCookieFor(fresh)), {
      maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000,
    });
  }
}

export const accountSettingsActions = {
  'User.GetPhoneCode': defineAction({
    summary:
      '账户变更验证码：change_phone_old / change_pwd 发往当前手机号；change_phone_new 需先验证原手机号，发往新手机号',
    access: 'user',
    cacheable: false,
    input: z.object({
      purpose: z.enum(['change_phone_old', 'change_phone_new', 'change_pwd']),
      phone: phoneSchema.optional(),
    }),
    async handler(ctx, input) {
      const sms = smsProviderFor(ctx.env, ctx.config, () => Date.now());
      await sendAccountCode(ctx.db, sms, ctx.config.sessionSecret, {
        user: ctx.user,
        purpose: input.purpose,
        newPhone: input.phone,
        ip: ctx.ip,
        now: ctx.now,
      });
      return { sent: true };
    },
  }),

  'User.ChangePhone': defineAction({
    summary: '更换手机号：step old 验证原手机号验证码（10分钟内有效）；step new 验证新手机号并更换，结束其他会话',
    access: 'user',
    cacheable: false,
    input: z.discriminatedUnion('step', [
      z.object({ step: z.literal('old'), code: smsCodeSchema }),
      z.object({ step: z.literal('new'), phone: phoneSchema, code: smsCodeSchema }),
    ]),
    async handler(ctx, input) {
      if (input.step === 'old') {
        const { expiresAt } = await verifyOldPhone(ctx.db, ctx.config.sessionSecret, {
          user: ctx.user,
          code: input.code,
          now: ctx.now,
        });
        return { step: 'old' as const, verified: true, expiresAt };
      }
      const r = await changePhone(ctx.db, ctx.config.sessionSecret, {
        user: ctx.user,
        sessionId: ctx.sessionId,
        phone: input.phone,
        code: input.code,
        now: ctx.now,
      });
      await refreshMineInfoCookie(ctx);
      return { step: 'new' as const, changed: true, sessionsEnded: r.sessionsEnded };
    },
  }),

  'User.ChangePwd': defineAction({
    summary: '修改密码：当前密码或短信验证码（change_pwd）二选一；新密码8-32位含字母和数字；结束其他会话',
    access: 'user',
    cacheable: false,
    input: z.object({
      oldPassword: z.string().max(64).optional(),
      code: smsCodeSchema.optional(),
      newPassword: passwordSchema,
    }),
    async handler(ctx, input) {
      const r = await changePassword(ctx.db, ctx.config.sessionSecret, {
        user: ctx.user,
        sessionId: ctx.sessionId,
        oldPassword: input.oldPassword,
        code: input.code,
        newPassword: input.newPassword,
        now: ctx.now,
      });
      return { changed: true, sessionsEnded: r.sessionsEnded };
    },
  }),

  'User.IsAutoReplace': defineAction({
    summary: '固定IP失效自动更换开关：不传 value 时查询，传 value 时设置；返回 isAutoReplace',
    access: 'user',
    cacheable: false,
    input: z.object({ value: z.boolean().optional() }),
    async handler(ctx, input) {
      if (input.value !== undefined) await setAutoReplace(ctx.db, ctx.user.id, input.value, ctx.now);
      return { isAutoReplace: await getAutoReplace(ctx.db, ctx.user.id) };
    },
  }),

  'User.getUserSign': defineAction({
    summary: '在线客服用的用户签名：userId、时间戳与 HMAC-SHA256 签名（客服系统据此识别用户，10分钟有效）',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const timestamp = ctx.now;
      const sign = await hmacSha256Hex(ctx.config.chatSignSecret, `user-sign:${ctx.user.id}:${timestamp}`);
      return { userId: ctx.user.id, timestamp, sign, expiresAt: timestamp + 10 * MINUTE_MS };
    },
  }),

  'User.WelfareAble': defineAction({
    summary: '能否领取免费试用：able；reason 为 needsRealName（需实名）、claimed（该身份或本账号已领取）或 unavailable',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const s = await welfareStatus(ctx.db, ctx.user);
      return { able: s.able, reason: s.reason };
    },
  }),
};
