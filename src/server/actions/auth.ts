// Auth.* and Company.* actions: personal face verification, company licence applications and their operator review.

import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { safeRedirect } from '../../lib/safe-redirect';
import { identityLabel } from '../../lib/identity';
import {
  companyNameSchema,
  creditCodeSchema,
  idNumberSchema,
  legalPersonSchema,
  realNameSchema,
  noteSchema,
} from '../../lib/schemas';
import {
  findLatestCompanyAuth,
  findLatestLicenceUpload,
  listCompanyAuthsByState,
  updateUserRemark,
} from '../db/company';
import { findUserIdentity } from '../db/realname';
import { companyStateText, MAX_LICENCE_BYTES, reviewCompanyAuth, submitCompanyAuth } from '../domain/company-auth';
import { identityKeys } from '../domain/identity-crypto';
import { maskCreditCode, maskName } from '../../lib/identity-number';
import { confirmVerification, startVerification } from '../domain/realname';
import { faceVerifyProviderFor } from '../providers/realname';
import { type BaseContext, defineAction } from './define';
import { auditActor } from '../domain/console-audit';

const keysOf = (ctx: BaseContext) => identityKeys(ctx.config.identity.idEncryptionKey);
const providerOf = (ctx: BaseContext) => faceVerifyProviderFor(ctx.env, ctx.config, () => Date.now());

export const LICENCE_UPLOAD_PATH = '/api/upload/company-licence';

