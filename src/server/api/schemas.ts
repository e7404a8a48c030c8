// Schemas shared by several resources, including the query parameters of CONTRACT "Inputs".
import { z } from 'zod';

export const isoDateTime = z.iso.datetime({ offset: false }).meta({ description: 'ISO 8601 instant, UTC.', example: '2026-11-21T09:30:00.000Z' });
export const isoDate = z.iso.date().meta({ description: 'UTC calendar day, YYYY-MM-DD.', example: '2026-11-21' });

export const appIdParam = z.uuid('Must be a UUID.').meta({ description: 'Tracked app id (UUID).', example: '0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11' });
export const keywordIdParam = z.uuid('Must be a UUID.').meta({ description: 'Tracked keyword id (UUID), as listed by GET /apps/{id}/keywords.' });

/**
 * A decimal integer query parameter. Query values are strings; `1e2`, `0x10`, `1.5`, ` 7` and the empty string
 * are refused rather than coerced (the library's own coercion would accept them).
 */
interface QueryIntOptions {
  min: number;
  max?: number;
  default?: number;
  description: string;
}
export function queryInt(options: QueryIntOptions & { default: number }): z.ZodType<number, string | undefined>;
export function queryInt(options: QueryIntOptions & { default?: undefined }): z.ZodType<number | undefined, string | undefined>;
export function queryInt(options: QueryIntOptions): z.ZodType<number | undefined, string | undefined> {
  const range = options.max === undefined ? `at least ${options.min}` : `from ${options.min} to ${options.max}`;
  const message = `Must be a whole number ${range}.`;
  let integer = z.int(message).min(options.min, message);
  if (options.max !== undefined) integer = integer.max(options.max, message);
  const schema = z
    .string()
    .regex(/^[0-9]{1,9}$/, message)
    .transform(Number)
    .pipe(integer);
  const documented = {
    description: `${options.description} ${message}${options.default === undefined ? '' : ` Default ${options.default}.`}`,
    override: {
      type: 'integer' as const,
      format: 'int32',
      minimum: options.min,
      ...(options.max === undefined ? {} : { maximum: options.max }),
      ...(options.default === undefined ? {} : { default: options.default }),
    },
  };
  return options.default === undefined
    ? schema.optional().meta(documented)
    : schema.optional().transform((value) => value ?? options.default!).meta(documented);
}

/** An enumerated query parameter with a default. */
export function queryEnum<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number], description: string) {
  return z
    .enum(values, `Must be one of: ${values.join(', ')}.`)
    .optional()
    .transform((value) => value ?? fallback)
    .meta({ description: `${description} One of ${values.join(', ')}; default ${fallback}.`, override: { type: 'string' as const, enum: [...values], default: fallback } });
}
