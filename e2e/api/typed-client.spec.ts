// The typed TypeScript client (clients/typescript) against the running app: every endpoint, paging, a 402 as a typed
// problem, a 429 retried after its Retry-After, and a POST retried after its answer was lost, answered once.
import { expect, test } from '@playwright/test';
import { createAsoClient, type AsoClient } from '../../clients/typescript/src';
import { baseURL } from '../../playwright.config';
import { admin, API, bearer, createKey, DEMO, DEMO_APP_ID, newAccount, signIn } from '../helpers';

const BASE_URL = `${baseURL}${API}`;

/** A fetch that records the method and path of every attempt and its status (null: no answer). */
function recordingFetch() {
  const attempts: { method: string; path: string; status: number | null }[] = [];
  const fetchOnce = async (request: Request) => {
    const attempt = {
      method: request.method,
      path: new URL(request.url).pathname.slice(API.length),
      status: null as number | null,
    };
    attempts.push(attempt);
    const response = await fetch(request);
    attempt.status = response.status;
    return response;
  };
  return { attempts, fetchOnce };
}

test('calls every endpoint of the document, typed, with the credit headers as numbers', async ({ request }) => {
  const apiKey = await createKey(await signIn(DEMO.email, DEMO.password), 'read-write', 'typed client');
  const { attempts, fetchOnce } = recordingFetch();
  const client = createAsoClient({ apiKey, baseUrl: BASE_URL, fetch: fetchOnce });
  const id = DEMO_APP_ID;
  const path = { id };

  const apps = await client.GET('/apps');
  expect(apps.data!.map((app) => app.id)).toContain(id);
  expect(apps.credits).toMatchObject({ cost: 1, limit: 5000 });
  expect(apps.credits!.remaining).toBe(apps.credits!.limit - apps.credits!.used);
  const app = (await client.GET('/apps/{id}', { params: { path } })).data!;
  expect(app.storeUrl).toMatch(/^https:\/\/apps\.apple\.com\//);
  const keywords = (await client.GET('/apps/{id}/keywords', { params: { path, query: { rankWindow: '30d' } } })).data!;
  const keywordId = keywords[0]!.keywordId;
  const competitors = (await client.GET('/apps/{id}/competitors', { params: { path } })).data!;
  const reads = [
    client.GET('/apps/{id}/aso-score', { params: { path } }),
    client.GET('/apps/{id}/opportunities', { params: { path, query: { limit: 5 } } }),
    client.GET('/apps/{id}/category-rank', { params: { path, query: { days: 7 } } }),
    client.GET('/apps/{id}/rating-history', { params: { path } }),
    client.GET('/apps/{id}/keyword-spy', { params: { path } }),
    client.GET('/apps/{id}/keywords/research', { params: { path, query: { term: 'sleep sounds' } } }),
    client.GET('/apps/{id}/keywords/{keywordId}/history', { params: { path: { id, keywordId }, query: { days: 7 } } }),
    client.GET('/apps/{id}/keywords/{keywordId}/metrics-history', { params: { path: { id, keywordId } } }),
    client.GET('/apps/{id}/metadata', { params: { path } }),
    client.GET('/apps/{id}/metadata/changelog', { params: { path } }),
    client.GET('/apps/{id}/reviews', { params: { path, query: { rating: 5, pageSize: 5 } } }),
    client.GET('/apps/{id}/reviews/insights', { params: { path } }),
    client.GET('/search', { params: { query: { query: 'sleep' } } }),
    client.GET('/search/{id}', { params: { path: { id: `app:${id}` } } }),
    client.GET('/usage'),
  ];
  for (const result of await Promise.all(reads)) {
    expect(result.error, result.response.url).toBeUndefined();
    expect(result.credits!.cost).toBe(
      result.response.url.includes('/research')
        ? 8
        : result.response.url.includes('/opportunities')
          ? 2
          : result.response.url.endsWith('/usage')
            ? 0
            : 1,
    );
    expect(result.requestId).toMatch(/^[0-9a-f-]{36}$/);
  }
  // The writes send back what is tracked: an answer each, nothing new.
  const added = await client.POST('/apps', { body: { storeUrl: app.storeUrl } });
  expect(added.data).toMatchObject({ id, created: false });
  const tracked = await client.POST('/apps/{id}/keywords', { params: { path }, body: { terms: [keywords[0]!.term] } });
  expect(tracked.data!.added).toEqual([]);
  const competitor = await client.POST('/apps/{id}/competitors', {
    params: { path },
    body: { storeUrl: competitors[0]!.storeUrl },
  });
  expect(competitor.data).toMatchObject({ created: false });
  expect(competitor.credits!.cost).toBe(2);

  // Replies to the demo app's reviews, read with its (simulated) store account: drafted with the key, one discarded,
  // one approved with a session token (a key is refused there). Reviews no other test answers (e2e/helpers.ts,
  // replyDraftOf): the third and fourth newest.
  const owned = (
    await client.GET('/apps/{id}/reviews', {
      params: { path, query: { source: 'store_account', pageSize: 2, page: 2 } },
    })
  ).data!;
  expect(owned.items.every((review) => review.source === 'store_account')).toBe(true);
  const draftTo = async (reviewId: string) =>
    (
      await client.POST('/apps/{id}/reviews/{reviewId}/reply-drafts', {
        params: { path: { id, reviewId } },
        body: { body: 'Thank you for the review! (typed client)' },
      })
    ).data!;
  const [kept, dropped] = [await draftTo(owned.items[0]!.id), await draftTo(owned.items[1]!.id)];
  expect(kept.state).toBe('drafted');
  expect((await client.GET('/apps/{id}/reply-drafts', { params: { path } })).data!.items.length).toBeGreaterThan(0);
  expect(
    (await client.GET('/apps/{id}/reply-drafts/{draftId}', { params: { path: { id, draftId: kept.id } } })).data!.id,
  ).toBe(kept.id);
  expect(
    (await client.POST('/apps/{id}/reply-drafts/{draftId}/discard', { params: { path: { id, draftId: dropped.id } } }))
      .data!.state,
  ).toBe('discarded');
  const keyApproves = await client.POST('/apps/{id}/reply-drafts/{draftId}/approve', {
    params: { path: { id, draftId: kept.id } },
  });
  expect(keyApproves.error?.code).toBe('insufficient-scope');

  // The settings endpoints, with a session token of the account (a key is refused there).
  const session = await signIn(DEMO.email, DEMO.password);
  const owner = createAsoClient({ apiKey: session.token, baseUrl: BASE_URL, fetch: fetchOnce });
  const refused = await client.GET('/keys');
  expect(refused.error?.code).toBe('insufficient-scope');
  const made = (await owner.POST('/keys', { body: { name: 'typed client made', scope: 'read-only' } })).data!;
  expect(made.secret).toMatch(/^svc_live_/);
  const keyId = made.key.id;
  expect((await owner.GET('/keys')).data!.some((key) => key.id === keyId)).toBe(true);
  expect((await owner.GET('/keys/{keyId}', { params: { path: { keyId } } })).data!.name).toBe('typed client made');
  expect(
    (await owner.PATCH('/keys/{keyId}', { params: { path: { keyId } }, body: { restrictions: { monthlyBudget: 10 } } }))
      .data!.restrictions.monthlyBudget,
  ).toBe(10);
  const rolled = (await owner.POST('/keys/{keyId}/roll', { params: { path: { keyId } }, body: { gracePeriod: 'now' } }))
    .data!;
  expect((await owner.POST('/keys/{keyId}/revoke', { params: { path: { keyId: rolled.key.id } } })).data!.status).toBe(
    'revoked',
  );
  const endpoint = (await owner.POST('/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/typed-client' } })).data!;
  const endpointId = endpoint.endpoint.id;
  expect((await owner.GET('/webhook-endpoints')).data!.some((each) => each.id === endpointId)).toBe(true);
  expect(
    (
      await owner.PATCH('/webhook-endpoints/{endpointId}', {
        params: { path: { endpointId } },
        body: { enabled: false },
      })
    ).data!.enabled,
  ).toBe(false);
  await owner.PATCH('/webhook-endpoints/{endpointId}', { params: { path: { endpointId } }, body: { enabled: true } });
  expect((await owner.GET('/webhook-endpoints/{endpointId}', { params: { path: { endpointId } } })).data!.enabled).toBe(
    true,
  );
  expect(
    (await owner.POST('/webhook-endpoints/{endpointId}/rotate-secret', { params: { path: { endpointId } } })).data!
      .secret,
  ).toMatch(/^whsec_/);
  const { deliveryId } = (
    await owner.POST('/webhook-endpoints/{endpointId}/test-events', { params: { path: { endpointId } } })
  ).data!;
  expect(
    (await owner.GET('/webhook-endpoints/{endpointId}/deliveries', { params: { path: { endpointId } } })).data!.map(
      (delivery) => delivery.id,
    ),
  ).toContain(deliveryId);
  expect(
    (await owner.POST('/webhook-deliveries/{deliveryId}/redeliver', { params: { path: { deliveryId } } })).data!
      .deliveryId,
  ).toBe(deliveryId);
  expect(
    (await owner.DELETE('/webhook-endpoints/{endpointId}', { params: { path: { endpointId } } })).data!.deleted,
  ).toBe(true);
  // The demo's store accounts are simulated: the approved reply is sent at once.
  expect(
    (await owner.POST('/apps/{id}/reply-drafts/{draftId}/approve', { params: { path: { id, draftId: kept.id } } }))
      .data!.state,
  ).toBe('sent');

  // Exports, of an account of their own (the demo's runs two at once, and other tests ask for its exports): one
  // asked for and cancelled at once (its credit given back), read and listed.
  const exporter = await newAccount('pro');
  await admin(
    'app',
    'add',
    '--email',
    exporter.email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const exports = createAsoClient({
    apiKey: await createKey(exporter.session, 'read-only', 'typed exports'),
    baseUrl: BASE_URL,
    fetch: fetchOnce,
  });
  const asked = (
    await exports.POST('/exports', {
      body: { datasets: ['keyword_ranks', 'ratings'], from: '2025-01-01', to: '2025-12-31', format: 'csv' },
    })
  ).data!;
  expect(asked).toMatchObject({ state: 'queued', format: 'csv' });
  const exportId = asked.id;
  expect((await exports.POST('/exports/{exportId}/cancel', { params: { path: { exportId } } })).data!.state).toMatch(
    /^(cancelled|running)$/,
  );
  expect((await exports.GET('/exports/{exportId}', { params: { path: { exportId } } })).data!.id).toBe(exportId);
  expect((await exports.GET('/exports')).data!.map((each) => each.id)).toContain(exportId);

  // Every operation of the document was called.
  const document = await (await request.get(`${API}/openapi.json`)).json();
  const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
    ([template, item]) => Object.keys(item).map((method) => ({ method: method.toUpperCase(), template })),
  );
  const called = (operation: { method: string; template: string }) =>
    attempts.some(
      (attempt) =>
        attempt.method === operation.method &&
        new RegExp(`^${operation.template.replace(/\{\w+\}/g, '[^/]+')}$`).test(attempt.path),
    );
  expect(operations.filter((operation) => !called(operation))).toEqual([]);
  expect(operations).toHaveLength(46);
});

