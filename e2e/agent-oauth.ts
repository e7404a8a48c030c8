// An agent's side of OAuth against the MCP server (the SDK's own client: discovery, registration, PKCE, the token
// exchange), kept in memory as an agent keeps it in its settings: for the e2e tests that connect an agent with the
// owner's sign-in and consent in the browser.
import { StreamableHTTPClientTransport, type Client, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { baseURL } from '../playwright.config';

/** Where the agent says it listens for the code: nothing listens there; the test reads the browser's request to it. */
export const REDIRECT = 'http://127.0.0.1:48123/callback';

/** The agent's side of OAuth, kept in memory as an agent would keep it in its settings. */
export class AgentOAuth implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private information: Awaited<ReturnType<OAuthClientProvider['clientInformation']>>;
  private saved: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  private verifier = '';
  private discovery: Awaited<ReturnType<NonNullable<OAuthClientProvider['discoveryState']>>>;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: 'E2E agent',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: NonNullable<typeof this.information>) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: NonNullable<typeof this.saved>) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  // Kept beside the verifier: the SDK checks on the way back that the code comes from the server it started with.
  saveDiscoveryState(state: NonNullable<typeof this.discovery>) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

export const transportFor = (oauth: AgentOAuth) =>
  new StreamableHTTPClientTransport(new URL(`${baseURL}/api/mcp`), { authProvider: oauth });
export const problemOf = (result: Awaited<ReturnType<Client['callTool']>>) =>
  JSON.parse((result.content as { text: string }[])[0]!.text) as { code: string };
