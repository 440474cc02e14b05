import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A JSON answer written straight to node's response, for answers made outside express. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
) {
  const bytes = Buffer.from(JSON.stringify(body));
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = bytes.length;
  res.writeHead(status, headers).end(bytes);
}
