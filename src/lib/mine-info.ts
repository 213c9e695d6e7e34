// The Mine_Info cookie: the non-secret profile the client and the edge guard read. Authority is always the token.
import { z } from 'zod';

export const MINE_INFO_COOKIE = 'Mine_Info';
export const TOKEN_COOKIE = 'token';

export const mineInfoCookieSchema = z.object({
  id: z.number().int().positive(),
  phone: z.string(), // masked
  isIdentityAuth: z.boolean(),
  isCompanyAuth: z.boolean(),
  companyState: z.number().int(),
});

export type MineInfoCookie = z.infer<typeof mineInfoCookieSchema>;

/** Serialise for the cookie value (URI-encoded JSON). */
export const encodeMineInfoCookie = (m: MineInfoCookie): string => encodeURIComponent(JSON.stringify(m));

/** Parse a cookie value; null when absent or malformed. */
export function decodeMineInfoCookie(value: string | undefined | null): MineInfoCookie | null {
  if (!value) return null;
  try {
    const parsed = mineInfoCookieSchema.safeParse(JSON.parse(decodeURIComponent(value)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Read one cookie from a Cookie header. */
export function readCookie(header: string | null | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
