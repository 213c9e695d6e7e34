// Shell UI state: mobile drawers, the account dropdown, the personal-centre menu collapse and real-name prompt.
import { atom } from 'jotai';

export const mobileMenuOpenAtom = atom(false);
export const accountDrawerOpenAtom = atom(false);
export const accountPanelOpenAtom = atom(false);
/** Any open menu keeps the header opaque on home-like pages. */
export const anyMenuOpenAtom = atom(
  (get) => get(mobileMenuOpenAtom) || get(accountDrawerOpenAtom) || get(accountPanelOpenAtom),
);
export const pcMenuCollapsedAtom = atom(false);
export const breadcrumbAtom = atom<string[]>([]);
export const showRealNamePromptAtom = atom(false);
/** Desktop is wider than 768 px (seed section 9). */
export const DESKTOP_MIN_WIDTH = 769;
// The seed's narrow-screen flag (below 1366 px) is not kept: no component adapts to it, and the fluid root font size
// and CSS breakpoints cover that range (docs/decisions/052).
