// The Mine_Info cookie: the non-secret profile the client and the edge guard read. Authority is always the token.
// Validated by hand rather than with zod: this module is in every page's client bundle.

export const MINE_INFO_COOKIE = 'Mine_Info';
export const TOKEN_COOKIE = 'token';

export interface MineInfoCookie {
  id: number;
  phone: string; // masked
  isIdentityAuth: boolean;
  isCompanyAuth: boolean;
  companyState: number;
}

function isMineInfoCookie(v: unknown): v is MineInfoCookie {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return (
    Number.isSafeInteger(o.id) &&
    (o.id as number) > 0 &&
    typeof o.phone === 'string' &&
    typeof o.isIdentityAuth === 'boolean' &&
    typeof o.isCompanyAuth === 'boolean' &&
    Number.isSafeInteger(o.companyState)
  );
}

/** Serialise for the cookie value (URI-encoded JSON). */
export const encodeMineInfoCookie = (m: MineInfoCookie): string => encodeURIComponent(JSON.stringify(m));

/** Parse a cookie value; null when absent or malformed. */
export function decodeMineInfoCookie(value: string | undefined | null): MineInfoCookie | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(decodeURIComponent(value));
    return isMineInfoCookie(parsed) ? parsed : null;
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

/** The seed's mineInfo payload (User.GetMineInfo, login answers): phone masked; AES key/IV only when the API is open. */
export interface MineInfo {
  id: number;
  phone: string;
  identityLabel: string;
  isIdentityAuth: boolean;
  isCompanyAuth: boolean;
  companyAuth: { state: number };
  proxyApiOpend: boolean;
  proxyApiKey: string | null;
  proxyApiIv: string | null;
  sellerInfo: { sellerPhone: string } | null;
  hasPassword: boolean;
  createdAt: number;
}
