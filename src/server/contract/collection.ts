// GET /api/public/v1/collection.json: a Postman v2.1 collection generated from the OpenAPI document by Postman's own
// converter (openapi-to-postmanv2), one folder per tag, then made to run as it is, against any app:
// - optional query parameters ship disabled (a filter such as `rating=1` or `country=US` is the user's choice), and so
//   does X-Test-Trigger (a test key's error on demand); X-Test-Mode is {{testMode}}, set to true for a run in test mode;
// - ids are chained: "List tracked apps" sets {{appId}} (unless one is given) and the app's store page, "List tracked
//   keywords" sets {{keywordId}} and a tracked term, "List competitors" a competitor's page, and the POSTs send those
//   back, so a run tracks nothing new; the lists run first in their folder and the POSTs last;
// - every request tests its status, that its body is JSON of the documented shape, and the credit headers;
// - the settings folders (API keys, Webhook endpoints) run with {{sessionToken}}, in the order of a life: a key made,
//   read, renamed, rolled, and its successor revoked; an endpoint made, read, changed, its secret rotated, a test event
//   sent and redelivered, the deliveries read, then deleted. A run leaves a revoked key behind, nothing else;
// - an export asked for and cancelled at once (its credits given back, unless the e2e server's worker wrote it first:
//   the cancel then answers it completed), then read and listed;
// - the replies to reviews, last in their folder: a reply drafted to the app's newest store-account review, listed,
//   read and approved (it is sent), another drafted and discarded; they need an app a store account owns.
import { openApiDocumentJson } from './document';

type Json = Record<string, unknown>;
interface Item extends Json {
  name: string;
  item?: Item[];
  event?: { listen: string; script: { type: string; exec: string[] } }[];
  request?: Json & {
    method: string;
    url?: Json & {
      path?: string[];
      query?: { key: string; value: string; description?: string | Json; disabled?: boolean }[];
      variable?: { key: string; value: string }[];
    };
    header?: { key: string; value: string; disabled?: boolean }[];
    body?: Json & { raw?: string };
    auth?: unknown;
  };
}
type Operation = Json & {
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
  parameters?: Json[];
  'x-credits': number;
};
interface Document extends Json {
  paths: Record<string, Record<string, Operation>>;
}

const ID_VARIABLES: Record<string, string> = {
  id: '{{appId}}',
  keywordId: '{{keywordId}}',
  keyId: '{{keyId}}',
  endpointId: '{{endpointId}}',
  deliveryId: '{{deliveryId}}',
  reviewId: '{{reviewId}}',
  draftId: '{{draftId}}',
  exportId: '{{exportId}}',
};
/**
 * Ids a path takes in another form than a bare uuid (fetch's are `app:<uuid>` or `keyword:<uuid>`), or of another
 * variable: the draft discarded is not the one approved.
 */
const ROUTE_ID_VARIABLES: Record<string, Record<string, string>> = {
  'GET /search/{id}': { id: 'app:{{appId}}' },
  'POST /apps/{id}/reply-drafts/{draftId}/discard': { draftId: '{{draftToDiscard}}' },
};

/** A request of a test script's own (Postman's pm.sendRequest), with the collection's key, mode and version. */
const sendRequest = (method: string, path: string, body: Json | null, then: string[]) => [
  "const header = { Authorization: 'Bearer ' + pm.variables.get('apiKey'), 'Content-Type': 'application/json' };",
  "if (pm.variables.get('testMode')) header['X-Test-Mode'] = pm.variables.get('testMode');",
  "if (pm.variables.get('asoVersion')) header['Aso-Version'] = pm.variables.get('asoVersion');",
  'pm.sendRequest({',
  `  url: pm.variables.replaceIn('{{baseUrl}}') + ${path},`,
  `  method: '${method}',`,
  '  header,',
  ...(body ? [`  body: { mode: 'raw', raw: JSON.stringify(${JSON.stringify(body)}) },`] : []),
  '}, (error, response) => {',
  ...then.map((line) => `  ${line}`),
  '});',
];
const CREDIT_HEADERS = [
  'X-Request-Id',
  'X-Credits-Limit',
  'X-Credits-Remaining',
  'X-Credits-Used',
  'X-Credits-Reset',
  'X-Credits-Cost',
];

