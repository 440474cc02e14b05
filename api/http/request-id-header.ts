import type { Express, Response } from 'express';
import {
  ServerResponse,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
} from 'node:http';
import { closeIfDraining } from './draining.ts';
import type { ObservedRoute } from './request-observer.ts';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id the edge gave this request. */
    id?: string;
  }
  /** What the request observer keeps on a response until it finishes. */
  interface ServerResponse {
    observedPath?: string;
    observedRoute?: ObservedRoute;
    observedAt?: number;
  }
}

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];

/** The last name of a flat header array whose value writeHead fills with the request id. */
export const ID_SLOT = 'X-Request-Id';

/**
 * node's response, except that every answer carries its request id (`req.id`, set by the edge) as
 * `X-Request-Id`, written when its headers are: every answer passes writeHead, express's own
 * included. An answer that hands writeHead all its headers in one object (a map read) gets the id
 * added to that object; a header set any earlier would send node down its slower path of merging
 * headers, on every map read. A flat header array that ends in an `X-Request-Id` slot (a map
 * read's, made once per map) gets the id in that slot: writeHead reads the array at once, so one
 * array serves every read. An answer of a server shutting down also closes its connection
 * (draining.ts). The server makes its responses of this class; the fields are the
 * request observer's, declared here so every response has one shape.
 */
export class IdentifiedResponse extends ServerResponse<IncomingMessage> {
  override observedPath?: string = undefined;
  override observedRoute?: ObservedRoute = undefined;
  override observedAt?: number = 0;

  override writeHead(statusCode: number, reason?: string | Headers, headers?: Headers): this {
    const id = this.req.id;
    const given = typeof reason === 'string' ? headers : reason;
    if (id !== undefined) {
      if (!given) this.setHeader('X-Request-Id', id);
      else if (!Array.isArray(given)) (given as OutgoingHttpHeaders)['X-Request-Id'] = id;
      else if (given[given.length - 2] === ID_SLOT) given[given.length - 1] = id;
      else this.setHeader('X-Request-Id', id);
    }
    closeIfDraining(this);
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
