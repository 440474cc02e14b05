import type { OpenApiDocument, SchemaObject } from '../openapi-types.ts';
import { code, escape, inline } from './html.ts';

/** How deep nested fields are listed (`a.b.c.d`). */
const DEPTH_MAX = 3;

/**
 * Reads the JSON Schemas of one document for people: a field's type and constraints in words,
 * one row per field (nested fields as `parent.child` and `list[].child`), the error strings an
 * answer may carry. `$ref`s are resolved into the document's components.
 */
export class SchemaReader {
  readonly #components: Record<string, SchemaObject>;

  constructor(document: OpenApiDocument) {
    this.#components = document.components.schemas;
  }

  #refName(schema: SchemaObject): string | undefined {
    return schema.$ref?.replace('#/components/schemas/', '');
  }

  #resolve(schema: SchemaObject): SchemaObject {
    let s = schema;
    for (let hops = 0; s.$ref && hops < 10; hops++) s = this.#components[this.#refName(s)!] ?? {};
    return s;
  }

  /** The alternatives of a union, null left out; `nullable` when null is one of them. */
  #alternatives(schema: SchemaObject) {
    const s = this.#resolve(schema);
    const all = (s.anyOf ?? s.oneOf ?? [s]).map((alt) => ({ alt, resolved: this.#resolve(alt) }));
    const nonNull = all.filter(({ resolved }) => resolved.type !== 'null');
    return { nonNull, nullable: nonNull.length < all.length };
  }

  typeOf(schema: SchemaObject): string {
    const { nonNull, nullable } = this.#alternatives(schema);
    const types = nonNull.map(({ alt, resolved }) => {
      const name = this.#refName(alt);
      if (name && resolved.type === 'object') return name;
      if (resolved.type === 'array')
        return `array of ${resolved.items ? this.typeOf(resolved.items) : 'any'}`;
      if (resolved.const !== undefined) return typeof resolved.const;
      const type = Array.isArray(resolved.type) ? resolved.type.join(' or ') : (resolved.type ?? 'any');
      return resolved.format ? `${type} (${resolved.format})` : type;
    });
    return [...new Set(types)].join(' or ') + (nullable ? ' or null' : '');
  }

  constraints(schema: SchemaObject): string[] {
    return this.#alternatives(schema).nonNull.flatMap(({ resolved }) => constraintsOf(resolved));
  }

  /** The object shapes a schema may take (a union's alternatives), each with its fields. */
  #objectsOf(schema: SchemaObject): SchemaObject[] {
    return this.#alternatives(schema)
      .nonNull.map(({ resolved }) => resolved)
      .filter((s) => s.type === 'object' && s.properties);
  }

  /** One row per field (name, type, required, constraints), nested fields after their parent. */
  fieldRows(schema: SchemaObject, prefix = '', depth = 0): string[][] {
    const objects = this.#objectsOf(schema);
    return objects.flatMap((object, i) => [
      ...(objects.length > 1 && prefix === ''
        ? [[`<em>or, shape ${i + 1} of ${objects.length}:</em>`, '', '', '']]
        : []),
      ...Object.entries(object.properties ?? {}).flatMap(([name, field]) =>
        this.#fieldAndNested(`${prefix}${name}`, field, object.required?.includes(name) ?? false, depth),
      ),
    ]);
  }

  #fieldAndNested(path: string, field: SchemaObject, required: boolean, depth: number): string[][] {
    const row = [
      escape(path),
      escape(this.typeOf(field)),
      required ? 'yes' : 'no',
      this.constraints(field).join('; '),
    ];
    if (depth >= DEPTH_MAX) return [row];
    const nested = this.#alternatives(field).nonNull.flatMap(({ resolved }) => [
      ...(resolved.type === 'object' ? this.fieldRows(resolved, `${path}.`, depth + 1) : []),
      ...(resolved.type === 'array' && resolved.items
        ? this.fieldRows(resolved.items, `${path}[].`, depth + 1)
        : []),
    ]);
    return [row, ...nested];
  }

  /** The error strings an answer's schema allows, per shape. */
  errorStrings(schema: SchemaObject): string[] {
    return this.#objectsOf(schema).flatMap((object) => {
      const error = object.properties?.error ? this.#resolve(object.properties.error) : undefined;
      if (!error) return [];
      return (error.enum ?? (error.const === undefined ? [] : [error.const])).map(String);
    });
  }
}

/** One schema's own constraints, in words. */
function constraintsOf(s: SchemaObject): string[] {
  const out: string[] = [];
  if (s.const !== undefined) out.push(`always ${code(JSON.stringify(s.const))}`);
  if (s.enum) out.push(`one of ${s.enum.map((v) => code(String(v))).join(', ')}`);
  const min = s.minimum ?? (s.exclusiveMinimum === undefined ? undefined : `> ${s.exclusiveMinimum}`);
  if (min !== undefined || s.maximum !== undefined)
    out.push(s.maximum === undefined ? `≥ ${min}` : `${min ?? '…'}..${s.maximum}`);
  if (s.minLength !== undefined || s.maxLength !== undefined)
    out.push(`${s.minLength ?? 0}..${s.maxLength ?? '…'} characters`);
  if (s.minItems !== undefined || s.maxItems !== undefined)
    out.push(`${s.minItems ?? 0}..${s.maxItems ?? '…'} items`);
  if (s.default !== undefined) out.push(`default ${code(JSON.stringify(s.default))}`);
  if (s.description) out.push(inline(s.description));
  return out;
}
