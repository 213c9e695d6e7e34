// Operator.* actions: the console's login (password, then a TOTP code; enrolment at the first login), the current
// operator and logout (docs/decisions/101). Public by access level: they work on the operator cookie themselves.
import { z } from 'zod';
import { identityKeys } from '../domain/identity-crypto';
import {
  beginTotpEnrolment,
  changeOwnOperatorPassword,
  endOperatorSession,
  OPERATOR_COOKIE,
  operatorPasswordLogin,
  resolveOperatorSession,
  verifyTotpLogin,
} from '../domain/operators';
import { operatorPasswordSchema } from '../../lib/schemas';
import { type BaseContext, defineAction } from './define';

const keysOf = (ctx: BaseContext) => identityKeys(ctx.config.identity.idEncryptionKey);
/** The operator cookie: HttpOnly, SameSite=Strict, Secure in production, ends with the browser session. */
const COOKIE = { httpOnly: true, sameSite: 'Strict' } as const;

const usernameSchema = z.string({ error: '请输入账号' }).trim().min(1, '请输入账号').max(32, '账号最多32个字符');
const passwordSchema = z.string({ error: '请输入密码' }).min(1, '请输入密码').max(128, '密码最多128个字符');

export const consoleAuthActions = {
  'Operator.Login': defineAction({
    summary:
      '【运营后台】账号密码登录（第一步）：响应 next = enrol（首次登录，需绑定动态验证码）或 totp（输入动态验证码）；与客户登录相同的按 IP 与按账号限次',
    access: 'public',
    cacheable: false,
    input: z.object({ username: usernameSchema, password: passwordSchema }),
    async handler(ctx, input) {
      const { token, needsEnrolment } = await operatorPasswordLogin(ctx.db, {
        ...input,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        now: ctx.now,
      });
      ctx.setCookie(OPERATOR_COOKIE, token, COOKIE);
      return { next: needsEnrolment ? ('enrol' as const) : ('totp' as const) };
    },
  }),

  'Operator.TotpEnrol': defineAction({
    summary:
      '【运营后台】首次登录绑定动态验证码：生成密钥，响应 secret、otpauth URI 与二维码 SVG（仅密码已验证且未绑定时）',
    access: 'public',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const { secret, uri } = await beginTotpEnrolment(ctx.db, await keysOf(ctx), {
        token: ctx.getCookie(OPERATOR_COOKIE),
        now: ctx.now,
      });
      // Loaded on use: the docs generator bundles the registry for Node, where qrcode's PNG renderer needs fs.
      const { default: QRCode } = await import('qrcode');
      const qrSvg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', width: 200 });
      return { secret, uri, qrSvg };
    },
  }),

  'Operator.TotpVerify': defineAction({
    summary:
      '【运营后台】输入6位动态验证码完成登录（绑定时即确认绑定）；错误与密码错误合计5次锁定15分钟；同一验证码不能重复使用',
    access: 'public',
    cacheable: false,
    input: z.object({ code: z.string().regex(/^\d{6}$/, '请输入6位动态验证码') }),
    async handler(ctx, input) {
      const { token, operator } = await verifyTotpLogin(ctx.db, await keysOf(ctx), {
        token: ctx.getCookie(OPERATOR_COOKIE),
        code: input.code,
        ip: ctx.ip,
        now: ctx.now,
      });
      ctx.setCookie(OPERATOR_COOKIE, token, COOKIE);
      return { username: operator.username, displayName: operator.displayName, role: operator.role };
    },
  }),

  'Operator.Me': defineAction({
    summary: '【运营后台】当前登录的运营账号（未登录为 null）',
    access: 'public',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const op = await resolveOperatorSession(ctx.db, ctx.getCookie(OPERATOR_COOKIE), ctx.now);
      return op ? { id: op.id, username: op.username, displayName: op.displayName, role: op.role } : null;
    },
  }),

  'Operator.ChangePassword': defineAction({
    summary:
      '【运营后台】修改自己的密码：需当前密码与一个新的动态验证码（错误与登录失败合计5次锁定15分钟）；新密码至少12位，不能是常见或过于简单的密码；成功后其他会话全部退出，当前会话保留',
    access: { operator: ['finance', 'support', 'content', 'ops'] },
    cacheable: false,
    input: z.object({
      currentPassword: passwordSchema,
      code: z.string().regex(/^\d{6}$/, '请输入6位动态验证码'),
      newPassword: operatorPasswordSchema,
    }),
    handler: async (ctx, input) =>
      changeOwnOperatorPassword(ctx.db, await keysOf(ctx), ctx.operator, { ...input, ip: ctx.ip, now: ctx.now }),
  }),

  'Operator.Logout': defineAction({
    summary: '【运营后台】退出登录：删除运营会话并清除其 Cookie',
    access: 'public',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      await endOperatorSession(ctx.db, ctx.getCookie(OPERATOR_COOKIE));
      ctx.clearCookie(OPERATOR_COOKIE, COOKIE);
      return { loggedOut: true };
    },
  }),
};
