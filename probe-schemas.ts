import { z } from 'zod';
import { getInputOutputParsers } from 'trpc-to-openapi';
import { appRouter } from '@/server/api/root';
import { buildRoutes } from '@/server/rest/routes';
const routes = buildRoutes(appRouter).filter((r) => r.meta.scope !== 'admin');
const override = (ctx: any) => { const m = (ctx.zodSchema as any).meta?.(); if (typeof m?.override === 'function') m.override(ctx); };
for (const r of routes) {
  const procedure = (appRouter._def.procedures as any)[r.procedurePath];
  const out = getInputOutputParsers(procedure).outputParser as z.ZodType;
  try {
    const i = z.toJSONSchema(r.input, { io: 'input', unrepresentable: 'any', override });
    const o = z.toJSONSchema(out, { io: 'output', unrepresentable: 'any', override });
    console.log(r.method, r.template, r.procedurePath, JSON.stringify(i).length, (o as any).type, JSON.stringify(o).length, r.meta.paging ? JSON.stringify(r.meta.paging) : '');
  } catch (e) { console.log('FAIL', r.template, (e as Error).message); }
}
const r = routes.find((x) => x.template === '/apps/{id}/reviews')!;
console.log(JSON.stringify(z.toJSONSchema(r.input, { io: 'input', unrepresentable: 'any', override }), null, 1).slice(0, 1500));
const g = routes.find((x) => x.template === '/apps/{id}')!;
const proc = (appRouter._def.procedures as any)[g.procedurePath];
console.log(JSON.stringify(z.toJSONSchema(getInputOutputParsers(proc).outputParser as z.ZodType, { io: 'output', unrepresentable: 'any', override })).slice(0, 600));
