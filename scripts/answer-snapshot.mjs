// Every GET answer of the public API about an account's apps, in one JSON file: run against a server before a
// migration of stored data and after it, the two files must be the same (docs/testing.md, "A data migration's
// answers"). `node scripts/answer-snapshot.mjs <origin> <api key> <file>`, e.g. http://localhost:3000.
import { writeFileSync } from 'node:fs';

const [origin, key, file] = process.argv.slice(2);
if (!origin || !key || !file) {
  console.error('usage: node scripts/answer-snapshot.mjs <origin> <api key> <file>');
  process.exit(1);
}

const answers = {};
async function read(path) {
  const response = await fetch(`${origin}/api/public/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  const text = await response.text();
  answers[path] = {
    status: response.status,
    body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
  return answers[path].body;
}

const APP_READS = [
  '',
  '/keywords',
  '/keywords?rankWindow=90d',
  '/aso-score',
  '/category-rank?days=365',
  '/rating-history',
  '/reviews?pageSize=100',
  '/reviews?sort=lowest&pageSize=50',
  '/reviews/insights',
  '/metadata',
  '/metadata/changelog',
  '/keyword-spy',
  '/opportunities',
  '/competitors',
];
const STOREFRONT_READS = [
  '/keywords',
  '/metadata',
  '/metadata/changelog',
  '/keyword-spy',
  '/opportunities',
  '/category-rank?days=365',
];

const apps = await read('/apps');
for (const app of Array.isArray(apps) ? apps : apps.items) {
  for (const suffix of APP_READS) await read(`/apps/${app.id}${suffix}`);
  for (const country of app.storefronts ?? [app.primaryCountry]) {
    for (const suffix of STOREFRONT_READS)
      await read(`/apps/${app.id}${suffix}${suffix.includes('?') ? '&' : '?'}country=${country}`);
  }
  const keywords = answers[`/apps/${app.id}/keywords`].body;
  for (const keyword of Array.isArray(keywords) ? keywords : keywords.items) {
    await read(`/apps/${app.id}/keywords/${keyword.keywordId}/history?days=365`);
    await read(`/apps/${app.id}/keywords/${keyword.keywordId}/metrics-history?days=365`);
  }
}
writeFileSync(file, `${JSON.stringify(answers, null, 1)}\n`);
const failed = Object.entries(answers).filter(([, answer]) => answer.status !== 200);
console.log(
  `${Object.keys(answers).length} answers in ${file}${failed.length ? `; not 200: ${failed.map(([path, answer]) => `${path} (${answer.status})`).join(', ')}` : ''}`,
);
