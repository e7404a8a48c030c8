// The typed client's generated half is what `npm run client:generate` writes from today's document: a change of the
// contract without a regeneration fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { CLIENT_SOURCES, clientSources } from '../scripts/generate-client';

it('the committed client is generated from the current OpenAPI document', async () => {
  for (const [name, text] of Object.entries(await clientSources())) {
    expect(
      readFileSync(path.join(CLIENT_SOURCES, name), 'utf8') === text,
      `clients/typescript/src/${name} is stale: run npm run client:generate`,
    ).toBe(true);
  }
});
