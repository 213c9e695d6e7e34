'use client';
// The one dialog, loaded the first time it opens (the home-page JavaScript budget). For the header's dialogs that most
// visits never open (notices, red packet, real-name prompt): same props and behaviour as Dialog once loaded.
import { lazy, Suspense, useRef } from 'react';
import type { DialogProps } from './dialog';

const Loaded = lazy(() => import('./dialog').then((m) => ({ default: m.Dialog })));

export function LazyDialog(props: DialogProps) {
  const opened = useRef(false);
  if (props.open) opened.current = true;
  if (!opened.current) return null;
  return (
    <Suspense fallback={null}>
      <Loaded {...props} />
    </Suspense>
  );
}
