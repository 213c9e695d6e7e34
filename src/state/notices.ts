// Notice state on the client: the unread count shown as the header badge.
import { atom } from 'jotai';

export const unreadNoticeCountAtom = atom(0);
