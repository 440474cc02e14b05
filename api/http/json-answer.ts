import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** A JSON answer written straight to node's response, for answers made outside express. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: OutgoingHttpHeaders = {},
) {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** The same with the JSON written already (an answer made once, sent many times). */
export function sendJsonText(
  res: ServerResponse,
  status: number,
  text: string,
  headers: OutgoingHttpHeaders,
) {
  // A string body goes out in one write with the headers; a Buffer would take a writev of two.
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(status, headers).end(text);
}
