// Schemas shared by several resources, including the query parameters of CONTRACT "Inputs".
import { z } from 'zod';
import { storefrontInput } from '@/server/domain/countries';

export const isoDateTime = z.iso
  .datetime({ offset: false })
  .meta({ description: 'ISO 8601 instant, UTC.', example: '2026-11-21T09:30:00.000Z' });
export const isoDate = z.iso.date().meta({ description: 'UTC calendar day, YYYY-MM-DD.', example: '2026-11-21' });

export const appIdParam = z
  .uuid('Must be a UUID.')
  .meta({ description: 'Tracked app id (UUID).', example: '0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11' });
/** The `country` query parameter of the app endpoints: a storefront, defaulting to the app's primary country. */
export const countryQuery = storefrontInput(
  'Storefront; default the app’s primary storefront. Any storefront answers from the first call: one the app was never observed in is observed during this call, through the store (it may take the store’s time, a few seconds), and the app is tracked there from then on; 503 store-unavailable when the store fails (nothing charged; call again), 404 when the store does not sell the app there, 403 limit-reached past the plan’s storefronts per app.',
).optional();

/** A store page address in a request body: an app to track, or a competitor. */
export function storeUrlInput(missing: string) {
  return z
    .string(missing)
    .max(2048)
    .meta({
      description:
        'A store page address: `https://apps.apple.com/<country>/app/<name>/id<digits>` (the `<name>` segment may be left out; `<country>` is a storefront code) or `https://play.google.com/store/apps/details?id=<package>` (other query parameters are ignored).',
      examples: [
        'https://apps.apple.com/us/app/calm/id571800810',
        'https://play.google.com/store/apps/details?id=com.calm.android',
      ],
    });
}

export const keywordIdParam = z.uuid('Must be a UUID.').meta({
  description: 'Tracked keyword id (UUID), as listed by GET /apps/{id}/keywords.',
  example: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
});

/**
 * A decimal integer query parameter. Query values are strings; `1e2`, `0x10`, `1.5`, ` 7` and the empty string
 * are refused rather than coerced (the library's own coercion would accept them). Dashboard and in-process
 * callers may pass numbers.
 */
interface QueryIntOptions {
  min: number;
  /** Every integer parameter has one bound each way, the same in the document, the check and the message. */
  max: number;
  description: string;
}

function integerFromQuery(options: QueryIntOptions, fallback?: number) {
  const message = `Must be a whole number from ${options.min} to ${options.max}.`;
  const integer = z.int(message).min(options.min, message).max(options.max, message);
  // Digits only (no sign, exponent, point or space), no more of them than the bound has: a longer value is refused
  // with the same message, and never reaches a number too large to be exact.
  const digits = new RegExp(`^[0-9]{1,${String(options.max).length}}$`);
  const schema = z
    .union([z.string(message).regex(digits, message).transform(Number), z.number(message)], message)
    .pipe(integer);
  const description = `${options.description} ${message}${fallback === undefined ? '' : ` Default ${fallback}.`}`;
  // Documented as what it is on the wire and in answers: an integer with its bounds (the string branch of the
  // union is how a query value arrives, not a second accepted type).
  const documented = {
    type: 'integer' as const,
    format: 'int32',
    minimum: options.min,
    maximum: options.max,
    ...(fallback === undefined ? {} : { default: fallback }),
    example: fallback ?? options.min,
  };
  const meta = {
    description,
    override: ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
      delete jsonSchema.anyOf;
      Object.assign(jsonSchema, documented, { description });
    },
  };
  return { schema, meta };
}

/**
 * A decimal integer query parameter. Query values are strings; `1e2`, `0x10`, `1.5`, ` 7` and the empty string
 * are refused rather than coerced (the library's own coercion would accept them). Dashboard and in-process
 * callers may pass numbers.
 */
export function queryInt(options: QueryIntOptions) {
  const { schema, meta } = integerFromQuery(options);
  return schema.meta(meta).optional();
}

/** queryInt with a default when the parameter is absent. */
export function queryIntWithDefault(options: QueryIntOptions & { default: number }) {
  const { schema, meta } = integerFromQuery(options, options.default);
  return schema
    .optional()
    .transform((value) => value ?? options.default)
    .meta(meta);
}

/** An enumerated query parameter with a default. */
export function queryEnum<const T extends readonly [string, ...string[]]>(
  values: T,
  fallback: T[number],
  description: string,
) {
  return z
    .enum(values, `Must be one of: ${values.join(', ')}.`)
    .optional()
    .transform((value) => value ?? fallback)
    .meta({
      description: `${description} One of ${values.join(', ')}; default ${fallback}.`,
      override: { type: 'string' as const, enum: [...values], default: fallback },
    });
}
