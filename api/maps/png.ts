import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';

// A PNG writer for the preview's pixels. Skia's own encoder (@napi-rs/canvas's encode) filters
// every row and compresses hard: about 60 ms of CPU for a 1200×630 map, three quarters of the
// preview's cost (bench section 6). A map is large flat areas, which unfiltered rows at zlib level 3
// pack to within 5 % of Skia's size in an eighth of the time, on libuv's threads.

const deflateAsync = promisify(deflate);
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const LEVEL = 3;

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * PNG bytes of `width`×`height` pixels, RGBA 8 bits a channel, rows top to bottom. The pixels must
 * be opaque: Canvas 2D stores them premultiplied, which equals straight alpha only there.
 */
export async function encodePng(rgba: Buffer, width: number, height: number): Promise<Buffer> {
  const stride = width * 4;
  const raw = Buffer.allocUnsafe((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    raw[at] = 0; // the row's filter: none
    rgba.copy(raw, at + 1, y * stride, (y + 1) * stride);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, adaptive filtering, no interlace
  const idat = await deflateAsync(raw, { level: LEVEL });
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}
