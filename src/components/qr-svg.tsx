// A QR code rendered on the server as inline SVG (no client JavaScript).
import QRCode from 'qrcode';

export async function QrSvg({ text, size = 112, label }: { text: string; size?: number; label: string }) {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M', width: size });
  return (
    <span
      role="img"
      aria-label={label}
      className="inline-block overflow-hidden rounded-lg bg-white p-1"
      style={{ width: size, height: size }}
      // The SVG comes from the qrcode library for a fixed string of ours, never from user input.
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
