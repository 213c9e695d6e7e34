// Proxy.* / proxy.resetSecret / ProxyIp.*: the user's packages, the account panel's counts, the extraction key and
// the long-lived IP list.
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { pageInput, productTypeSchema, remarkSchema } from '../../lib/schemas';
import { shanghaiDay } from '../../lib/time';
import { autoRenewPackageIds } from '../db/auto-renew';
import { countLiveFixed, listFixedAllocations } from '../db/fixed';
import { deleteFinishedPackages, listPackages, livePackages, setPackageRemark } from '../db/packages';
import { hotLeasesPage } from '../archive/customer';
import { ensureCredentials, resetCredentials, rotateProxyPassword } from '../domain/credentials';
import { mealCounts, packageView } from '../domain/packages';
import { regionText } from '../domain/regions';
import { defineAction } from './define';

const idsSchema = z.array(z.number().int().positive()).min(1, '请选择记录').max(100, '一次最多100条');

/** One long-lived IP of the list, the same shape for assigned static IPs and dedicated fixed IPs. */
const longIpDto = (a: {
  id: number;
  ip: string;
  port: number;
  region: string;
  carrier: string;
  startsAt: number;
  expiresAt: number;
  remark: string;
}) => ({
  id: a.id,
  ip: a.ip,
  port: a.port,
  region: a.region,
  carrier: a.carrier,
  startsAt: a.startsAt,
  expiresAt: a.expiresAt,
  remark: a.remark,
});

export const proxyActions = {
  'Proxy.GetProxys': defineAction({
    summary: '我的套餐列表（按产品类型；type 30 同时包含 50），使用中的在前',
    access: 'user',
    cacheable: false,
    input: z.object({ type: productTypeSchema, state: z.number().int().min(0).max(5).default(0), ...pageInput }),
    async handler(ctx, input) {
      const types = input.type === 30 ? [30, 50] : [input.type];
      const { total, list } = await listPackages(ctx.db, {
        userId: ctx.user.id,
        types,
        state: input.state || null,
        offset: (input.page - 1) * input.pageSize,
        limit: input.pageSize,
      });
      const day = shanghaiDay(ctx.now);
      const renewing = await autoRenewPackageIds(ctx.db, ctx.user.id);
      // autoRenew: the customer's 自动续费 from balance is on for this package (docs/decisions/225).
      return {
        total,
        list: list.map((p) => ({ ...packageView(p, day, ctx.now), autoRenew: renewing.has(p.id) })),
      };
    },
  }),

  'Proxy.AlterRemark': defineAction({
    summary: '修改套餐备注（最多50字）',
    access: 'user',
    cacheable: false,
    input: z.object({ id: z.number().int().positive(), remark: remarkSchema }),
    async handler(ctx, input) {
      if (!(await setPackageRemark(ctx.db, ctx.user.id, input.id, input.remark, ctx.now))) {
        throw new AppError('packageNotFound');
      }
      return { updated: true };
    },
  }),

  'Proxy.DeleteByIds': defineAction({
    summary: '删除已过期或已用完的套餐（使用中的套餐不能删除）',
    access: 'user',
    cacheable: false,
    input: z.object({ ids: idsSchema }),
    async handler(ctx, input) {
      const deleted = await deleteFinishedPackages(ctx.db, ctx.user.id, input.ids, ctx.now);
      if (deleted === 0) throw new AppError('packageDeleteActive');
      return { deleted };
    },
  }),

  'Proxy.GetMealCount': defineAction({
    summary: '账户面板的套餐数量：shortDynamicsNum/Date、longDynamicsNum/Date、fixed，各含 num/state/value',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const [live, fixed] = await Promise.all([
        livePackages(ctx.db, ctx.user.id, ctx.now),
        countLiveFixed(ctx.db, ctx.user.id, ctx.now),
      ]);
      return { data: mealCounts(live, fixed, shanghaiDay(ctx.now), ctx.now) };
    },
  }),

  'proxy.resetSecret': defineAction({
    summary: '重置提取密钥与 AES Key/IV（旧密钥与旧令牌立即失效；代理账号密码不变）；新提取密钥只在此次应答中出现一次',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const c = await resetCredentials(ctx.db, ctx.config.nodeSecretKey, ctx.user.id, ctx.now);
      return { apiKey: c.apiKey, proxyApiKey: c.aesKey, proxyApiIv: c.aesIv };
    },
  }),

  'Proxy.GetProxyAccount': defineAction({
    summary: '代理账号密码（节点按账号密码认证时使用，可替代白名单）与 AES 令牌提取所需的 uid',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const c = await ensureCredentials(ctx.db, ctx.config.nodeSecretKey, ctx.user.id, ctx.now);
      return { uid: ctx.user.id, username: c.proxyUsername, password: c.proxyPassword };
    },
  }),

  'Proxy.ResetProxyPassword': defineAction({
    summary: '重置代理密码（每分钟最多一次；旧密码在节点下次同步后失效，通常5秒内）',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const c = await rotateProxyPassword(ctx.db, ctx.config.nodeSecretKey, ctx.user.id, ctx.now);
      if (!c) throw new AppError('proxyPasswordTooFrequent');
      return { uid: ctx.user.id, username: c.proxyUsername, password: c.proxyPassword };
    },
  }),

  'ProxyIp.GetLongStaticIpList': defineAction({
    summary: '长效IP列表：type 40 为仍在有效期内的长效静态IP，type 30/50 为独享固定IP',
    access: 'user',
    cacheable: false,
    input: z.object({ type: productTypeSchema.default(40), ip: z.string().trim().max(64).default(''), ...pageInput }),
    async handler(ctx, input) {
      const page = {
        userId: ctx.user.id,
        liveAt: ctx.now,
        ip: input.ip || null,
        offset: (input.page - 1) * input.pageSize,
        limit: input.pageSize,
      };
      if (input.type === 30 || input.type === 50) {
        const { total, list } = await listFixedAllocations(ctx.db, page);
        return {
          total,
          totalCapped: false,
          list: list.map((a) => longIpDto({ ...a, region: regionText(a.province, a.city), startsAt: a.allocatedAt })),
        };
      }
      const { total, totalCapped, list } = await hotLeasesPage(ctx.db, ctx.env.CUSTOMER_RECORDS, ctx.env.NODE_LEASES, {
        ...page,
        productType: input.type,
      });
      return { total, totalCapped, list: list.map((a) => longIpDto({ ...a, startsAt: a.assignedAt })) };
    },
  }),
};
