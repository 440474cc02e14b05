// The OpenAPI 3.1 document as openapi.ts builds it and its readers (the /docs page, the contract
// tests) read it: the one statement of its shape.

/** A JSON Schema as the document writes it (draft 2020-12, `$ref`s into components.schemas). */
export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: SchemaObject | boolean;
  propertyNames?: SchemaObject;
  items?: SchemaObject;
  prefixItems?: SchemaObject[];
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  allOf?: SchemaObject[];
}

export interface ParameterObject {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description: string;
  schema: SchemaObject;
  example: unknown;
}

export interface HeaderObject {
  description: string;
  required: boolean;
  schema: SchemaObject;
}

/** One documented answer of an operation (a route's Answer, routes/route.ts, as written here). */
export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: { 'application/json': { schema: SchemaObject; example?: unknown } };
}

export interface OperationObject {
  operationId: string;
  tags: string[];
  summary: string;
  /** The route's limits (spec 8), in words: `Limits (spec 8): …`. */
  description?: string;
  security: Record<string, string[]>[];
  parameters: ParameterObject[];
  requestBody?: {
    required: true;
    content: { 'application/json': { schema: SchemaObject; example: unknown } };
  };
  responses: Record<string, ResponseObject>;
}

/** A path's operations by method; `servers` for a path served at the root (the probes). */
export interface PathItem {
  servers?: { url: string }[];
  get?: OperationObject;
  post?: OperationObject;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  components: {
    securitySchemes: Record<string, { type: 'http'; scheme: 'bearer'; description: string }>;
    schemas: Record<string, SchemaObject>;
  };
  paths: Record<string, PathItem>;
}
