// ProxyWhiteList.*: the caller IPs allowed to extract and use the proxies. Nodes see changes on their next pull.
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { messages } from '../../lib/messages';
import { remarkSchema } from '../../lib/schemas';
import {
  deleteWhiteListEntries,
  insertWhiteListEntry,
  listWhiteList,
  setWhiteListEnabled,
  updateWhiteListEntry,
} from '../db/white-list';
import { customerRefusals } from '../domain/node-contract';
import { refusalReason } from '../domain/node-refusals';
import { normalizeIp, WHITE_LIST_CAP } from '../domain/white-list-ip';
import { defineAction } from './define';
import { DAY_MS } from '../../lib/time';

const ipSchema = z.string({ error: messages.whiteIpInvalid }).transform((s, ctx) => {
  const ip = normalizeIp(s);
  if (!ip) {
    ctx.addIssue({ code: 'custom', message: messages.whiteIpInvalid });
    return z.NEVER;
  }
  return ip;
});
/** Epoch ms, 0 = never expires. */
const expirySchema = z.number().int().min(0, messages.whiteIpExpiryPast).default(0);
const idsSchema = z.array(z.number().int().positive()).min(1, '请选择记录').max(100, '一次最多100条');

/** Refused connections are listed for this many days. */
const REFUSAL_DAYS = 7;

const checkExpiry = (expiresAt: number, now: number) => {
  if (expiresAt !== 0 && expiresAt <= now) throw new AppError('whiteIpExpiryPast');
};

export const whiteListActions = {
  'ProxyWhiteList.GetWhiteList': defineAction({
    summary: `白名单列表（每个账号最多${WHITE_LIST_CAP}个IP）；live 表示当前生效`,
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const list = await listWhiteList(ctx.db, ctx.user.id);
      return {
        cap: WHITE_LIST_CAP,
        list: list.map((e) => ({ ...e, live: e.enabled && (e.expiresAt === 0 || e.expiresAt > ctx.now) })),
      };
    },
  }),

  'ProxyWhiteList.AddProxyWhiteIp': defineAction({
    summary: '添加白名单IP（IPv4/IPv6，可设过期时间，0 为永久）',
    access: 'user',
    cacheable: false,
    input: z.object({ ip: ipSchema, remark: remarkSchema.default(''), expiresAt: expirySchema }),
    async handler(ctx, input) {
      checkExpiry(input.expiresAt, ctx.now);
      const outcome = await insertWhiteListEntry(ctx.db, {
        userId: ctx.user.id,
        ip: input.ip,
        remark: input.remark,
        expiresAt: input.expiresAt,
        now: ctx.now,
        cap: WHITE_LIST_CAP,
      });
      if (outcome === 'exists') throw new AppError('whiteIpExists');
      if (outcome === 'full') throw new AppError('whiteIpLimit');
      return { added: true, ip: input.ip };
    },
  }),

  'ProxyWhiteList.EditProxyWhiteIp': defineAction({
    summary: '修改白名单IP、备注或过期时间',
    access: 'user',
    cacheable: false,
    input: z.object({
      id: z.number().int().positive(),
      ip: ipSchema,
      remark: remarkSchema.default(''),
      expiresAt: expirySchema,
    }),
    async handler(ctx, input) {
      checkExpiry(input.expiresAt, ctx.now);
      const outcome = await updateWhiteListEntry(ctx.db, { userId: ctx.user.id, ...input, now: ctx.now });
      if (outcome === 'missing') throw new AppError('whiteIpNotFound');
      if (outcome === 'exists') throw new AppError('whiteIpExists');
      return { updated: true };
    },
  }),

  'ProxyWhiteList.BatchRemoveProxyWhiteIp': defineAction({
    summary: '批量删除白名单IP',
    access: 'user',
    cacheable: false,
    input: z.object({ ids: idsSchema }),
    async handler(ctx, input) {
      const removed = await deleteWhiteListEntries(ctx.db, ctx.user.id, input.ids, ctx.now);
      if (removed === 0) throw new AppError('whiteIpNotFound');
      return { removed };
    },
  }),

  'ProxyWhiteList.ChangeWhiteIpState': defineAction({
    summary: '启用（state 1）或停用（state 0）一个白名单IP',
    access: 'user',
    cacheable: false,
    input: z.object({ id: z.number().int().positive(), state: z.union([z.literal(0), z.literal(1)]) }),
    async handler(ctx, input) {
      if (!(await setWhiteListEnabled(ctx.db, ctx.user.id, input.id, input.state === 1, ctx.now))) {
        throw new AppError('whiteIpNotFound');
      }
      return { state: input.state };
    },
  }),

  'ProxyWhiteList.currIp': defineAction({
    summary: '当前访问者的公网IP（来自 cf-connecting-ip）',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    handler: async (ctx) => ({ ip: normalizeIp(ctx.ip) ?? ctx.ip }),
  }),

  'ProxyWhiteList.GetRefusals': defineAction({
    summary: `最近${REFUSAL_DAYS}天被代理节点拒绝的连接（时间、来源IP、出口、原因、次数）：同一来源IP、出口与原因在一个上报周期内的多次拒绝合为一行，count 为次数，at 与 lastAt 为首次与末次时间；not_whitelisted 可一键添加该IP`,
    access: 'user',
    cacheable: false,
    input: z.object({
      page: z.number().int().min(1, '页码错误').default(1),
      pageSize: z.number().int().min(1, '每页数量错误').max(50, '每页最多50条').default(10),
    }),
    async handler(ctx, input) {
      const { total, list } = await customerRefusals(
        { db: ctx.db, nodes: ctx.env.NODE_LEASES },
        {
          userId: ctx.user.id,
          since: ctx.now - REFUSAL_DAYS * DAY_MS,
          offset: (input.page - 1) * input.pageSize,
          limit: input.pageSize,
        },
      );
      return {
        total,
        list: list.map((r) => ({
          id: r.id,
          at: r.at,
          lastAt: r.lastAt,
          count: r.count,
          clientIp: r.clientIp,
          exit: `${r.ip}:${r.port}`,
          code: r.code,
          reason: refusalReason(r.code, r.clientIp),
          canAdd: r.code === 'not_whitelisted',
        })),
      };
    },
  }),
};
