import express, { type RequestHandler } from 'express';
import { MAX_BODY_BYTES } from '../../store/index.ts';
import { invalidRequest } from './http-error.ts';

/** Parses JSON bodies (strict: objects and arrays only) up to 16 KiB; larger is 413. */
const parseJson: RequestHandler = express.json({ limit: MAX_BODY_BYTES, strict: true });

/**
 * Reads a route's JSON body; a body sent as anything but application/json is refused as
 * malformed. Each route puts this after its rate limits (and its key, which needs only the
 * Authorization header), so every request counts whatever its body (spec 8 rule 2): an
 * unparseable or oversized body is answered 400 or 413 only once it has been counted.
 */
export const readJson: RequestHandler = (req, res, next) => {
  if (!req.is('application/json')) return next(invalidRequest());
  parseJson(req, res, next);
};
