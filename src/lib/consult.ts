// The enterprise consultation input (Company.Consult): one schema with Chinese messages, used by the action.
import { z } from 'zod';
import { CONSULT_LIMITS, CONSULT_SCENARIOS, CONSULT_VOLUMES } from './consult-options';
import { phoneSchema } from './schemas/account';

const text = (label: string, max: number, min = 1) =>
  z
    .string(`请填写${label}`)
    .trim()
    .min(min, `请填写${label}`)
    .max(max, `${label}不能超过${max}个字`)
    .refine((s) => !/[<>]/.test(s), `${label}不能包含尖括号`);

export const consultSchema = z.object({
  company: text('企业名称', CONSULT_LIMITS.company, 2),
  contactName: text('联系人', CONSULT_LIMITS.contactName),
  phone: phoneSchema,
  email: z
    .string()
    .trim()
    .max(CONSULT_LIMITS.email, '邮箱过长')
    .refine((s) => s === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), '请输入正确的邮箱地址')
    .default(''),
  scenario: z.enum(CONSULT_SCENARIOS, '请选择业务场景'),
  monthlyVolume: z.enum(CONSULT_VOLUMES, '请选择预计用量'),
  message: z.string().trim().max(CONSULT_LIMITS.message, `需求描述不能超过${CONSULT_LIMITS.message}个字`).default(''),
});
export type ConsultInput = z.infer<typeof consultSchema>;
