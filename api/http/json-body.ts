import express, { type RequestHandler } from 'express';
import { MAX_BODY_BYTES } from '../../store/index.ts';
import { invalidRequest } from './http-error.ts';

/** Parses JSON bodies (strict: objects and arrays only) up to 16 KiB; larger is 413. */
export const jsonBody: RequestHandler = express.json({ limit: MAX_BODY_BYTES, strict: true });

/** JSON only: a body sent as anything but application/json is refused as malformed. */
export const requireJson: RequestHandler = (req, _res, next) => {
  if (!req.is('application/json')) return next(invalidRequest());
  next();
};
