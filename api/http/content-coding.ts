import accepts from 'accepts';
import type { IncomingMessage } from 'node:http';

export type MapCoding = 'br' | 'gzip' | null;

// Clients send a handful of distinct Accept-Encoding values, so each one's answer is negotiated
// once (negotiator parses, sorts and allocates on every call) and kept; the table is bounded so a
// client inventing values cannot grow it.
const negotiated = new Map<string, MapCoding>();
const NEGOTIATED_MAX = 256;

/** The content coding a map is sent in: br, else gzip, else none (identity), per Accept-Encoding. */
export function mapCoding(req: IncomingMessage): MapCoding {
  const header = req.headers['accept-encoding'] ?? '';
  let coding = negotiated.get(header);
  if (coding === undefined) {
    const accepted = accepts(req).encodings(['br', 'gzip']);
    coding = accepted === 'br' || accepted === 'gzip' ? accepted : null;
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(header, coding);
  }
  return coding;
}
