import type { z } from 'zod';

type JsonSchema = Parameters<typeof z.fromJSONSchema>[0];

/**
 * A schema of an OpenAPI document with each `$ref` to one of its components replaced by the
 * component, as a client's tooling resolves it (z.fromJSONSchema reads no components).
 */
export function inlineRefs(
  doc: { components: { schemas: Record<string, unknown> } },
  schema: unknown,
): JsonSchema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value !== 'object' || value === null) return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const component = doc.components.schemas[ref.replace('#/components/schemas/', '')];
      if (component === undefined) throw new Error(`${ref} is not in the document's components`);
      return walk(component);
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
  };
  return walk(schema) as JsonSchema;
}
