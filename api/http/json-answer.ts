import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A JSON answer written straight to node's response, for answers made outside express. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
) {
  // A string body goes out in one write with the headers; a Buffer would take a writev of two.
  const text = JSON.stringify(body);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(status, headers).end(text);
}