/** What a list's answer sets for the requests after it (a test script), by operation. */
const CHAINS: Record<string, string[]> = {
  'GET /apps': [
    'const apps = pm.response.json();',
    "const chosen = apps.find((app) => app.id === pm.variables.get('appId')) || apps[0];",
    "if (chosen && !pm.variables.get('appId')) pm.collectionVariables.set('appId', chosen.id);",
    "if (chosen) pm.collectionVariables.set('appStoreUrl', chosen.storeUrl);",
  ],
  'GET /apps/{id}': ["pm.collectionVariables.set('appStoreUrl', pm.response.json().storeUrl);"],
  'GET /apps/{id}/keywords': [
    'const keyword = pm.response.json()[0];',
    "if (keyword && !pm.environment.get('keywordId')) pm.collectionVariables.set('keywordId', keyword.keywordId);",
    "if (keyword) pm.collectionVariables.set('keywordTerm', keyword.term);",
  ],
  'GET /apps/{id}/competitors': [
    'const competitor = pm.response.json()[0];',
    "if (competitor) pm.collectionVariables.set('competitorStoreUrl', competitor.storeUrl);",
  ],
  'POST /keys': ["pm.collectionVariables.set('keyId', pm.response.json().key.id);"],
  // The successor is the key revoked next (the rolled one ended at once).
  'POST /keys/{keyId}/roll': ["pm.collectionVariables.set('keyId', pm.response.json().key.id);"],
  'POST /webhook-endpoints': ["pm.collectionVariables.set('endpointId', pm.response.json().endpoint.id);"],
  'POST /webhook-endpoints/{endpointId}/test-events': [
    "pm.collectionVariables.set('deliveryId', pm.response.json().deliveryId);",
  ],
  // The reviews read with the app's store account (of an app one owns: the demo's and the sandbox's are), two of them:
  // one to reply to and approve, one whose draft is discarded.
  'GET /apps/{id}/reviews': sendRequest(
    'GET',
    "'/apps/' + pm.variables.get('appId') + '/reviews?source=store_account&pageSize=2'",
    null,
    [
      'const owned = !error && response.code === 200 ? response.json().items : [];',
      "if (owned[0]) pm.collectionVariables.set('reviewId', owned[0].id);",
      "if (owned[1]) pm.collectionVariables.set('secondReviewId', owned[1].id);",
    ],
  ),
  'POST /exports': ["pm.collectionVariables.set('exportId', pm.response.json().id);"],
  'POST /apps/{id}/reviews/{reviewId}/reply-drafts': [
    "pm.collectionVariables.set('draftId', pm.response.json().id);",
    ...sendRequest(
      'POST',
      "'/apps/' + pm.variables.get('appId') + '/reviews/' + pm.variables.get('secondReviewId') + '/reply-drafts'",
      { body: 'A draft the Postman collection run discards.' },
      ["if (!error && response.code === 200) pm.collectionVariables.set('draftToDiscard', response.json().id);"],
    ),
  ],
};

/**
 * The exports' requests, in the order they run: one asked for and cancelled at once (a run exports nothing and is
 * charged nothing: its credits are given back, unless a worker wrote it first), then read.
 */
const EXPORTS_RUN = ['POST /exports', 'POST /exports/{exportId}/cancel', 'GET /exports/{exportId}', 'GET /exports'];

/** The replies' requests, in the order they run, after the folder's others: each one's ids come from those before it. */
const REPLIES_RUN = [
  'POST /apps/{id}/reviews/{reviewId}/reply-drafts',
  'GET /apps/{id}/reply-drafts',
  'GET /apps/{id}/reply-drafts/{draftId}',
  'POST /apps/{id}/reply-drafts/{draftId}/approve',
  'POST /apps/{id}/reply-drafts/{draftId}/discard',
];

/** The settings folders' requests, in the order they run: each one's ids come from those before it. */
const SETTINGS_RUN = [
  'POST /keys',
  'GET /keys',
  'GET /keys/{keyId}',
  'PATCH /keys/{keyId}',
  'POST /keys/{keyId}/roll',
  'POST /keys/{keyId}/revoke',
  'POST /webhook-endpoints',
  'GET /webhook-endpoints',
  'GET /webhook-endpoints/{endpointId}',
  'PATCH /webhook-endpoints/{endpointId}',
  'POST /webhook-endpoints/{endpointId}/rotate-secret',
  'POST /webhook-endpoints/{endpointId}/test-events',
  'GET /webhook-endpoints/{endpointId}/deliveries',
  'POST /webhook-deliveries/{deliveryId}/redeliver',
  'DELETE /webhook-endpoints/{endpointId}',
];

