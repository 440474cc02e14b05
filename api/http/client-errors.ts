import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Node answers a request it cannot parse, or one past REQUEST_TIMEOUT_MS, itself, with an empty
 * body. These are the same answers in the spec's `{error}` shape (section 7): a broken request
 * line or header is `invalid request`, a request too slow is 408 `request timeout`.
 */
const ANSWERS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request timeout'],
  HPE_HEADER_OVERFLOW: [431, 'invalid request'],
};

export function clientErrorAnswer(code: string | undefined): Buffer {
  const [status, error] = ANSWERS[code ?? ''] ?? [400, 'invalid request'];
  const body = JSON.stringify({ error });
  return Buffer.from(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Writes that answer, as node would its own, and closes the socket. */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    // Only on a socket with nothing written yet: a response already begun cannot take another.
    if (socket.writable && socket.bytesWritten === 0) socket.write(clientErrorAnswer(err.code));
    socket.destroy();
  });
}
