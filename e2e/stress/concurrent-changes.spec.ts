// One account's things changed by many calls at once, as a team's tabs and scripts do: keys given budgets, renamed,
// made and revoked while they are used; webhook endpoints made, tested and deleted at once; apps added, given keywords
// and competitors, read in new storefronts and removed, twice, all at the same time; storefronts added and removed
// while they are read; a test sandbox reset while its test keys read it. Every answer is one a client can
// act on (no 5xx) and the server logs no error. Not part of `npm test`: run with E2E_STRESS=1 (docs/testing.md).
// The races these runs found are listed in docs/testing.md, most with a test that builds the interleaving.
import { readFileSync, statSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { E2E_SERVER_LOG } from '../log-locations-reporter';
import { admin, API, bearer, newAccount } from '../helpers';

const SECONDS = Number(process.env.STRESS_SECONDS ?? 60);

/** Counts of answers by call and status, e.g. "remove app 404". */
function tally() {
  const counts = new Map<string, number>();
  return {
    record: (call: string, status: number): void =>
      void counts.set(`${call} ${status}`, (counts.get(`${call} ${status}`) ?? 0) + 1),
    serverErrors: () => [...counts].filter(([key]) => / 5\d\d$/.test(key)).map(([key, count]) => `${key}: ${count}`),
    report: () =>
      [...counts]
        .sort()
        .map(([key, count]) => `${key}: ${count}`)
        .join('\n'),
  };
}

/** The error lines (pino level 50 and above) the e2e server logs from `offset` on. */
function serverErrorsSince(offset: number): string[] {
  return readFileSync(E2E_SERVER_LOG)
    .subarray(offset)
    .toString('utf8')
    .split('\n')
    .filter((line) => /"level":(5|6)\d,/.test(line));
}

async function forSeconds(workers: (() => Promise<void>)[]): Promise<void> {
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    workers.map(async (work) => {
      while (Date.now() < end) await work();
    }),
  );
}

test.beforeEach(() => test.setTimeout((SECONDS + 120) * 1000));

test('keys, webhook endpoints and the plan change while the keys are used', async () => {
  const logOffset = statSync(E2E_SERVER_LOG).size;
  const { session, email } = await newAccount('enterprise');
  const { context } = session;
  const owner = bearer(session.token);
  const appId = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000002',
  );
  const keys: { id: string; secret: string }[] = [];
  for (let index = 0; index < 4; index++) {
    const made = await (
      await context.post(`${API}/keys`, { headers: owner, data: { name: `stress ${index}`, scope: 'read-write' } })
    ).json();
    keys.push({ id: made.key.id, secret: made.secret });
  }
  const answers = tally();
  let n = 0;
  await forSeconds([
    ...keys.map(
      (key) => async () =>
        answers.record('read', (await context.get(`${API}/apps/${appId}`, { headers: bearer(key.secret) })).status()),
    ),
    ...keys.map(
      (key) => async () =>
        answers.record(
          'research',
          (
            await context.get(`${API}/apps/${appId}/keywords/research?term=focus`, { headers: bearer(key.secret) })
          ).status(),
        ),
    ),
    async () => {
      const key = keys[n++ % keys.length]!;
      answers.record(
        'budget',
        (
          await context.patch(`${API}/keys/${key.id}`, {
            headers: owner,
            data: { restrictions: { monthlyBudget: n % 2 ? null : 1_000_000 } },
          })
        ).status(),
      );
    },
    async () =>
      answers.record(
        'rename',
        (
          await context.patch(`${API}/keys/${keys[n % keys.length]!.id}`, {
            headers: owner,
            data: { name: `stress ${n++}` },
          })
        ).status(),
      ),
    async () => {
      const made = await context.post(`${API}/keys`, {
        headers: owner,
        data: { name: `churn ${n++}`, scope: 'read-only' },
      });
      answers.record('create key', made.status());
      if (!made.ok()) return;
      const key = await made.json();
      const [read, rolled] = await Promise.all([
        context.get(`${API}/apps/${appId}`, { headers: bearer(key.secret) }),
        context.post(`${API}/keys/${key.key.id}/roll`, { headers: owner, data: { gracePeriod: 'now' } }),
      ]);
      answers.record('read while rolled', read.status());
      answers.record('roll', rolled.status());
      if (rolled.ok())
        answers.record(
          'revoke',
          (await context.post(`${API}/keys/${(await rolled.json()).key.id}/revoke`, { headers: owner })).status(),
        );
    },
    async () => {
      const made = await context.post(`${API}/webhook-endpoints`, {
        headers: owner,
        data: { url: `http://127.0.0.1:9/stress-${n++}` },
      });
      answers.record('endpoint', made.status());
      if (!made.ok()) return;
      const { id } = (await made.json()).endpoint;
      const [tested, changed, deleted] = await Promise.all([
        context.post(`${API}/webhook-endpoints/${id}/test-events`, { headers: owner }),
        context.patch(`${API}/webhook-endpoints/${id}`, { headers: owner, data: { enabled: false } }),
        context.delete(`${API}/webhook-endpoints/${id}`, { headers: owner }),
      ]);
      answers.record('test event while deleted', tested.status());
      answers.record('change while deleted', changed.status());
      answers.record('delete endpoint', deleted.status());
    },
    async () =>
      answers.record(
        'keywords',
        (
          await context.post(`${API}/apps/${appId}/keywords`, {
            headers: bearer(keys[0]!.secret),
            data: { terms: [`stress term ${n++}`] },
          })
        ).status(),
      ),
    async () =>
      answers.record('usage', (await context.get(`${API}/usage`, { headers: bearer(keys[1]!.secret) })).status()),
    async () =>
      answers.record(
        'plan',
        await admin('plan', 'set', '--email', email, '--plan', n++ % 2 ? 'agency' : 'enterprise').then(
          () => 200,
          () => 500,
        ),
      ),
  ]);
  console.log(answers.report());
  expect(answers.serverErrors()).toEqual([]);
  expect(serverErrorsSince(logOffset)).toEqual([]);
});

