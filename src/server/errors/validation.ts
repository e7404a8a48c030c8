// Turns zod issues into the `errors` list of a validation problem.
import type { z } from 'zod';
import { AppError, type FieldError } from './app-error';

/** RFC 6901 JSON pointer, in URI fragment form as CONTRACT shows it ("#/terms/0"). */
function jsonPointer(path: readonly PropertyKey[]): string {
  return '#' + path.map((part) => '/' + String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}

/** Where a top-level input member came from, for REST inputs that merge path, query and body. */
export type Locate = (member: string | undefined) => FieldError['in'];

export function fieldErrorsFromIssues(
  issues: readonly z.core.$ZodIssue[],
  locate: Locate = () => 'body',
): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    // Unknown members are reported one by one, each at its own pointer.
    const members = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of members) {
      const where = locate(path.length ? String(path[0]) : undefined);
      const detail = issue.code === 'unrecognized_keys' ? `Unknown member "${String(path.at(-1))}".` : issue.message;
      errors.push(
        where === 'body'
          ? { in: 'body', pointer: jsonPointer(path), detail }
          : { in: where, name: path.map(String).join('.'), detail },
      );
    }
  }
  return errors;
}

/**
 * Text that PostgreSQL cannot store (U+0000) or UTF-8 cannot encode (an unpaired surrogate, which JSON's `\uD800`
 * escapes can make). Found anywhere in a parsed input, it is refused as invalid rather than failing at the database.
 */
const UNREPRESENTABLE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const UNREPRESENTABLE_TEXT_DETAIL =
  'Text cannot contain NUL (U+0000) or an unpaired UTF-16 surrogate (U+D800 to U+DFFF).';

/** Every string in `value` (walked without recursion: JSON nests deeper than the stack) that cannot be stored. */
export function unrepresentableTextIssues(value: unknown): z.core.$ZodIssue[] {
  interface Visit {
    item: unknown;
    key?: PropertyKey;
    parent?: Visit;
  }
  const pathOf = (visit: Visit): PropertyKey[] => {
    const path: PropertyKey[] = [];
    for (let at: Visit | undefined = visit; at?.parent; at = at.parent) path.unshift(at.key!);
    return path;
  };
  const issues: z.core.$ZodIssue[] = [];
  const pending: Visit[] = [{ item: value }];
  while (pending.length) {
    const visit = pending.pop()!;
    const { item } = visit;
    if (typeof item === 'string') {
      if (UNREPRESENTABLE_TEXT.test(item))
        issues.push({ code: 'custom', path: pathOf(visit), message: UNREPRESENTABLE_TEXT_DETAIL, input: item });
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--)
        pending.push({ item: item[index], key: index, parent: visit });
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, member] of Object.entries(item).reverse()) pending.push({ item: member, key, parent: visit });
    }
  }
  return issues;
}

export function validationError(errors: FieldError[]): AppError {
  const detail = errors.length === 1 ? errors[0]!.detail : `The request has ${errors.length} invalid values.`;
  return new AppError('VALIDATION_ERROR', detail, { errors });
}

/** Validates at a service boundary (CLI and dashboard call services directly). */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(fieldErrorsFromIssues(result.error.issues));
  return result.data;
}
