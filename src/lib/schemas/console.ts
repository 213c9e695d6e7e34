// Input schemas shared by the console's actions (each carries its Chinese message).
import { z } from 'zod';
import { messages } from '../messages';
import { ON_OFF } from '../on-off-states';
import { OPERATOR_PASSWORD_MAX, OPERATOR_PASSWORD_MIN, operatorPasswordProblem } from '../operator-password';
import { OPERATOR_ROLES } from '../operator-roles';

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
  .max(OPERATOR_PASSWORD_MAX, `密码最多${OPERATOR_PASSWORD_MAX}位`)
  .superRefine((password, ctx) => {
    const problem = operatorPasswordProblem(password);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const operatorUsernameSchema = z
  .string({ error: '账号为3-32位字母、数字、下划线或点' })
  .trim()
  .regex(/^[A-Za-z0-9_.]{3,32}$/, '账号为3-32位字母、数字、下划线或点');

/** The row an edit names. */
export const editIdSchema = z.number({ error: '请选择要修改的项目' }).int().positive('请选择要修改的项目');
/** A reason that may be left out. */
export const optionalReasonSchema = z.string().trim().max(200, '原因最多200个字').optional();
/** A time (epoch ms) that must be given. */
export const timeSchema = (label: string) =>
  z
    .number({ error: `请填写${label}` })
    .int()
    .min(0, `请填写${label}`);
/** The window and optional reason every campaign and activity editor takes (the domain checks end after start). */
export const windowFields = {
  startsAt: timeSchema('开始时间'),
  endsAt: timeSchema('结束时间'),
  reason: optionalReasonSchema,
};
/** Enable/put on sale (1) or disable/withdraw (2). */
export const onOffStateSchema = z.union([z.literal(ON_OFF.on), z.literal(ON_OFF.off)], { error: '请选择状态' });