test('pages through a long list, following its links', async () => {
  const apiKey = await createKey(await signIn(DEMO.email, DEMO.password), 'read-only', 'typed client paging');
  const client = createAsoClient({ apiKey, baseUrl: BASE_URL });
  const first = await client.GET('/apps/{id}/reviews', {
    params: { path: { id: DEMO_APP_ID }, query: { pageSize: 1 } },
  });
  const reviews: string[] = [];
  for await (const review of client.paginate('/apps/{id}/reviews', { params: { path: { id: DEMO_APP_ID } } }))
    reviews.push(review.id);
  expect(reviews).toHaveLength(first.data!.total);
  expect(new Set(reviews).size).toBe(reviews.length);
  expect(first.data!.total).toBeGreaterThan(100);

  const whole = (await client.GET('/apps/{id}/keyword-spy', { params: { path: { id: DEMO_APP_ID } } })).data!;
  const terms: string[] = [];
  for await (const keyword of client.paginate('/apps/{id}/keyword-spy', { params: { path: { id: DEMO_APP_ID } } }))
    terms.push(keyword.term);
  expect(terms).toEqual(whole.keywords.map((keyword) => keyword.term));
});

test('answers a spent allowance with a typed credits-exhausted problem', async ({ request }) => {
  const { session, email } = await newAccount('solo');
  const appId = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000002',
  );
  const apiKey = await createKey(session, 'read-only', 'typed client 402');
  // 187 research calls of 8 credits: 4 of the 1,500 remain.
  for (let batch = 0; batch < 11; batch++) {
    const statuses = await Promise.all(
      Array.from({ length: 17 }, async () =>
        (await request.get(`${API}/apps/${appId}/keywords/research?term=focus`, { headers: bearer(apiKey) })).status(),
      ),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
  }
  const client = createAsoClient({ apiKey, baseUrl: BASE_URL });
  const refused = await client.GET('/apps/{id}/keywords/research', {
    params: { path: { id: appId }, query: { term: 'focus' } },
  });
  expect(refused.data).toBeUndefined();
  const problem = refused.error!;
  expect(problem.code).toBe('credits-exhausted');
  if (problem.code !== 'credits-exhausted') throw new Error('not narrowed');
  expect(problem).toMatchObject({ status: 402, creditsRequired: 8, creditsRemaining: 4 });
  expect(new Date(problem.resetsAt).getTime()).toBe(refused.credits!.resetsAt.getTime());
  expect(refused.credits).toMatchObject({ limit: 1500, used: 1496, remaining: 4, cost: 0 });
});

