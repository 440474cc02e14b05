import type { Express, Response } from 'express';
import { ServerResponse, type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';

type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];

/**
 * Every answer carries its request id (`req.id`, set by the edge) as `X-Request-Id`, written when
 * its headers are: every answer passes writeHead, express's own included. An answer that hands
 * writeHead all its headers in one object (a map read) gets the id added to that object; a header
 * set any earlier would send node down its slower path of merging headers, on every map read.
 */
export function writeRequestIds(app: Express): void {
  const writeHead = ServerResponse.prototype.writeHead as (this: Response, ...args: unknown[]) => Response;
  app.response.writeHead = function (
    this: Response,
    statusCode: number,
    reason?: string | Headers,
    headers?: Headers,
  ) {
    const id = this.req.id;
    const given = typeof reason === 'string' ? headers : reason;
    if (id !== undefined) {
      if (given && !Array.isArray(given)) given['X-Request-Id'] = id;
      else this.setHeader('X-Request-Id', id);
    }
    return writeHead.call(this, statusCode, reason, headers);
  } as Response['writeHead'];
}
