// User.* actions: SMS codes, SMS login/registration, password login, the user's own info, logout.
import { z } from 'zod';
import { encodeMineInfoCookie, MINE_INFO_COOKIE, TOKEN_COOKIE } from '../../lib/mine-info';
import { loginPasswordSchema, phoneSchema, smsCodeSchema } from '../../lib/schemas';
import { readStartSteps } from '../db/start-steps';
import type { UserRecord } from '../db/users';
import {
  type LoginOutcome,
  loginWithPassword,
  loginWithSmsCode,
  mineInfoCookieFor,
  mineInfoFor,
} from '../domain/accounts';
import { attributeFromCookies } from '../domain/promotion';
import { endSession, SESSION_ABSOLUTE_MS, startSession } from '../domain/session';
import { sendVerificationCode } from '../domain/sms';
import { smsProviderFor } from '../providers/sms';
import { type BaseContext, defineAction } from './define';

const SESSION_COOKIE_SECONDS = SESSION_ABSOLUTE_MS / 1000;

async function signIn(ctx: BaseContext, user: UserRecord) {
  const { token } = await startSession(ctx.db, { userId: user.id, now: ctx.now, ip: ctx.ip, userAgent: ctx.userAgent });
  ctx.setCookie(TOKEN_COOKIE, token, { httpOnly: true, maxAgeSeconds: SESSION_COOKIE_SECONDS });
  ctx.setCookie(MINE_INFO_COOKIE, encodeMineInfoCookie(mineInfoCookieFor(user)), {
    maxAgeSeconds: SESSION_COOKIE_SECONDS,
  });
  return mineInfoFor(user, ctx.db);
}

async function answerLogin(ctx: BaseContext, outcome: LoginOutcome) {
  if (outcome.state === 2) return { state: 2 as const };
  return { state: 1 as const, isNew: outcome.created, mineInfo: await signIn(ctx, outcome.user) };
}

export const userActions = {
  'User.GetCode': defineAction({
    summary: '发送短信验证码（6位，5分钟有效；每个手机号1次/分钟、5次/小时、10次/天，另按IP限制）',
    access: 'public',
    cacheable: false,
    // Codes for account changes are sent by the logged-in flows (User.GetPhoneCode), never from here.
    input: z.object({ phone: phoneSchema }),
    async handler(ctx, input) {
      const sms = smsProviderFor(ctx.env, ctx.config, () => Date.now());
      await sendVerificationCode(ctx.db, sms, ctx.config.sessionSecret, {
        phone: input.phone,
        purpose: 'login',
        ip: ctx.ip,
        now: ctx.now,
      });
      return { sent: true };
    },
  }),

  'User.LoginRegister': defineAction({
    summary: '短信验证码登录，新手机号自动注册；state 1 成功，state 2 账号不可用',
    access: 'public',
    cacheable: false,
    input: z.object({ phone: phoneSchema, code: smsCodeSchema }),
    async handler(ctx, input) {
      const outcome = await loginWithSmsCode(ctx.db, ctx.config.sessionSecret, {
        phone: input.phone,
        code: input.code,
        sourceType: ctx.sourceType,
        now: ctx.now,
      });
      // Issue 6: a new account is credited to its promoter or seller from the 30-day promotion cookies.
      if (outcome.state === 1 && outcome.created) {
        return answerLogin(ctx, {
          ...outcome,
          user: await attributeFromCookies(ctx.db, outcome.user, ctx.getCookie, ctx.now),
        });
      }
      return answerLogin(ctx, outcome);
    },
  }),

  'User.Login': defineAction({
    summary: '手机号 + 密码登录；连续5次错误锁定15分钟，每个IP 15分钟内最多30次失败尝试；state 2 账号不可用',
    access: 'public',
    cacheable: false,
    input: z.object({ phone: phoneSchema, password: loginPasswordSchema }),
    async handler(ctx, input) {
      return answerLogin(ctx, await loginWithPassword(ctx.db, { ...input, ip: ctx.ip, now: ctx.now }));
    },
  }),

  'User.GetMineInfo': defineAction({
    summary: '当前用户信息（mineInfo，手机号脱敏）',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      // Keep the Mine_Info cookie in step with the account (e.g. after authentication changes).
      ctx.setCookie(MINE_INFO_COOKIE, encodeMineInfoCookie(mineInfoCookieFor(ctx.user)), {
        maxAgeSeconds: SESSION_COOKIE_SECONDS,
      });
      return mineInfoFor(ctx.user, ctx.db);
    },
  }),

  'User.GetStartSteps': defineAction({
    summary: '个人中心「开始使用」清单：是否已购买套餐（有已支付订单）、已添加白名单、已成功提取过IP',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    handler: (ctx) => readStartSteps(ctx.db, ctx.user.id),
  }),

  'User.Logout': defineAction({
    summary: '退出登录：删除会话并清除 token 与 Mine_Info Cookie（种子未列出，见 docs/decisions/002）',
    access: 'public',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      if (ctx.sessionId !== null) await endSession(ctx.db, ctx.sessionId);
      ctx.clearCookie(TOKEN_COOKIE);
      ctx.clearCookie(MINE_INFO_COOKIE);
      return { loggedOut: true };
    },
  }),
};