test('works unchanged with a test key: the sandbox, test mode’s allowance, and each triggered problem typed as the live one', async ({
  request,
}) => {
  const { session } = await newAccount('free');
  const made = await request.post(`${API}/keys`, {
    headers: { ...bearer(session.token), 'X-Test-Mode': 'true' },
    data: { name: 'typed client test mode', scope: 'read-only' },
  });
  expect(made.status()).toBe(200);
  const { secret: apiKey } = (await made.json()) as { secret: string };
  expect(apiKey).toMatch(/^svc_test_/);
  const waits: number[] = [];
  const client = createAsoClient({
    apiKey,
    baseUrl: BASE_URL,
    retry: { retries: 1, sleep: async (milliseconds) => void waits.push(milliseconds) },
  });

  const apps = await client.GET('/apps');
  expect(apps.data!.length).toBeGreaterThan(1);
  expect(apps.response.headers.get('X-Test-Mode')).toBe('true');
  expect(apps.credits).toMatchObject({ cost: 1, limit: 25_000, used: 1 });

  const exhausted = await client.GET('/apps', { headers: { 'X-Test-Trigger': 'credits-exhausted' } });
  expect(exhausted.error?.code).toBe('credits-exhausted');
  if (exhausted.error?.code !== 'credits-exhausted') throw new Error('not narrowed');
  expect(exhausted.error).toMatchObject({ status: 402, creditsRequired: 1, creditsRemaining: 0 });
  expect(exhausted.credits).toMatchObject({ remaining: 0, cost: 0 });
  // A triggered 429 is retried after its Retry-After, as a live one, and comes back again: the trigger is on every try.
  const limited = await client.GET('/apps', { headers: { 'X-Test-Trigger': 'rate-limited' } });
  expect(limited.error?.code).toBe('rate-limited');
  expect(waits).toEqual([1_000]);
  const missing = await client.GET('/apps/{id}', {
    params: { path: { id: apps.data![0]!.id } },
    headers: { 'X-Test-Trigger': 'not-found' },
  });
  expect(missing.error).toMatchObject({ code: 'not-found', status: 404 });
  // Nothing a trigger answered was charged.
  expect((await client.GET('/usage')).data).toMatchObject({ used: 1, livemode: false });
});

