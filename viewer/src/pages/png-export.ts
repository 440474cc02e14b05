import { BACKGROUND } from '../map/palette.ts';

/** Save the canvas as a PNG with a caption strip below it (seed, floor), as shown on screen. */
export function downloadPng(canvas: HTMLCanvasElement, caption: string, fileName: string): void {
  const dpr = canvas.width / Math.max(1, canvas.clientWidth);
  const strip = Math.round(28 * dpr);
  const out = document.createElement('canvas');
  out.width = canvas.width;
  out.height = canvas.height + strip;
  const ctx = out.getContext('2d');
  if (!ctx) return;
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(canvas, 0, 0);
  ctx.fillStyle = '#e8eaed';
  ctx.font = `${Math.round(13 * dpr)}px system-ui, sans-serif`;
  ctx.textBaseline = 'middle';
  ctx.fillText(caption, Math.round(10 * dpr), canvas.height + strip / 2);
  out.toBlob((blob) => {
    if (!blob) return;
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = fileName;
    document.body.appendChild(a);
    a.click();
    a.remove();
    // Revoke later: some browsers start the download asynchronously.
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }, 'image/png');
}
