import express, { type Request, type RequestHandler, type Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_BODY_BYTES } from '../../store/index.ts';
import { invalidRequest } from './http-error.ts';

/**
 * Parses JSON bodies sent as application/json (strict: objects and arrays only) up to 16 KiB;
 * larger is 413. Any other content type is left unread, and `req.body` undefined.
 */
const parseJson: RequestHandler = express.json({ limit: MAX_BODY_BYTES, strict: true });

function viaBodyParser(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  return new Promise((resolve, reject) => {
    parseJson(req as Request, res as Response, (err?: unknown) => {
      const { body } = req as { body?: unknown };
      if (err) reject(err);
      else if (body === undefined) reject(invalidRequest());
      else resolve(body);
    });
  });
}

/** `application/json`, with no parameter but a UTF-8 charset. */
const PLAIN_JSON = /^application\/json[ \t]*(?:;[ \t]*charset[ \t]*=[ \t]*(?:utf-8|"utf-8")[ \t]*)?$/i;

/**
 * A body plugins send: plain UTF-8 application/json of a stated length within the limit, without
 * a content coding. Only these are read here; any other goes to body-parser, which also inflates
 * codings, refuses other charsets (415) and bodies over the limit (413), and reads chunked ones.
 */
function isPlainJson(req: IncomingMessage): boolean {
  const { headers } = req;
  const length = headers['content-length'];
  return (
    length !== undefined &&
    Number(length) <= MAX_BODY_BYTES &&
    headers['transfer-encoding'] === undefined &&
    headers['content-encoding'] === undefined &&
    PLAIN_JSON.test(headers['content-type'] ?? '')
  );
}

/** body-parser's strict JSON: an object or array (empty is `{}`), a leading BOM dropped. */
function parseStrictJson(text: string): unknown {
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = /\S/.exec(json)?.[0];
  if (first === undefined) return {};
  if (first !== '{' && first !== '[') throw invalidRequest();
  try {
    return JSON.parse(json) as unknown;
  } catch {
    throw invalidRequest();
  }
}

function readPlainJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let ended = false;
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => {
      ended = true;
      try {
        const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        resolve(parseStrictJson(bytes.toString('utf8')));
      } catch (err) {
        reject(err);
      }
    });
    // A client gone before its body ended (node stops the stream at the stated length).
    req.once('close', () => {
      if (!ended) reject(invalidRequest());
    });
  });
}

/**
 * A request's JSON body; a body sent as anything but application/json (or none) is refused as
 * malformed. Each route reads it after its rate limits (and its key, which needs only the
 * Authorization header), or counts a request whose body failed all the same, so every request
 * counts whatever its body (spec 8 rule 2). Works on node's request as on express's.
 */
export function readJsonBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  return isPlainJson(req) ? readPlainJson(req) : viaBodyParser(req, res);
}

/** readJsonBody as a route's step: sets `req.body`. */
export const readJson: RequestHandler = (req, res, next) => {
  readJsonBody(req, res).then((body) => {
    req.body = body;
    next();
  }, next);
};
