import type { Express, Response } from 'express';
import {
  ServerResponse,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
} from 'node:http';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id the edge gave this request. */
    id?: string;
  }
}

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];

/**
 * node's response, except that every answer carries its request id (`req.id`, set by the edge) as
 * `X-Request-Id`, written when its headers are: every answer passes writeHead, express's own
 * included. An answer that hands writeHead all its headers in one object (a map read) gets the id
 * added to that object; a header set any earlier would send node down its slower path of merging
 * headers, on every map read. The server makes its responses of this class.
 */
export class IdentifiedResponse extends ServerResponse<IncomingMessage> {
  override writeHead(statusCode: number, reason?: string | Headers, headers?: Headers): this {
    const id = this.req.id;
    const given = typeof reason === 'string' ? headers : reason;
    if (id !== undefined) {
      if (given && !Array.isArray(given)) (given as OutgoingHttpHeaders)['X-Request-Id'] = id;
      else this.setHeader('X-Request-Id', id);
    }
    return super.writeHead(statusCode, reason as string, headers);
  }
}

/**
 * express gives every response it handles the prototype `app.response` (express's methods over
 * node's ServerResponse): the same writeHead there keeps the request id on express's answers.
 */
export function identifyResponses(app: Express): void {
  app.response.writeHead = IdentifiedResponse.prototype.writeHead as Response['writeHead'];
}
