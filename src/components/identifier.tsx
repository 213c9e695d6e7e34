// An identifier people copy rather than read (a remittance reference, a bank serial, a payment or order number): shown
// as written, in a monospace face, and marked translate="no" so neither a browser's translation nor a reader takes its
// letters for a word of the page (KHWV WDWK is a reference, not English).
export function Identifier({ text, className = 'font-mono' }: { text: string; className?: string }) {
  return (
    <span translate="no" className={className}>
      {text}
    </span>
  );
}