/** The POSTs' bodies: what the lists before them found, so that a run adds nothing. */
const BODIES: Record<string, Json> = {
  'POST /apps': { storeUrl: '{{appStoreUrl}}' },
  'POST /apps/{id}/keywords': { terms: ['{{keywordTerm}}'] },
  'POST /apps/{id}/competitors': { storeUrl: '{{competitorStoreUrl}}' },
  'POST /keys': { name: 'Postman collection run', scope: 'read-only' },
  'PATCH /keys/{keyId}': { name: 'Postman collection run (renamed)' },
  'POST /keys/{keyId}/roll': { gracePeriod: 'now' },
  'POST /webhook-endpoints': { url: '{{webhookUrl}}', description: 'Postman collection run' },
  'PATCH /webhook-endpoints/{endpointId}': { description: 'Postman collection run (changed)' },
  'POST /apps/{id}/reviews/{reviewId}/reply-drafts': { body: 'Thank you for your review! (a Postman collection run)' },
  'POST /exports': {
    datasets: ['keyword_ranks', 'competitor_ranks', 'keyword_metrics', 'ratings', 'category_ranks'],
    appIds: ['{{appId}}'],
    from: '2025-01-01',
    to: '2025-12-31',
    format: 'parquet',
  },
};

/**
 * Postman's converter is loaded when a collection is first made, not with the server: it brings faker and Postman's
 * SDK, about half a second of CPU for each process that loads it, and most never serve the collection.
 */
async function convert(document: Json): Promise<Json> {
  const { default: Converter } = await import('openapi-to-postmanv2');
  return new Promise((resolve, reject) => {
    Converter.convert(
      { type: 'json', data: document },
      {
        folderStrategy: 'Tags',
        requestParametersResolution: 'Example',
        exampleParametersResolution: 'Example',
        includeAuthInfoInExample: false,
      },
      (error, result) => {
        if (error) return reject(error);
        if (!result?.result || !result.output?.[0])
          return reject(new Error(`the collection could not be generated: ${String(result?.reason)}`));
        resolve(result.output[0].data as Json);
      },
    );
  });
}

/** A schema with every `$ref` of the document inlined, and without what Postman's validator (ajv 6) does not need. */
function standalone(schema: unknown, document: Document): unknown {
  if (Array.isArray(schema)) return schema.map((item) => standalone(item, document));
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Json;
  if (typeof node.$ref === 'string') {
    const target = node.$ref
      .slice(2)
      .split('/')
      .reduce<unknown>((value, segment) => (value as Json)[segment], document);
    return standalone(target, document);
  }
  const copy: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'description' || key === 'example' || key === 'examples' || key === 'format') continue;
    copy[key] =
      key === 'properties'
        ? Object.fromEntries(
            Object.entries(value as Json).map(([name, member]) => [name, standalone(member, document)]),
          )
        : standalone(value, document);
  }
  return copy;
}

function templateOf(item: Item): string {
  return `/${(item.request!.url!.path ?? []).map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment)).join('/')}`;
}

function testScript(key: string, operation: Operation, document: Document): string[] {
  const status = operation.responses['202'] ? 202 : 200;
  const schema = standalone(operation.responses[status]?.content?.['application/json']?.schema, document);
  return [
    `pm.test('answers ${status}', () => pm.response.to.have.status(${status}));`,
    `pm.test('answers JSON of the documented shape', () => pm.response.to.have.jsonSchema(${JSON.stringify(schema)}, { unknownFormats: 'ignore' }));`,
    "pm.test('carries the credit headers and its cost', () => {",
    `  for (const name of ${JSON.stringify(CREDIT_HEADERS)}) pm.response.to.have.header(name);`,
    `  pm.expect(Number(pm.response.headers.get('X-Credits-Cost'))).to.equal(${operation['x-credits']});`,
    '});',
    ...(CHAINS[key] ?? []),
  ];
}

function adjust(item: Item, document: Document): void {
  for (const child of item.item ?? []) adjust(child, document);
  const request = item.request;
  if (!request) return;
  const template = templateOf(item);
  const key = `${request.method} ${template}`;
  const operation = document.paths[template]?.[request.method.toLowerCase()];
  if (!operation) throw new Error(`no operation for ${key}`);
  // The collection's own auth (the API key) applies, but to the settings endpoints, which take a session token only.
  if (operation['x-scope'] === 'admin')
    request.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{sessionToken}}', type: 'string' }] };
  else delete request.auth;
  // A fresh Idempotency-Key per send (Postman's dynamic variable), so that two requests never share one.
  // X-Test-Trigger is there to be switched on, with a test key, to ask for an error.
  for (const header of request.header ?? []) {
    if (header.key === 'Idempotency-Key') header.value = '{{$guid}}';
    if (header.key === 'X-Test-Trigger') header.disabled = true;
    // On in a test-mode run ({{testMode}} true), for the settings folders' session token; empty, it is not sent.
    if (header.key === 'X-Test-Mode') header.value = '{{testMode}}';
    // A dated version to be answered as ({{asoVersion}}); empty, it is not sent: the key's version applies.
    if (header.key === 'Aso-Version') header.value = '{{asoVersion}}';
  }
  for (const variable of request.url?.variable ?? []) {
    const value = ROUTE_ID_VARIABLES[key]?.[variable.key] ?? ID_VARIABLES[variable.key];
    if (value) variable.value = value;
  }
  // Optional query parameters are there to be switched on, not sent.
  for (const parameter of request.url?.query ?? []) {
    const required = String(
      typeof parameter.description === 'object' ? parameter.description.content : (parameter.description ?? ''),
    ).startsWith('(Required)');
    if (!required) parameter.disabled = true;
  }
  if (BODIES[key] && request.body) request.body.raw = JSON.stringify(BODIES[key], null, 2);
  item.event = [{ listen: 'test', script: { type: 'text/javascript', exec: testScript(key, operation, document) } }];
}

