// Whole numbers and row ids: the one intIn and the one idSchema every input schema builds on.
import { z } from 'zod';
import { messages } from '../messages';

/** A whole number in [min, max], with one Chinese message for every way it can be wrong. */
export const intIn = (min: number, max: number, message: string = messages.invalidParams) =>
  z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message });

/** A whole number in [min, max] whose message names the field and its range: 数量须为1-1000的整数. */
export const labelledInt = (label: string, min: number, max: number) =>
  intIn(min, max, `${label}须为${min}-${max}的整数`);

/** The id of a stored row (a positive whole number). */
export const idSchema = intIn(1, Number.MAX_SAFE_INTEGER, messages.idInvalid);

/** A number that may also arrive as its text (public reads whose links carry ids and pages as text). */
export const numberOrText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), schema);
