// /docs/agents.md says what the reference says: every data operation with its cost, every problem kind, the versions.
import { describe, expect, it } from 'vitest';
import { PROBLEM_TYPES } from '@/server/errors/problem-types';
import { API_VERSIONS } from '@/server/domain/api-versions';
import { agentsGuide } from './agents-guide';
import { openApiDocumentJson } from './document';

describe('agentsGuide', () => {
  const origin = 'https://aso.example.com';
  const guide = agentsGuide(origin, '/api/mcp');

  it('lists every data operation with its credits, and no settings operation', () => {
    const document = JSON.parse(openApiDocumentJson(origin)) as {
      paths: Record<string, Record<string, { 'x-credits': number; 'x-scope': string }>>;
    };
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item)) {
        const row = `| \`${method.toUpperCase()} ${path}\` |`;
        if (operation['x-scope'] === 'admin') expect(guide).not.toContain(row);
        else
          expect(guide).toMatch(
            new RegExp(`${row.replace(/[|{}()[\]\\^$.*+?]/g, '\\$&')}[^\\n]*\\| ${operation['x-credits']} \\|`),
          );
      }
  });

  it('names the addresses, every problem kind, the versions and the toolsets', () => {
    expect(guide).toContain(`${origin}/api/public/v1/openapi.json`);
    expect(guide).toContain(`${origin}/api/mcp`);
    for (const type of Object.values(PROBLEM_TYPES)) expect(guide).toContain(`\`${type.slug}\``);
    for (const version of API_VERSIONS) expect(guide).toContain(version);
    expect(guide).toContain('X-MCP-Toolsets');
  });
});
