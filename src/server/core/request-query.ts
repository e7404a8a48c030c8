// Query strings, decoded strictly (CONTRACT "Inputs"). URLSearchParams turns a malformed percent-escape into itself and
// percent-encoded bytes that are not UTF-8 into U+FFFD, so a client's `term=%E9t%E9` (Latin-1) would be researched
// as "�t�" and charged. Here either is a validation error naming the parameter.
import { AppError, type FieldError } from '@/server/errors/app-error';

const MALFORMED =
  'Not valid percent-encoded UTF-8: encode the value as UTF-8 and every "%" not starting an escape as %25.';

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part.replaceAll('+', ' '));
  } catch {
    return null;
  }
}

/**
 * The query's parameters as lists of values, in order, without a prototype (a parameter named `__proto__` or
 * `toString` is a parameter like any other). Throws a 400 listing each parameter that cannot be decoded.
 */
export function parseQuery(search: string): Record<string, string[]> {
  const query = Object.create(null) as Record<string, string[]>;
  const errors: FieldError[] = [];
  for (const pair of search.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const rawName = at === -1 ? pair : pair.slice(0, at);
    const name = decode(rawName);
    const value = decode(at === -1 ? '' : pair.slice(at + 1));
    if (name === null || value === null) {
      errors.push({ in: 'query', name: (name ?? rawName).slice(0, 100), detail: MALFORMED });
      continue;
    }
    (query[name] ??= []).push(value);
  }
  if (errors.length)
    throw new AppError(
      'VALIDATION_ERROR',
      errors.length === 1
        ? MALFORMED
        : `The query has ${errors.length} values that are not valid percent-encoded UTF-8.`,
      { errors },
    );
  return query;
}
