// The MCP server's `server.json`, as the official MCP registry takes it (its schema 2025-12-11,
// https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json): the remote server of this deployment,
// its headers and where its docs are. Served at /docs/mcp/server.json, for `mcp-publisher publish` and for clients
// that read it; made from the origin, so each deployment's names its own address.
import { API_VERSIONS } from '@/server/domain/api-versions';

export const SERVER_JSON_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** `https://aso.example.com` → `com.example.aso`: the registry's names are reverse DNS of a domain the publisher holds. */
function reverseDns(origin: string): string {
  return new URL(origin).hostname.split('.').reverse().join('.');
}

export function mcpServerJson(origin: string, mcpPath: string) {
  return {
    $schema: SERVER_JSON_SCHEMA,
    name: `${reverseDns(origin)}/aso-analytics`,
    title: 'ASO Analytics',
    description: 'App store optimization data: tracked apps, keyword ranks, reviews, listings and competitors.',
    // The newest dated API version, as a version string the registry sorts (no range).
    version: API_VERSIONS.at(-1)!.replaceAll('-', '.'),
    websiteUrl: `${origin}/docs/mcp`,
    remotes: [
      {
        type: 'streamable-http',
        url: `${origin}${mcpPath}`,
        headers: [
          {
            name: 'Authorization',
            description:
              'Bearer and an API key (svc_live_…, or svc_test_… for the test sandbox); leave it out to sign in with OAuth instead.',
            isRequired: false,
            isSecret: true,
          },
          {
            name: 'X-MCP-Toolsets',
            description:
              'Toolsets to offer, comma-separated (apps, keywords, research, listing, reviews, competitors, usage, exports, docs, search, all); default apps, keywords, docs, search.',
            isRequired: false,
          },
          {
            name: 'X-MCP-Readonly',
            description: 'true to offer the read tools only.',
            isRequired: false,
          },
        ],
      },
    ],
  };
}
