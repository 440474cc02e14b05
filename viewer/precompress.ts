// The br and gzip copies of each text the viewer's build (and the API reference page, made once per
// process) sends, at the highest quality: they are made once and sent to every visitor, so the
// slow settings cost nothing at request time.
import { readFile, writeFile } from 'node:fs/promises';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** `body` compressed as brotli and as gzip. */
export function compressText(body: Buffer): { br: Buffer; gz: Buffer } {
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  return { br, gz: gzipSync(body, { level: constants.Z_BEST_COMPRESSION }) };
}

/** Writes `<file>.br` and `<file>.gz` beside the file; returns their sizes in bytes. */
export async function precompress(file: string): Promise<{ identity: number; br: number; gz: number }> {
  const body = await readFile(file);
  const { br, gz } = compressText(body);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
  return { identity: body.length, br: br.length, gz: gz.length };
}
