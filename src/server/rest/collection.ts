// GET /api/public/v1/collection.json: a Postman v2.1 collection generated from the OpenAPI document by Postman's own
// converter (openapi-to-postmanv2): one folder per tag, each request with the document's example values, the
// Bearer credential as {{apiKey}} and the ids as {{appId}} / {{keywordId}}, set once for the whole collection.
import Converter from 'openapi-to-postmanv2';
import { openApiDocumentJson } from './document';

type Json = Record<string, unknown>;
interface Item extends Json {
  item?: Item[];
  request?: Json & { url?: Json & { variable?: { key: string; value: string }[] }; auth?: unknown };
}

const ID_VARIABLES: Record<string, string> = { id: '{{appId}}', keywordId: '{{keywordId}}' };

function convert(document: Json): Promise<Json> {
  return new Promise((resolve, reject) => {
    Converter.convert(
      { type: 'json', data: document },
      { folderStrategy: 'Tags', requestParametersResolution: 'Example', exampleParametersResolution: 'Example', includeAuthInfoInExample: false },
      (error, result) => {
        if (error) return reject(error);
        if (!result?.result || !result.output?.[0]) return reject(new Error(`the collection could not be generated: ${String(result?.reason)}`));
        resolve(result.output[0].data as Json);
      },
    );
  });
}

function adjust(item: Item): void {
  for (const child of item.item ?? []) adjust(child);
  if (!item.request) return;
  delete item.request.auth; // the collection's own auth applies
  // A fresh Idempotency-Key per send (Postman's dynamic variable), so that two requests never share one.
  for (const header of (item.request.header as { key: string; value: string }[] | undefined) ?? []) {
    if (header.key === 'Idempotency-Key') header.value = '{{$guid}}';
  }
  for (const variable of item.request.url?.variable ?? []) {
    if (ID_VARIABLES[variable.key]) variable.value = ID_VARIABLES[variable.key]!;
  }
}

export async function buildCollection(origin: string): Promise<Json> {
  // A fresh copy of the served document (generated once): the converter may annotate what it is given.
  const collection = await convert(JSON.parse(openApiDocumentJson(origin)) as Json);
  for (const item of collection.item as Item[]) adjust(item);
  collection.info = {
    ...(collection.info as Json),
    name: 'ASO Analytics Public Data API v1',
    description: `Every endpoint of ${origin}/api/public/v1, generated from its OpenAPI document. Set apiKey (an svc_live_… key), appId (a tracked app's id, from "List tracked apps") and keywordId (from "List tracked keywords").`,
  };
  collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] };
  collection.variable = [
    { key: 'baseUrl', value: `${origin}/api/public/v1`, type: 'string' },
    { key: 'apiKey', value: '', type: 'string' },
    { key: 'appId', value: '', type: 'string' },
    { key: 'keywordId', value: '', type: 'string' },
  ];
  return collection;
}

let cached: { origin: string; json: Promise<string> } | undefined;

export function collectionJson(origin: string): Promise<string> {
  if (cached?.origin !== origin) {
    const json = buildCollection(origin).then((collection) => JSON.stringify(collection));
    json.catch(() => (cached = undefined));
    cached = { origin, json };
  }
  return cached.json;
}
