// The brand mark and name.
import { SITE } from '../lib/site';

export function Logo({ light = false, compact = false }: { light?: boolean; compact?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <svg viewBox="0 0 32 32" className="h-8 w-8 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#1d54f5" />
        <path d="M9 21.5 16 8l7 13.5h-4.2L16 15.8l-2.8 5.7z" fill="#fff" />
        <circle cx="16" cy="23.5" r="1.8" fill="#8ebdff" />
      </svg>
      {!compact && <span className={`text-lg font-bold tracking-wide ${light ? 'text-white' : ''}`}>{SITE.name}</span>}
    </span>
  );
}