/**
 * The lists that set variables run first in their folder, the POSTs last; the settings in SETTINGS_RUN's order; an
 * empty folder (Webhooks) is left out.
 */
function ordered(folders: Item[]): Item[] {
  const rank = (item: Item) => {
    const key = `${item.request?.method} ${templateOf(item)}`;
    if (SETTINGS_RUN.includes(key)) return SETTINGS_RUN.indexOf(key);
    if (REPLIES_RUN.includes(key)) return 3 + REPLIES_RUN.indexOf(key);
    if (EXPORTS_RUN.includes(key)) return EXPORTS_RUN.indexOf(key);
    return item.request?.method === 'POST' ? 2 : CHAINS[key] ? 0 : 1;
  };
  return folders
    .filter((folder) => folder.item?.length)
    .map((folder) => ({ ...folder, item: [...folder.item!].sort((a, b) => rank(a) - rank(b)) }));
}

async function buildCollection(origin: string): Promise<Json> {
  // A fresh copy of the served document (generated once): the converter may annotate what it is given.
  const document = JSON.parse(openApiDocumentJson(origin)) as Document;
  const collection = await convert(JSON.parse(openApiDocumentJson(origin)) as Json);
  for (const item of collection.item as Item[]) adjust(item, document);
  collection.item = ordered(collection.item as Item[]);
  collection.info = {
    ...(collection.info as Json),
    name: 'ASO Analytics Public Data API v1',
    description: `Every endpoint of ${origin}/api/public/v1, generated from its OpenAPI document, each with tests (status, shape, credit headers). Set apiKey (an svc_live_… key, or an svc_test_… key with testMode true for a run in test mode, which spends no live credit) for the data, and sessionToken (a session token of the account) and webhookUrl (an HTTPS URL that receives the test event) for the API keys and Webhook endpoints folders (asoVersion, a dated version such as 2026-11-21, to be answered as it rather than as the key's version), which make a key and an endpoint and end them; appId is the first tracked app unless you set it, and keywordId the app's first tracked keyword. The replies to reviews need an app one of your store accounts owns (the sandbox's sample apps are): a run drafts a reply to its newest review, approves it with sessionToken (the store then receives it) and drafts and discards another. Optional query parameters are switched off: switch on those you want. The POSTs send back an app, a term and a competitor that are already tracked, so a run adds nothing.`,
  };
  collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] };
  collection.variable = [
    { key: 'baseUrl', value: `${origin}/api/public/v1`, type: 'string' },
    { key: 'apiKey', value: '', type: 'string' },
    { key: 'appId', value: '', type: 'string' },
    { key: 'keywordId', value: '', type: 'string' },
    { key: 'appStoreUrl', value: '', type: 'string' },
    { key: 'keywordTerm', value: '', type: 'string' },
    { key: 'competitorStoreUrl', value: 'https://apps.apple.com/us/app/calm/id571800810', type: 'string' },
    { key: 'sessionToken', value: '', type: 'string' },
    { key: 'webhookUrl', value: '', type: 'string' },
    { key: 'testMode', value: '', type: 'string' },
    { key: 'asoVersion', value: '', type: 'string' },
    { key: 'keyId', value: '', type: 'string' },
    { key: 'endpointId', value: '', type: 'string' },
    { key: 'deliveryId', value: '', type: 'string' },
    { key: 'reviewId', value: '', type: 'string' },
    { key: 'secondReviewId', value: '', type: 'string' },
    { key: 'draftId', value: '', type: 'string' },
    { key: 'draftToDiscard', value: '', type: 'string' },
    { key: 'exportId', value: '', type: 'string' },
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
