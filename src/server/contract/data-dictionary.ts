// The data dictionary (/docs/data): every figure the data endpoints answer, by the schema that holds it, with its type
// and what it means (where it comes from, how often it is observed, what null means, what it cannot say), read from
// the OpenAPI document, so that the page and the contract cannot say different things.
import { openApiDocumentJson } from './document';

type Json = Record<string, unknown>;

interface DictionaryField {
  /** Where in the answer: `rank`, `points[].status`, `topApps[].rating`. */
  path: string;
  type: string;
  description: string;
}

export interface DictionarySchema {
  name: string;
  description: string;
  operations: string[];
  fields: DictionaryField[];
}

/** The tags whose answers are ASO data (the settings' and usage's are not). */
const DATA_TAGS = new Set(['Apps', 'Keywords', 'Reviews', 'Metadata', 'Competitors']);

function refName(schema: Json | undefined): string | null {
  const ref = (schema?.$ref ?? (schema?.items as Json | undefined)?.$ref) as string | undefined;
  return ref ? ref.slice(ref.lastIndexOf('/') + 1) : null;
}

function typeOf(schema: Json): string {
  if (schema.$ref) return refName(schema)!;
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).map((value) => JSON.stringify(value)).join(' | ');
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : schema.type ? [schema.type as string] : [];
  const options = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (options) return options.map(typeOf).join(' | ');
  if (types.includes('array')) return `${typeOf((schema.items ?? {}) as Json)}[]`;
  return types.join(' | ') || 'object';
}

function fieldsOf(schema: Json, schemas: Record<string, Json>, prefix: string, depth: number): DictionaryField[] {
  const fields: DictionaryField[] = [];
  for (const [name, raw] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
    const path = `${prefix}${name}`;
    const resolved = raw.$ref ? (schemas[refName(raw)!] ?? raw) : raw;
    fields.push({
      path,
      type: typeOf(raw),
      description: String(raw.description ?? resolved.description ?? ''),
    });
    // A nested object's figures are the schema's too (a point of a series, an app of a top list).
    const items = (resolved.items ?? (raw.items as Json | undefined)) as Json | undefined;
    const nested = items ? (items.$ref ? schemas[refName(items)!] : items) : resolved.properties ? resolved : null;
    if (nested?.properties && depth < 3)
      fields.push(...fieldsOf(nested, schemas, `${path}${items ? '[]' : ''}.`, depth + 1));
  }
  return fields;
}

const built = new Map<string, DictionarySchema[]>();

/**
 * The dictionary, one entry per schema a data endpoint answers with, in the document's order; built once per process
 * and origin, as the document it reads is.
 */
export function dataDictionary(origin: string): DictionarySchema[] {
  const known = built.get(origin);
  if (known) return known;
  const document = JSON.parse(openApiDocumentJson(origin)) as {
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Record<string, Json> };
  };
  const { schemas } = document.components;
  const entries = new Map<string, DictionarySchema>();
  for (const [template, item] of Object.entries(document.paths)) {
    const operation = item.get;
    if (!operation || !(operation.tags as string[] | undefined)?.some((tag) => DATA_TAGS.has(tag))) continue;
    const ok = (operation.responses as Record<string, Json>)['200'];
    const schema = ((ok?.content as Record<string, Json> | undefined)?.['application/json']?.schema ?? {}) as Json;
    const name = refName(schema);
    if (!name || !schemas[name]) continue;
    const entry = entries.get(name) ?? {
      name,
      description: String(schemas[name]!.description ?? ''),
      operations: [],
      fields: fieldsOf(schemas[name]!, schemas, '', 0),
    };
    entry.operations.push(`GET ${template}`);
    entries.set(name, entry);
  }
  const dictionary = [...entries.values()];
  built.set(origin, dictionary);
  return dictionary;
}
