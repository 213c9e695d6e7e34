// Save text the server built (a CSV download) as a file in the browser, with no page change.

/** Offer `text` as a file named `filename` (UTF-8; a CSV keeps its byte order mark for Excel). */
export function saveTextFile(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  URL.revokeObjectURL(url);
}
