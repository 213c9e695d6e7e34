// Input schemas shared by the console's actions (each carries its Chinese message).
import { z } from 'zod';
import { messages } from '../../lib/messages';
import { OPERATOR_ROLES } from '../../lib/operator-roles';
import { OPERATOR_PASSWORD_MIN } from '../domain/operators-manage';

/** Why an operator does something (kept in the audit log). */
export const reasonSchema = z
  .string({ error: messages.operatorReasonInvalid })
  .trim()
  .min(2, messages.operatorReasonInvalid)
  .max(200, messages.operatorReasonInvalid);

export const userIdSchema = z.number({ error: '请选择用户' }).int().positive('请选择用户');

export const operatorRoleSchema = z.enum(OPERATOR_ROLES, { error: '请选择角色' });

export const operatorPasswordSchema = z
  .string({ error: `密码至少${OPERATOR_PASSWORD_MIN}位` })
  .min(OPERATOR_PASSWORD_MIN, `密码至少${OPERATOR_PASSWORD_MIN}位`)
  .max(128, '密码最多128位');

export const operatorUsernameSchema = z
  .string({ error: '账号为3-32位字母、数字、下划线或点' })
  .trim()
  .regex(/^[A-Za-z0-9_.]{3,32}$/, '账号为3-32位字母、数字、下划线或点');