test('retries a 429 after its Retry-After, and answers once the minute has passed', async ({ request }) => {
  const { session } = await newAccount('solo');
  const apiKey = await createKey(session, 'read-only', 'typed client 429');
  // A Solo key makes 600 requests a minute: spend them on the free GET /usage.
  for (let batch = 0; batch < 12; batch++) {
    await Promise.all(Array.from({ length: 50 }, () => request.get(`${API}/usage`, { headers: bearer(apiKey) })));
  }
  expect((await request.get(`${API}/usage`, { headers: bearer(apiKey) })).status()).toBe(429);
  const { attempts, fetchOnce } = recordingFetch();
  const waits: number[] = [];
  const client: AsoClient = createAsoClient({
    apiKey,
    baseUrl: BASE_URL,
    fetch: fetchOnce,
    retry: {
      sleep: (milliseconds) => (waits.push(milliseconds), new Promise((resolve) => setTimeout(resolve, milliseconds))),
    },
  });
  const usage = await client.GET('/usage');
  expect(usage.data).toMatchObject({ plan: 'solo' });
  expect(attempts.map((attempt) => attempt.status)).toEqual([429, 200]);
  expect(waits).toHaveLength(1);
  expect(waits[0]).toBeGreaterThanOrEqual(1000);
  expect(waits[0]).toBeLessThanOrEqual(60_000);
});

test('retries a POST whose answer was lost with the same Idempotency-Key: tracked and charged once', async () => {
  const { session, email } = await newAccount('pro');
  const appId = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000003',
  );
  const apiKey = await createKey(session, 'read-write', 'typed client retry');
  const sent: string[] = [];
  let lost = false;
  const client = createAsoClient({
    apiKey,
    baseUrl: BASE_URL,
    retry: { sleep: async () => {} },
    // The first answer to the POST arrives at the server's end and is lost on the way back, as a reset connection would.
    fetch: async (request) => {
      if (request.method === 'POST') sent.push(request.headers.get('Idempotency-Key') ?? 'none');
      const response = await fetch(request);
      if (request.method === 'POST' && !lost) {
        lost = true;
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    },
  });
  const before = (await client.GET('/usage')).data!.used;
  const answer = await client.POST('/apps/{id}/keywords', {
    params: { path: { id: appId } },
    body: { terms: ['deep focus'] },
  });
  expect(sent).toHaveLength(2);
  expect(sent[0]).toMatch(/^[0-9a-f-]{36}$/);
  expect(sent[1]).toBe(sent[0]);
  expect(answer.response.headers.get('Idempotent-Replayed')).toBe('true');
  expect(answer.data!.added.map((keyword) => keyword.term)).toEqual(['deep focus']);
  const keywords = (await client.GET('/apps/{id}/keywords', { params: { path: { id: appId } } })).data!;
  expect(keywords.filter((keyword) => keyword.term === 'deep focus')).toHaveLength(1);
  expect((await client.GET('/usage')).data!.used - before).toBe(2 + 1);
});
