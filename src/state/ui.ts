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
export const showRealNamePromptAtom = atom(false);
// The seed's narrow-screen flag (below 1366 px) is not kept: no component adapts to it, and the fluid root font size
// and CSS breakpoints cover that range (docs/decisions/052).
