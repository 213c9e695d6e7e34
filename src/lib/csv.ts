// CSV for downloads opened in Excel: one way to quote a cell and to build a document (UTF-8 BOM, CRLF lines).

/** A cell as CSV: quoted when needed; a leading = + - @ (a spreadsheet formula) is prefixed so it stays text. */
export const csvCell = (v: unknown): string => {
  const s = v === null || v === undefined ? '' : String(v);
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** A whole CSV document: header and rows, CRLF line ends, with a UTF-8 byte order mark for Excel. */
export const csvDocument = (header: string[], rows: unknown[][]): string =>
  `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
