'use client';
// Issuing an invoice request from the console: upload the issued invoice's PDF (a raw body to the upload route, which
// checks the role, the PDF magic and the size), then the screen reloads (docs/decisions/230).
import { useState } from 'react';
import { MAX_INVOICE_PDF_BYTES } from '../../../../../lib/invoice-rules';
import { pushToast } from '../../../../../state/toast';

export function InvoicePdfUpload({ uploadUrl }: { uploadUrl: string }) {
  const [busy, setBusy] = useState(false);
  async function onFile(file: File | undefined) {
    if (!file) return;
    if (file.size > MAX_INVOICE_PDF_BYTES) return pushToast('error', '发票文件不能超过5MB');
    setBusy(true);
    const res = await fetch(uploadUrl, {
      method: 'POST',
      body: file,
      headers: { 'content-type': 'application/octet-stream' },
      credentials: 'same-origin',
    });
    const body = (await res.json().catch(() => ({}))) as { P?: unknown; E?: string };
    setBusy(false);
    if (!body.P) return pushToast('error', body.E ?? '上传失败，请重试');
    pushToast('success', '发票已上传，申请已开具');
    window.location.reload();
  }
  return (
    <label className={`btn-primary cursor-pointer ${busy ? 'pointer-events-none opacity-60' : ''}`}>
      {busy ? '上传中…' : '上传发票PDF并开具'}
      <input
        type="file"
        accept="application/pdf,.pdf"
        className="sr-only"
        data-testid="invoice-pdf-input"
        onChange={(e) => onFile(e.target.files?.[0])}
      />
    </label>
  );
}
