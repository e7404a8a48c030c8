// The server.json is valid as the official MCP registry reads one: a schema written here from the registry's published
// reference (docs/reference/server-json in modelcontextprotocol/registry, version 2025-12-11), its rules for a remote
// server, checked by ajv as the registry's own validation does.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { TOOLSET_NAMES } from '@/server/mcp/toolsets';
import { mcpServerJson, SERVER_JSON_SCHEMA } from './mcp-server-json';

const keyValueInput = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    description: { type: 'string' },
    isRequired: { type: 'boolean' },
    isSecret: { type: 'boolean' },
    value: { type: 'string' },
    default: { type: 'string' },
    choices: { type: 'array', items: { type: 'string' } },
  },
};
const serverJsonSchema = {
  type: 'object',
  required: ['name', 'description', 'version'],
  properties: {
    $schema: { type: 'string', format: 'uri' },
    name: { type: 'string', pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$', minLength: 3, maxLength: 200 },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    // A specific version: no range, not "latest".
    version: { type: 'string', maxLength: 255, not: { pattern: '^(latest|[~^<>=].*|.*[x*]$)' } },
    websiteUrl: { type: 'string', format: 'uri' },
    remotes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'url'],
        properties: {
          type: { enum: ['streamable-http', 'sse'] },
          url: { type: 'string', pattern: '^(https?://|\\{)' },
          headers: { type: 'array', items: keyValueInput },
        },
      },
    },
  },
};

describe('server.json', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(serverJsonSchema);

  it('is valid for the registry, naming this deployment’s MCP server and its headers', () => {
    const json = mcpServerJson('https://aso.example.com', '/api/mcp');
    expect(validate(json) ? [] : validate.errors).toEqual([]);
    expect(json).toMatchObject({
      $schema: SERVER_JSON_SCHEMA,
      name: 'com.example.aso/aso-analytics',
      remotes: [{ type: 'streamable-http', url: 'https://aso.example.com/api/mcp' }],
    });
    // The toolsets it names are the server's.
    const toolsets = json.remotes[0]!.headers.find((header) => header.name === 'X-MCP-Toolsets')!.description;
    for (const name of TOOLSET_NAMES) expect(toolsets).toContain(name);
  });

  it('is refused by the same schema when a rule is broken, so the check can fail', () => {
    const json = mcpServerJson('https://aso.example.com', '/api/mcp');
    expect(validate({ ...json, name: 'no-namespace' })).toBe(false);
    expect(validate({ ...json, description: 'x'.repeat(101) })).toBe(false);
    expect(validate({ ...json, version: '^1.0.0' })).toBe(false);
    expect(validate({ ...json, remotes: [{ type: 'stdio', url: 'x' }] })).toBe(false);
  });
});
