// Red-packet state on the client: the current launch (redInfo), reloaded after login and after logout.
import { atom } from 'jotai';
import type { ActionOutput } from '../lib/api-core';

/** RedLaunch.GetRedLaunch: the current launch, or data null when there is none. */
export type RedInfo = ActionOutput<'RedLaunch.GetRedLaunch'>;

export const redInfoAtom = atom<RedInfo>({ data: null });
