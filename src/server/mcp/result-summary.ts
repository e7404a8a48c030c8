// A tool result's text: a short summary beside its structured content, not the same JSON a second time. An agent
// reads the structured content for the values; the text says what came back, in a few lines, for a client that shows
// it or a model that skims it.

/** Items a list's summary names, and members an object's summary names, at most. */
const LISTED_ITEMS = 5;
const LISTED_MEMBERS = 8;
/** Members that name an item, in the order a summary prefers them. */
const NAMING_MEMBERS = ['name', 'term', 'title', 'id', 'date', 'field'];

type Json = Record<string, unknown>;

function scalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function shown(value: string | number | boolean | null): string {
  if (typeof value !== 'string') return String(value);
  return value.length > 60 ? `${value.slice(0, 59)}…` : value;
}

/** An item in one line: its name first, then a few of its other scalar members. */
function itemLine(item: unknown): string {
  if (!item || typeof item !== 'object') return shown(scalar(item) ? item : JSON.stringify(item));
  const entries = Object.entries(item as Json).filter(([, value]) => scalar(value)) as [
    string,
    string | number | boolean | null,
  ][];
  const naming = NAMING_MEMBERS.find((name) => entries.some(([key]) => key === name));
  const ordered = naming
    ? [...entries.filter(([key]) => key === naming), ...entries.filter(([key]) => key !== naming)]
    : entries;
  return ordered
    .slice(0, 4)
    .map(([key, value]) => `${key} ${shown(value)}`)
    .join(', ');
}

/** "List tracked keywords: 12 items." with the first few, or an object's scalar members and its lists' sizes. */
export function resultSummary(title: string, structured: Json): string {
  const lines: string[] = [];
  const items = Array.isArray(structured.items) ? (structured.items as unknown[]) : null;
  if (items) {
    lines.push(`${title}: ${items.length} item${items.length === 1 ? '' : 's'}.`);
    lines.push(...items.slice(0, LISTED_ITEMS).map((item) => `- ${itemLine(item)}`));
    if (items.length > LISTED_ITEMS) lines.push(`- … ${items.length - LISTED_ITEMS} more`);
  } else {
    const members = Object.entries(structured)
      .filter(([key]) => key !== 'freshness')
      .slice(0, LISTED_MEMBERS)
      .map(([key, value]) => {
        if (scalar(value)) return `${key}: ${shown(value)}`;
        if (Array.isArray(value)) return `${key}: ${value.length} item${value.length === 1 ? '' : 's'}`;
        return `${key}: {…}`;
      });
    lines.push(`${title}. ${members.join('; ')}.`);
  }
  const freshness = structured.freshness as { dataThrough?: string | null; storefront?: string | null } | undefined;
  if (freshness?.dataThrough)
    lines.push(`Data through ${freshness.dataThrough}${freshness.storefront ? ` in ${freshness.storefront}` : ''}.`);
  lines.push('The whole answer is the structured content.');
  return lines.join('\n');
}
