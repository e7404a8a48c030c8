// One JSON text per JSON value, whatever the order its object members came in: what makes two requests the same for
// an Idempotency-Key, and one cache key for the same tool arguments (issue 63: there were two, one of them shallow).

/** JSON as JSON.stringify writes it, with every object's members in code-point order of their names, at any depth. */
export function canonicalJson(value: unknown): string {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  }
  if (Array.isArray(value)) return `[${value.map((item) => (skipped(item) ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, member]) => !skipped(member))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}