test('apps added, used and removed at once', async () => {
  const logOffset = statSync(E2E_SERVER_LOG).size;
  const { session } = await newAccount('enterprise');
  const { context } = session;
  const made = await (
    await context.post(`${API}/keys`, {
      headers: bearer(session.token),
      data: { name: 'stress apps', scope: 'read-write' },
    })
  ).json();
  const key = bearer(made.secret);
  const answers = tally();
  let n = 0;
  const round = async () => {
    const storeId = 1_500_000_100 + (n++ % 50);
    const added = await context.post(`${API}/apps`, {
      headers: key,
      data: { storeUrl: `https://apps.apple.com/us/app/stress/id${storeId}` },
    });
    answers.record('add app', added.status());
    if (!added.ok()) return;
    const { id } = await added.json();
    const calls: [string, () => Promise<number>][] = [
      [
        'keywords',
        async () =>
          (
            await context.post(`${API}/apps/${id}/keywords`, {
              headers: key,
              data: { terms: [`stress ${n}`, `more ${n}`] },
            })
          ).status(),
      ],
      [
        'keywords in DE',
        async () =>
          (
            await context.post(`${API}/apps/${id}/keywords`, {
              headers: key,
              data: { terms: [`stress ${n}`], country: 'DE' },
            })
          ).status(),
      ],
      [
        'competitor',
        async () =>
          (
            await context.post(`${API}/apps/${id}/competitors`, {
              headers: key,
              data: { storeUrl: `https://apps.apple.com/us/app/rival/id${storeId + 1000}` },
            })
          ).status(),
      ],
      ['read in FR', async () => (await context.get(`${API}/apps/${id}?country=FR`, { headers: key })).status()],
      ['read keywords', async () => (await context.get(`${API}/apps/${id}/keywords`, { headers: key })).status()],
      ['remove app', async () => (await context.post('/api/trpc/apps.remove', { data: { id } })).status()],
      ['remove app again', async () => (await context.post('/api/trpc/apps.remove', { data: { id } })).status()],
    ];
    await Promise.all(calls.map(async ([call, send]) => answers.record(call, await send())));
  };
  await forSeconds(Array.from({ length: 4 }, () => round));
  console.log(answers.report());
  expect(answers.serverErrors()).toEqual([]);
  expect(serverErrorsSince(logOffset)).toEqual([]);
});

test('storefronts added and removed while read, and a test sandbox reset while its keys read it', async () => {
  const logOffset = statSync(E2E_SERVER_LOG).size;
  const { session, email } = await newAccount('enterprise');
  const { context } = session;
  const appId = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000002',
  );
  const live = (
    await (
      await context.post(`${API}/keys`, {
        headers: bearer(session.token),
        data: { name: 'stress live', scope: 'read-write' },
      })
    ).json()
  ).secret;
  const testMode = { ...bearer(session.token), 'X-Test-Mode': 'true' };
  const testKey = (
    await (
      await context.post(`${API}/keys`, { headers: testMode, data: { name: 'stress test', scope: 'read-write' } })
    ).json()
  ).secret;
  const countries = ['FR', 'DE', 'GB', 'IT'];
  const answers = tally();
  let n = 0;
  await forSeconds([
    async () =>
      answers.record(
        'read storefront',
        (await context.get(`${API}/apps/${appId}?country=${countries[n++ % 4]}`, { headers: bearer(live) })).status(),
      ),
    async () =>
      answers.record(
        'read storefront keywords',
        (
          await context.get(`${API}/apps/${appId}/keywords?country=${countries[n++ % 4]}`, { headers: bearer(live) })
        ).status(),
      ),
    async () =>
      answers.record(
        'add storefront',
        (
          await context.post('/api/trpc/apps.addStorefront', { data: { id: appId, country: countries[n++ % 4] } })
        ).status(),
      ),
    async () =>
      answers.record(
        'remove storefront',
        (
          await context.post('/api/trpc/apps.removeStorefront', { data: { id: appId, country: countries[n++ % 4] } })
        ).status(),
      ),
    async () => {
      const apps = await context.get(`${API}/apps`, { headers: bearer(testKey) });
      answers.record('test apps', apps.status());
      if (!apps.ok()) return;
      const [first] = (await apps.json()) as { id: string }[];
      if (first)
        answers.record(
          'test app',
          (await context.get(`${API}/apps/${first.id}/keywords`, { headers: bearer(testKey) })).status(),
        );
    },
    async () =>
      answers.record(
        'test app added',
        (
          await context.post(`${API}/apps`, {
            headers: bearer(testKey),
            data: { storeUrl: `https://apps.apple.com/us/app/sandbox/id${1_500_000_300 + (n++ % 20)}` },
          })
        ).status(),
      ),
    async () =>
      answers.record('reset sandbox', (await context.post('/api/trpc/account.resetTestData', { data: {} })).status()),
  ]);
  console.log(answers.report());
  expect(answers.serverErrors()).toEqual([]);
  expect(serverErrorsSince(logOffset)).toEqual([]);
});
