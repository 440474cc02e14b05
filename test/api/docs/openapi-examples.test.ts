// The examples the OpenAPI document carries (and GET /docs shows): every operation has a request
// and a response example, and each example passes the JSON Schema it stands next to, read back
// from the document the way a client's tooling reads it (components resolved).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { documentOperations, openApiDocument } from '../../../api/openapi.ts';
import { inlineRefs } from '../../support/openapi-refs.ts';

type JsonSchema = Parameters<typeof z.fromJSONSchema>[0];
type Media = { schema: JsonSchema; example?: unknown };
interface Operation {
  parameters: { in: string; example?: unknown }[];
  requestBody?: { content: { 'application/json': Media } };
  responses: Record<string, { content?: { 'application/json': Media } }>;
}

const doc = openApiDocument('/api');
const operations = documentOperations(doc).map(({ method, path, op }) => ({
  what: `${method.toUpperCase()} ${path}`,
  op: op as Operation,
}));

describe('examples in the OpenAPI document', () => {
  it.each(operations)('$what has a request and a response example', ({ op }) => {
    const body = op.requestBody?.content['application/json'];
    if (body) expect(body.example).toBeDefined();
    for (const p of op.parameters) expect(p.example, p.in).toBeDefined();
    const examples = Object.values(op.responses).filter((a) => a.content?.['application/json'].example);
    expect(examples.length).toBeGreaterThan(0);
  });

  it.each(operations)('$what examples pass their JSON Schemas', ({ op }) => {
    const media = [
      op.requestBody?.content['application/json'],
      ...Object.values(op.responses).map((a) => a.content?.['application/json']),
    ].filter((m): m is Media => m?.example !== undefined);
    for (const { schema, example } of media) {
      const parsed = z.fromJSONSchema(inlineRefs(doc, schema)).safeParse(example);
      expect(parsed.success, `${JSON.stringify(example).slice(0, 200)}: ${parsed.error?.message}`).toBe(true);
    }
  });
});
