// Input schemas shared by forms and actions: one schema per input, carrying its Chinese message.
import { z } from 'zod';
import { messages } from '../messages';

export const phoneSchema = z
  .string()
  .trim()
  .regex(/^1[3-9]\d{9}$/, messages.phoneInvalid);
export const smsCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, messages.codeInvalidFormat);
/** 8-32 characters with at least one letter and one digit. */
export const passwordSchema = z
  .string()
  .min(8, messages.passwordInvalid)
  .max(32, messages.passwordInvalid)
  .regex(/[A-Za-z]/, messages.passwordInvalid)
  .regex(/\d/, messages.passwordInvalid);
/** Login takes any non-empty password up to 64 chars; strength applies when setting one. */
export const loginPasswordSchema = z.string().min(1, messages.loginFailed).max(64, messages.loginFailed);
export const smsPurposeSchema = z.enum(['login', 'change_phone_old', 'change_phone_new', 'change_pwd']);
export type SmsPurpose = z.infer<typeof smsPurposeSchema>;

// Real name, company, withdrawals and lists.
export const realNameSchema = z
  .string()
  .trim()
  .regex(/^[\u4e00-\u9fa5][\u4e00-\u9fa5·]{0,28}[\u4e00-\u9fa5]$/, messages.nameInvalid);
/** Format only; the checksum and birth date are checked on the server (GB 11643). */
export const idNumberSchema = z
  .string()
  .trim()
  .regex(/^\d{17}[\dXx]$/, messages.idNumberInvalid);
export const companyNameSchema = z
  .string()
  .trim()
  .min(2, messages.companyNameInvalid)
  .max(100, messages.companyNameInvalid);
export const creditCodeSchema = z
  .string()
  .trim()
  .regex(/^[0-9A-Za-z]{18}$/, messages.creditCodeInvalid);
export const legalPersonSchema = z
  .string()
  .trim()
  .min(2, messages.legalPersonInvalid)
  .max(30, messages.legalPersonInvalid);
/** A free-text note on an application or a withdrawal (company review, withdrawal note): at most 200 characters. */
export const noteSchema = z.string().trim().max(200, messages.remarkInvalid);
export const accountNameSchema = z
  .string()
  .trim()
  .min(2, messages.accountNameInvalid)
  .max(30, messages.accountNameInvalid);
/** An Alipay account: a mobile number or an e-mail address. */
export const accountNoSchema = z
  .string()
  .trim()
  .regex(/^(1[3-9]\d{9}|[^\s@]{1,64}@[^\s@]{1,190}\.[A-Za-z]{2,})$/, messages.accountNoInvalid);
/** page and pageSize of the personal centre's lists (pageSize up to 100). */
export const pageInput = {
  page: z.number().int().min(1, '页码错误').default(1),
  pageSize: z.number().int().min(1, '每页数量错误').max(100, '每页最多100条').default(10),
};
export const pageSchema = z.number().int().min(1).max(10_000).default(1);
export const pageSizeSchema = z.number().int().min(1).max(50).default(10);

/** The remark a customer keeps on a package, an IP or a white-list entry: at most 50 characters (the inputs' maxLength). */
export const remarkSchema = z.string().trim().max(50, messages.remarkTooLong);
/** A product type: 10 short-lived dynamic, 40 long-lived static, 30 fixed, 50 enterprise. */
export const productTypeSchema = z.union([z.literal(10), z.literal(40), z.literal(30), z.literal(50)], {
  error: '产品类型必须是 10、40、30 或 50',
});
