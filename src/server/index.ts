// What the Next.js app (src/app) uses of the server: its one way in. Next.js does not bundle this; it loads the
// built file (dist/server/index.mjs) at run time (src/app/server-modules.ts), so that the app's server and the pages
// share one copy of every module in the process: one database pool, one response cache, one rate limiter.
export { handleDashboardTrpcRequest } from './dashboard/trpc-endpoint';
export { pageCaller, signedInActor } from './dashboard/page-caller';
export { appErrorOf } from './api/errors';
export { authOptions } from './auth/auth-options';
export { withParsableBody } from './auth/auth-route';
export { issueApiReferenceToken } from './auth/session-token';
export { clientIp } from './core/client-ip';
export { pageOrigin } from './core/origin';
export { apiReferenceScriptUrl } from './http/api-reference-script';
export { databaseHealth, readiness } from './db/health';
export { PROBLEM_TYPES, problemTypeBySlug } from './errors/problem-types';
export { MCP_PATH } from './mcp/mcp-endpoint';
export { PROMPTS as MCP_PROMPTS } from './mcp/prompts';
export { mcpTools } from './mcp/catalogue';
export { DEFAULT_TOOLSETS as MCP_DEFAULT_TOOLSETS, TOOLSETS as MCP_TOOLSETS } from './mcp/toolsets';
export { oauthConsentRequest } from './oauth/consent-request';
export { methodNotAllowedProblem, problemAnswer } from './errors/problem-response';
export { PLAN_TIERS, PLANS } from './services/accounts/plans';
export { STOREFRONT_COUNTRIES } from './domain/countries';
export { newTrial } from './services/accounts/trials';
export { handleStripeWebhook } from './services/billing/stripe-events';
export { EVENT_DESCRIPTIONS, EVENT_TYPES } from './services/events/event-kinds';
export {
  RETENTION_DAYS as SECURITY_LOG_RETENTION_DAYS,
  SECURITY_EVENT_KINDS,
  SECURITY_EVENT_LABELS,
} from './services/security-log/security-log';
export { USAGE_LEDGER_DAYS } from './services/metering/credits';
export { REQUESTS_PER_MINUTE } from './services/limits/request-rates';
export { RETRY_DELAYS_SECONDS, TIMEOUT_MS } from './services/webhooks/delivery';
export { TOLERANCE_SECONDS } from './services/webhooks/signing';
export { VERIFICATION_SNIPPETS } from './services/webhooks/verification-snippets';
export { declaredCredits } from './api/declared-costs';
export { dataDictionary } from './contract/data-dictionary';
export { agentsGuide } from './contract/agents-guide';
export { mcpServerJson } from './contract/mcp-server-json';
export { API_VERSIONS, LATEST_VERSION, VERSION_CHANGES } from './domain/api-versions';
export { roleTable } from './api/role-table';
export { MEMBER_ROLES, PERMISSIONS, ROLE_LABELS, ROLE_PERMISSIONS, roleAllows } from './services/access/roles';
export { REPLY_LIMITS } from './services/store-accounts/reply-drafts';
export { DATASET_DEFINITIONS, DATASETS } from './services/exports/datasets';
export { EXPORT_FILE_DAYS, MAX_EXPORT_DAYS, ROWS_PER_CREDIT } from './services/exports/exports';
export { INVITABLE_ROLES, INVITATION_DAYS, INVITATION_REFUSALS } from './services/accounts/members';
