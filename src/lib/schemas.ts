// Input schemas shared by forms and actions: one schema per input, carrying its Chinese message.
import { z } from 'zod';
import { messages } from './messages';

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
