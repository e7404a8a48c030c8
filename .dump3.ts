import { buildCollection } from './src/server/rest/collection';
const c = await buildCollection('http://localhost:3000') as any;
for (const f of c.item) { console.log('#', f.name); for (const i of f.item) console.log('  ', i.name, i.request.method, JSON.stringify(i.request.url.query ?? []).slice(0, 200), i.request.body?.raw?.slice(0,80) ?? ''); }
