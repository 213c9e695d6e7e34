// Session state on the client: the user's own info (mineInfo) as the server last reported it.
import { atom } from 'jotai';

export interface ClientMineInfo {
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

export const mineInfoAtom = atom<ClientMineInfo | null>(null);
export const isLoggedInAtom = atom((get) => get(mineInfoAtom) !== null);
