// Session state on the client: the user's own info (mineInfo) as the server last reported it.
import { atom } from 'jotai';
import type { MineInfo } from '../lib/mine-info';

export type ClientMineInfo = MineInfo;

export const mineInfoAtom = atom<ClientMineInfo | null>(null);