export const authActions = {
  'Auth.CertifyInit': defineAction({
    summary:
      '发起个人实名认证（姓名+身份证号，服务端调用人脸核验服务；每天最多5次，身份是否已被占用仅在核验通过后告知），返回 certifyId 与 certifyUrl；可选 next（站内路径）：核验后回到认证页时提供「继续购买」',
    access: 'user',
    cacheable: false,
    input: z.object({
      name: realNameSchema,
      idNumber: idNumberSchema,
      /** Where to continue after verification (e.g. the buy page with the chosen package); same-site paths only. */
      next: z.string().max(500).optional(),
    }),
    async handler(ctx, input) {
      const next = safeRedirect(input.next, '');
      return startVerification(ctx.db, providerOf(ctx), await keysOf(ctx), {
        userId: ctx.user.id,
        alreadyVerified: ctx.user.isIdentityAuth,
        name: input.name,
        idNumber: input.idNumber,
        returnUrl: `${ctx.origin}/personalCenter/realNameAuth/auth${next ? `?next=${encodeURIComponent(next)}` : ''}`,
        now: ctx.now,
      });
    },
  }),

  'Auth.CertifyResult': defineAction({
    summary: '查询实名认证结果（服务端向核验服务查询，不接受客户端结论）；通过后绑定身份（一个身份仅限一个账号）',
    access: 'user',
    cacheable: false,
    input: z.object({ certifyId: z.string().trim().min(1).max(64) }),
    async handler(ctx, input) {
      const r = await confirmVerification(ctx.db, providerOf(ctx), {
        userId: ctx.user.id,
        certifyId: input.certifyId,
        now: ctx.now,
      });
      // The account's label after this verification: a company-certified account stays 企业已认证.
      const label = identityLabel({ isIdentityAuth: true, companyAuthState: ctx.user.companyAuthState });
      return { passed: r.passed, name: r.nameMasked, idNumber: r.idMasked, identityLabel: label };
    },
  }),

  'Auth.CompanyImg': defineAction({
    summary: `营业执照图片上传说明与最近一次上传（图片经 POST ${LICENCE_UPLOAD_PATH} 以原始字节上传：JPG/PNG/WEBP，≤5MB，私有存储）`,
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const last = await findLatestLicenceUpload(ctx.db, ctx.user.id);
      return {
        uploadUrl: LICENCE_UPLOAD_PATH,
        maxBytes: MAX_LICENCE_BYTES,
        types: ['image/jpeg', 'image/png', 'image/webp'],
        latest: last ? { id: last.id, mime: last.mime, size: last.size, uploadedAt: last.createdAt } : null,
      };
    },
  }),

  'Company.Add': defineAction({
    summary: '提交企业认证申请（企业名称、统一社会信用代码、法定代表人、营业执照图片），进入审核中（state 4）',
    access: 'user',
    cacheable: false,
    input: z.object({
      companyName: companyNameSchema,
      creditCode: creditCodeSchema,
      legalPerson: legalPersonSchema,
      licenceId: z.number().int().positive(),
      remark: noteSchema.default(''),
    }),
    async handler(ctx, input) {
      await submitCompanyAuth(ctx.db, await keysOf(ctx), {
        userId: ctx.user.id,
        currentState: ctx.user.companyAuthState,
        companyName: input.companyName,
        creditCode: input.creditCode,
        legalPerson: input.legalPerson,
        licenceUploadId: input.licenceId,
        remark: input.remark,
        now: ctx.now,
      });
      return { state: 4, stateText: companyStateText(4) };
    },
  }),

  'Auth.CompanyCertifyResult': defineAction({
    summary: '企业认证申请进度：state（0未提交 1企业已认证 2按个人认证 3已撤销 4审核中 5未通过）、审核备注',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const a = await findLatestCompanyAuth(ctx.db, ctx.user.id);
      const state = a?.state ?? 0;
      return {
        state,
        stateText: companyStateText(state),
        reviewRemark: a?.reviewRemark ?? '',
        userRemark: a?.userRemark ?? '',
        submittedAt: a?.createdAt ?? null,
        reviewedAt: a?.reviewedAt ?? null,
      };
    },
  }),

  'Auth.CompanyAuthResult': defineAction({
    summary: '当前账号的认证信息：个人实名（姓名、身份证号脱敏）与企业认证（企业名称、信用代码脱敏）',
    access: 'user',
    cacheable: false,
    input: z.object({}),
    async handler(ctx) {
      const [identity, company] = await Promise.all([
        findUserIdentity(ctx.db, ctx.user.id),
        findLatestCompanyAuth(ctx.db, ctx.user.id),
      ]);
      return {
        isIdentityAuth: ctx.user.isIdentityAuth,
        identity: identity
          ? { name: identity.nameMasked, idNumber: identity.idMasked, verifiedAt: identity.verifiedAt }
          : null,
        companyAuth: {
          state: ctx.user.companyAuthState,
          stateText: companyStateText(ctx.user.companyAuthState),
          companyName: company?.companyName ?? '',
          creditCode: company ? maskCreditCode(company.creditCode) : '',
          legalPerson: company ? maskName(company.legalPerson) : '',
        },
      };
    },
  }),

  'Auth.remarkCompanyAuth': defineAction({
    summary: '申请人修改审核中企业认证申请的备注（给审核人员的说明）',
    access: 'user',
    cacheable: false,
    input: z.object({ remark: noteSchema }),
    async handler(ctx, input) {
      if (!(await updateUserRemark(ctx.db, ctx.user.id, input.remark))) throw new AppError('companyNotFound');
      return { saved: true };
    },
  }),

  'Auth.CompanyReviewList': defineAction({
    summary: '【运营】待审核的企业认证申请（营业执照图片经 GET /api/upload/company-licence/{licenceId} 查看）',
    access: { operator: ['support'] },
    cacheable: false,
    input: z.object({ state: z.number().int().min(1).max(5).default(4) }),
    async handler(ctx, input) {
      const list = await listCompanyAuthsByState(ctx.db, input.state, 100);
      return { list };
    },
  }),

  'Auth.CompanyReview': defineAction({
    summary:
      '【运营】审核企业认证：approve→1 企业已认证，individual→2 按个人认证，reject→5 未通过，revoke（1→3 撤销）；留审计记录',
    access: { operator: ['support'] },
    cacheable: false,
    input: z.object({
      id: z.number().int().positive(),
      decision: z.enum(['approve', 'individual', 'reject', 'revoke']),
      remark: noteSchema.default(''),
    }),
    async handler(ctx, input) {
      return reviewCompanyAuth(ctx.db, { ...input, actorId: ctx.operator.id, now: ctx.now }, (from, to) => ({
        actor: auditActor(ctx.operator, ctx.ip, ctx.now),
        entry: {
          action: 'Auth.CompanyReview',
          target: `company_auth:${input.id}`,
          before: { state: from },
          after: { state: to, decision: input.decision },
          reason: input.remark,
        },
      }));
    },
  }),
};
