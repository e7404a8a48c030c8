// Turns zod issues into the `errors` list of a validation problem.
import type { z } from 'zod';
import { AppError, type FieldError } from './app-error';

/** RFC 6901 JSON pointer, in URI fragment form as CONTRACT shows it ("#/terms/0"). */
export function jsonPointer(path: readonly PropertyKey[]): string {
  return '#' + path.map((part) => '/' + String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('');
}

/** Where a top-level input member came from, for REST inputs that merge path, query and body. */
export type Locate = (member: string | undefined) => FieldError['in'];

export function fieldErrorsFromIssues(issues: readonly z.core.$ZodIssue[], locate: Locate = () => 'body'): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of issues) {
    // Unknown members are reported one by one, each at its own pointer.
    const members = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of members) {
      const where = locate(path.length ? String(path[0]) : undefined);
      const detail = issue.code === 'unrecognized_keys' ? `Unknown member "${String(path.at(-1))}".` : issue.message;
      errors.push(where === 'body' ? { in: 'body', pointer: jsonPointer(path), detail } : { in: where, name: path.map(String).join('.'), detail });
    }
  }
  return errors;
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
