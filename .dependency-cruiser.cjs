// The layers of the server, enforced (`npm run lint:deps`, part of `npm test`). Each layer imports only from the
// layers below it (docs/architecture.md):
//
//   core (config, log, errors)  ←  data (Prisma, SQL)  ←  domain services  ←  api (tRPC)  ←  operations (a call's
//   steps, src/server/operations/)  ←  contract (the OpenAPI document, its examples, the data dictionary, the docs'
//   corpus, src/server/contract/)  ←  channels (REST, MCP, the dashboard, OAuth) and the server
//
// The channels translate; they share nothing but the layers below them: REST and MCP never import each other.
//
// The Next.js app (src/app, src/components) reaches the server through src/app/server-modules.ts alone, and imports
// nothing else of it but types.
const LAYERS = {
  core: '^src/server/(core|errors)/',
  data: '^src/(server/db|generated)/',
  domain: '^src/server/(services|auth|domain|nlp)/',
  api: '^src/server/api/',
  operations: '^src/server/operations/',
  contract: '^src/server/contract/',
  channels: '^src/server/(rest|mcp|dashboard|oauth|http|runtime)/|^src/server/(main|index)[.]ts$',
};
const above = {
  core: [LAYERS.data, LAYERS.domain, LAYERS.api, LAYERS.operations, LAYERS.contract, LAYERS.channels],
  data: [LAYERS.domain, LAYERS.api, LAYERS.operations, LAYERS.contract, LAYERS.channels],
  domain: [LAYERS.api, LAYERS.operations, LAYERS.contract, LAYERS.channels],
  api: [LAYERS.operations, LAYERS.contract, LAYERS.channels],
  operations: [LAYERS.contract, LAYERS.channels],
  contract: [LAYERS.channels],
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...Object.entries(above).map(([layer, higher]) => ({
      name: `${layer}-imports-up`,
      comment: `The ${layer} layer imports only from the layers below it.`,
      severity: 'error',
      from: { path: LAYERS[layer] },
      to: { path: higher.join('|') },
    })),
    {
      name: 'rest-and-mcp-apart',
      comment: 'REST and MCP are channels side by side: what both need is in src/server/operations/ or below.',
      severity: 'error',
      from: { path: '^src/server/rest/' },
      to: { path: '^src/server/mcp/' },
    },
    {
      name: 'mcp-and-rest-apart',
      comment: 'REST and MCP are channels side by side: what both need is in src/server/operations/ or below.',
      severity: 'error',
      from: { path: '^src/server/mcp/' },
      to: { path: '^src/server/rest/' },
    },
    {
      name: 'services-know-no-trpc-or-http-framework',
      comment: 'Domain services know nothing of tRPC or of the HTTP server.',
      severity: 'error',
      from: { path: `${LAYERS.core}|${LAYERS.data}|${LAYERS.domain}` },
      to: { path: '^node_modules/(@trpc|trpc-to-openapi)/' },
    },
    {
      name: 'app-through-server-modules',
      comment: 'src/app and src/components use the server through src/app/server-modules.ts (types aside).',
      severity: 'error',
      from: { path: '^src/(app|components)/', pathNot: '^src/app/server-modules[.]ts$' },
      to: { path: '^src/(server|generated)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      comment: 'No import cycles.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]test[.]ts$|^src/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
