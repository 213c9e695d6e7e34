// Red-packet state on the client: the current launch (redInfo), reloaded after login and after logout.
import { atom } from 'jotai';

export interface RedInfo {
  data: {
    id: number;
    title: string;
    description: string;
    ipCount: number;
    validDays: number;
    remaining: number;
    endsAt: number;
    received: boolean;
  } | null;
}

export const redInfoAtom = atom<RedInfo>({ data: null });
