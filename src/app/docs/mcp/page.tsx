// /docs/mcp: the MCP server for AI assistants: its URL here, the two ways to connect (signing in with OAuth, or an API
// key) with copy-paste configuration for the common clients, how credits, scopes and restrictions apply, and its tools
// and prompts, listed from the same source as the server's own.
import Link from 'next/link';
import { DocsIntro } from '@/components/docs/docs-intro';
import { serverModules } from '@/app/server-modules';
import { TableScroll } from '@/components/common/table-scroll';
import { CodeBlock } from '@/components/common/code-block';

export const metadata = { title: 'MCP server · ASO Analytics API' };
export const dynamic = 'force-dynamic';

export default async function McpDocsPage() {
  const { pageOrigin, MCP_PATH, MCP_PROMPTS, MCP_TOOLSETS, MCP_DEFAULT_TOOLSETS, mcpTools } = await serverModules();
  const url = `${pageOrigin()}${MCP_PATH}`;
  const tools = mcpTools();
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  return (
    <main>
      <DocsIntro title="MCP server">
        <p>
          AI assistants (Claude, ChatGPT, Cursor, VS Code and any other client of the Model Context Protocol) can use
          your ASO data through our MCP server. Every endpoint of the public API is a typed tool, made from the same
          code, charged the same credits, under every restriction of the key it uses. Its address here is:
        </p>
        <CodeBlock testId="mcp-url" code={url} />
        <p>
          It speaks Streamable HTTP and keeps no session: any request may go to any of our servers. Every request, the
          first one included, carries a credential in the <code>Authorization</code> header, never in the URL. There are
          two ways to get one:
        </p>
        <ul>
          <li>
            <strong>Sign in (OAuth), for clients that support it</strong> (Claude, ChatGPT and VS Code connectors, the
            MCP Inspector): add the URL above and nothing else. The client finds our sign-in from the server’s first
            answer, registers itself, and opens our sign-in and consent page, where you choose what it may do, which
            apps it reaches and an optional monthly budget. No secret is pasted anywhere. The connection is listed under{' '}
            <Link href="/settings/api">Settings → API access</Link>, where you can restrict or revoke it at once.
          </li>
          <li>
            <strong>An API key, for every client</strong>: create one under{' '}
            <Link href="/settings/api">Settings → API access</Link> (a read-only key for an assistant that only reads, a
            key restricted to some apps or with a monthly budget to keep it within bounds) and send it as below.
          </li>
        </ul>

        <h2>Signing in with OAuth</h2>
        <p>
          Our sign-in is OAuth 2.1: the authorization code flow with PKCE (S256), dynamic client registration, refresh
          tokens that change on every use, and access tokens valid for an hour and for this MCP server only (the REST
          API refuses them). A client that follows the MCP authorization specification needs no configuration beyond the
          URL:
        </p>
        <CodeBlock testId="config-claude-code-oauth" code={`claude mcp add --transport http aso-analytics ${url}`} />
        <ul>
          <li>
            <strong>Claude</strong> (claude.ai and Claude Desktop): Settings → Connectors → Add custom connector, with
            the URL above.
          </li>
          <li>
            <strong>ChatGPT</strong>: Settings → Connectors → Create (developer mode), with the URL above and OAuth.
            Deep research and connectors call the <code>search</code> and <code>fetch</code> tools, which are in the
            default toolsets.
          </li>
          <li>
            <strong>VS Code</strong>:{' '}
            <code>{`{ "servers": { "aso-analytics": { "type": "http", "url": "${url}" } } }`}</code> in{' '}
            <code>.vscode/mcp.json</code>; <strong>Cursor</strong>:{' '}
            <code>{`{ "mcpServers": { "aso-analytics": { "url": "${url}" } } }`}</code>; each opens the sign-in on first
            use.
          </li>
        </ul>
        <ul>
          <li>
            The server’s 401 names its metadata (
            <code>{`${pageOrigin()}/.well-known/oauth-protected-resource${MCP_PATH}`}</code>), which names the
            authorization server (<code>{`${pageOrigin()}/.well-known/oauth-authorization-server`}</code>).
          </li>
          <li>
            Scopes: <code>read-only</code> (the read tools) and <code>read-write</code> (the write tools too), as a
            key’s. The consent page offers read-only always, and read-write when the client asked for it; the token’s
            scope is what you chose.
          </li>
          <li>
            A connection spends your account’s credits, charged as a key’s, within its own budget if you gave it one.
            Its calls are in GET /usage and in the security log.
          </li>
          <li>
            Revoking it refuses its access token from the next call and its refresh token at once. A refresh token used
            twice (a sign that it was copied) revokes the whole connection.
          </li>
        </ul>

        <h2>Configuration with an API key</h2>
        <h3>Claude Code</h3>
        <CodeBlock
          testId="config-claude-code"
          code={`claude mcp add --transport http aso-analytics ${url} \\
  --header "Authorization: Bearer $ASO_API_KEY"`}
        />
        <h3>Claude Desktop</h3>
        <p>
          In <code>claude_desktop_config.json</code>, through the <code>mcp-remote</code> bridge, which sends the
          header:
        </p>
        <CodeBlock
          testId="config-claude-desktop"
          code={json({
            mcpServers: {
              'aso-analytics': {
                command: 'npx',
                args: ['-y', 'mcp-remote', url, '--header', 'Authorization:${ASO_AUTH}'],
                env: { ASO_AUTH: 'Bearer svc_live_…' },
              },
            },
          })}
        />
        <h3>VS Code</h3>
        <p>
          In <code>.vscode/mcp.json</code>; VS Code asks for the key once and keeps it in its secret storage:
        </p>
        <CodeBlock
          testId="config-vscode"
          code={json({
            servers: {
              'aso-analytics': { type: 'http', url, headers: { Authorization: 'Bearer ${input:aso-api-key}' } },
            },
            inputs: [{ type: 'promptString', id: 'aso-api-key', description: 'ASO Analytics API key', password: true }],
          })}
        />
        <h3>Cursor</h3>
        <p>
          In <code>~/.cursor/mcp.json</code> (or the project’s <code>.cursor/mcp.json</code>):
        </p>
        <CodeBlock
          testId="config-cursor"
          code={json({
            mcpServers: { 'aso-analytics': { url, headers: { Authorization: 'Bearer ${env:ASO_API_KEY}' } } },
          })}
        />
        <h3>MCP Inspector</h3>
        <CodeBlock
          testId="config-inspector"
          code={`npx @modelcontextprotocol/inspector --cli ${url} --transport http \\
  --header "Authorization: Bearer $ASO_API_KEY" --method tools/list`}
        />

        <h2>For agents and registries</h2>
        <ul>
          <li>
            <Link href="/docs/agents.md">AGENTS.md</Link>: how an agent uses this API and server well (what each call
            costs, what the data means, which refusals to retry), in Markdown, for an agent’s context or a repository.
          </li>
          <li>
            <a href="/docs/mcp/server.json">server.json</a>: this server as the official MCP registry describes one (
            <code>mcp-publisher publish</code> takes it as it is).
          </li>
          <li>
            Protocol revisions: the 2025 handshake (<code>initialize</code>) and the 2026-07-28 revision (
            <code>server/discover</code>, the per-request envelope, caching hints on the lists) are both served, by the
            same tools with the same charges.
          </li>
        </ul>

        <h2>Credits, scopes and restrictions</h2>
        <ul>
          <li>
            A tool call costs what its endpoint costs (in each tool’s description and its <code>_meta.credits</code>),
            charged only when it succeeds; refusals and failures are free. GET /usage counts a tool’s calls as{' '}
            <code>mcp &lt;tool&gt;</code>.
          </li>
          <li>
            Each result carries, in <code>_meta</code>, the credits it charged and those left this month, and the
            request id to quote to support.
          </li>
          <li>
            A read-only key is offered the read tools only; a key restricted to some apps reaches those apps only, and
            is not offered the tool that adds an app. The key’s client addresses, monthly budget and requests per minute
            hold as on REST.
          </li>
          <li>
            A refusal is a tool error (<code>isError: true</code>) whose text is the problem REST would answer, as JSON:{' '}
            <code>type</code>, <code>code</code>, <code>status</code>, <code>detail</code>, and <code>resetsAt</code> or{' '}
            <code>retryAfter</code> (seconds) where they apply. See <Link href="/docs/problems">the problem types</Link>
            .
          </li>
          <li>
            Write tools take an optional <code>idempotencyKey</code>: a repeat with the same key and arguments within 24
            hours is answered as the first was, and charged once.
          </li>
          <li>
            Long lists come whole, or one page at a time with <code>page</code> and <code>pageSize</code>; a paged
            result says how to get the next page.
          </li>
          <li>There are no tools for keys, webhook endpoints or billing: an assistant never manages your account.</li>
        </ul>

        <h2 id="test-mode">Test mode</h2>
        <p data-testid="mcp-test-mode">
          A <code>svc_test_</code> key connects an assistant to your account’s test sandbox instead: its sample apps,
          its own allowance and request rate, never your live credits or data (see{' '}
          <Link href="/docs#test-mode">Test mode</Link>). Every result then carries <code>_meta.livemode: false</code>.
          Send the <code>X-Test-Trigger</code> header with a tool call to get the refusal your agent must handle, as a
          tool error with the problem REST would answer, for example:
        </p>
        <CodeBlock
          testId="config-test-mode"
          code={`npx @modelcontextprotocol/inspector --cli ${url} --transport http \\
  --header "Authorization: Bearer svc_test_…" --header "X-Test-Trigger: credits-exhausted" \\
  --method tools/call --tool-name apps_list`}
        />

        <h2 id="toolsets">Toolsets and read-only mode</h2>
        <p>
          Every tool’s definition is in the assistant’s context in every conversation, so the server offers a few
          toolsets unless asked for more. Choose them with the <code>X-MCP-Toolsets</code> header (comma-separated;{' '}
          <code>all</code> for every one, <code>default</code> for the default ones beside others) or the URL’s{' '}
          <code>?toolsets=</code>, and only the read tools with <code>X-MCP-Readonly: true</code> or{' '}
          <code>?readonly=true</code>. A read-only key or sign-in is offered no write tool whatever it asks. A name that
          is no toolset is refused (400) with the names there are.
        </p>
        <CodeBlock
          testId="config-toolsets"
          code={`claude mcp add --transport http aso-analytics "${url}?toolsets=default,reviews,research&readonly=true" \
  --header "Authorization: Bearer $ASO_API_KEY"`}
        />
        <TableScroll label="MCP toolsets">
          <table data-testid="mcp-toolsets">
            <thead>
              <tr>
                <th>Toolset</th>
                <th>Its tools</th>
                <th>Default</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(MCP_TOOLSETS).map(([name, toolset]) => (
                <tr key={name}>
                  <td>
                    <code>{name}</code>
                  </td>
                  <td>
                    {toolset.description}{' '}
                    {toolset.tools.map((tool, index) => (
                      <span key={tool}>
                        {index > 0 && ', '}
                        <code>{tool}</code>
                      </span>
                    ))}
                  </td>
                  <td>{(MCP_DEFAULT_TOOLSETS as readonly string[]).includes(name) ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
        <p>
          <code>search_docs</code> and <code>fetch_doc</code> read these docs (the reference, the problem types, the
          data dictionary, the changelog) and are free. <code>search</code> and <code>fetch</code> find and read your
          own apps and keywords in the shapes ChatGPT’s connectors and deep research call, charged as{' '}
          <code>GET /search</code> and <code>GET /search/{'{id}'}</code>. A result’s text is a short summary; the values
          are its structured content, which matches the tool’s output schema, and it links the app and keywords it
          names.
        </p>

        <h2>Tools</h2>
        <TableScroll label="MCP tools">
          <table data-testid="mcp-tools">
            <thead>
              <tr>
                <th>Tool</th>
                <th>Toolset</th>
                <th>What it does</th>
                <th>Credits</th>
                <th>Key</th>
                <th>REST</th>
              </tr>
            </thead>
            <tbody>
              {tools.map((tool) => (
                <tr key={tool.name}>
                  <td>
                    <code>{tool.name}</code>
                  </td>
                  <td>{tool.toolset}</td>
                  <td>{tool.title}</td>
                  <td>{tool._meta.credits}</td>
                  <td>{tool._meta.scope === 'write' ? 'read-write' : 'any'}</td>
                  <td>{tool._meta.restEndpoint ? <code>{tool._meta.restEndpoint}</code> : 'none (docs)'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>

        <h2>Prompts</h2>
        <ul data-testid="mcp-prompts">
          {MCP_PROMPTS.map(({ definition }) => (
            <li key={definition.name}>
              <code>{definition.name}</code>: {definition.description}
            </li>
          ))}
        </ul>
      </DocsIntro>
    </main>
  );
}
