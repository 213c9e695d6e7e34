'use client';
// The drawers' focus rule, shared by the menu drawer and the lazily loaded account drawer.
import { type RefObject, useEffect, useRef } from 'react';

/**
 * While a drawer is open: focus its close button, close it on Esc, and when it closes give the focus back to the
 * button that opened it.
 */
export function useDrawerFocus(
  open: boolean,
  close: () => void,
  opener: RefObject<HTMLElement | null>,
  firstFocus: RefObject<HTMLElement | null>,
) {
  const closeRef = useRef(close);
  closeRef.current = close;
  useEffect(() => {
    if (!open) return;
    const back = opener.current;
    firstFocus.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      back?.focus();
    };
  }, [open, opener, firstFocus]);
}
