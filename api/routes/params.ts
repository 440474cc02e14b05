import type { z } from 'zod';
import { SEED_MAX, SEED_MIN, SEEDS_PAGE_DEFAULT, SEEDS_PAGE_MAX } from '../../store/index.ts';
import { readSeed } from '../http/read-answers.ts';
import { SeedParamSchema, SeedsPageLimitSchema } from '../schemas.ts';
import { EXAMPLE_SEED } from './answers.ts';
import type { TextParam } from './route.ts';

// The parameters the table's routes take as text (path segments, query values), each declared
// once: what the document says of it and how its route's pipeline reads it (route.ts TextParam).

/** A reader of text by a schema of text (`decimalText`, schemas.ts): its value, or undefined. */
const byText =
  <T>(schema: z.ZodType<T, string>) =>
  (text: string): T | undefined => {
    const parsed = schema.safeParse(text);
    return parsed.success ? parsed.data : undefined;
  };

/** `{seed}` of /maps and /jobs (4.7, 4.8). */
export const seedParam = {
  description: 'The seed, in decimal',
  minimum: SEED_MIN,
  maximum: SEED_MAX,
  example: EXAMPLE_SEED,
  read: readSeed,
  invalid: 'invalid seed',
} satisfies TextParam<number>;

/** The query of GET /seeds (4.9). */
export const seedPageQuery = {
  cursor: {
    description: '`nextCursor` of the previous page',
    minimum: SEED_MIN,
    maximum: SEED_MAX,
    example: EXAMPLE_SEED,
    read: byText(SeedParamSchema),
    invalid: 'invalid cursor',
  },
  limit: {
    description: 'Items per page',
    minimum: 1,
    maximum: SEEDS_PAGE_MAX,
    default: SEEDS_PAGE_DEFAULT,
    example: 1,
    read: byText(SeedsPageLimitSchema),
  },
} satisfies Record<string, TextParam<number>>;
