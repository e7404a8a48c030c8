// The security log in words: each entry as a sentence ("dana@example.com restricted key “CI”: apps all → 2 apps"),
// the browser and system it came from, and its fields with human names for the details. The entries keep their data
// as recorded (the CSV export has it whole); only the reading changes here.
import { UAParser } from 'ua-parser-js';
import { formatInstant } from '@/components/format';
import type { SecurityEventView } from '@/server/services/security-log/security-log';

type Entry = Pick<SecurityEventView, 'kind' | 'actor' | 'actorType' | 'target' | 'before' | 'after'>;

const FIELD_NAMES: Record<string, string> = {
  name: 'name',
  scope: 'scope',
  expiresAt: 'expires',
  expiredAt: 'expired',
  restrictions: 'restrictions',
  appIds: 'apps',
  allowedCidrs: 'client addresses',
  monthlyBudget: 'monthly credit budget',
  status: 'status',
  key: 'key',
  previousKeyEndsAt: 'old secret ends',
  url: 'URL',
  description: 'description',
  eventTypes: 'events',
  enabled: 'enabled',
  previousSecretWorksUntil: 'previous secret signs until',
  sessionsEnded: 'sessions ended',
  plan: 'plan',
  reason: 'reason',
  role: 'role',
  resent: 'invitation sent again',
  clientId: 'client id',
  failures: 'failed sign-ins',
  withinMinutes: 'within minutes',
  newBrowsersWaitUpToSeconds: 'new browsers wait up to (seconds)',
  knownBrowsersSlowed: 'known browsers slowed',
};

/** A field's name as a reader says it: `monthlyBudget` → "monthly credit budget"; unknown ones split into words. */
export function fieldName(field: string): string {
  return FIELD_NAMES[field] ?? field.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** A recorded value in words: what null means depends on the field (no restriction, no expiry). */
/** A store's console, as its owner knows it. */
function storeConsole(store: unknown): string {
  return store === 'google_play' ? 'Google Play Console' : 'App Store Connect';
}

function fieldValue(field: string, value: unknown): string {
  if (value === null || value === undefined) {
    if (field === 'appIds') return 'all apps';
    if (field === 'allowedCidrs') return 'any address';
    if (field === 'monthlyBudget') return 'no budget';
    if (field === 'expiresAt') return 'never';
    return 'none';
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return value.toLocaleString('en-US');
  if (typeof value === 'string') return ISO_INSTANT.test(value) ? formatInstant(value) : value;
  if (Array.isArray(value)) {
    if (field === 'appIds') return value.length === 1 ? '1 app' : `${value.length} apps`;
    if (field === 'allowedCidrs' && value.length === 0) return 'any address';
    return value.length ? value.map((item) => fieldValue('', item)).join(', ') : 'none';
  }
  return Object.entries(value as Record<string, unknown>)
    .map(([inner, innerValue]) => `${fieldName(inner)} ${fieldValue(inner, innerValue)}`)
    .join(', ');
}

export interface FieldChange {
  field: string;
  before?: string;
  after?: string;
}

/** Each recorded field, nested ones (a key's restrictions) flattened, with its value before and after in words. */
export function fieldChanges(entry: Pick<Entry, 'before' | 'after'>): FieldChange[] {
  const flatten = (record: Record<string, unknown> | null) => {
    const flat: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(record ?? {})) {
      if (field === 'restrictions' && value && typeof value === 'object' && !Array.isArray(value))
        Object.assign(flat, value);
      else flat[field] = value;
    }
    return flat;
  };
  const before = flatten(entry.before);
  const after = flatten(entry.after);
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields.map((field) => ({
    field: fieldName(field),
    ...(field in before && { before: fieldValue(field, before[field]) }),
    ...(field in after && { after: fieldValue(field, after[field]) }),
  }));
}

/** The fields that changed, in a short clause: "apps all apps → 2 apps, monthly credit budget no budget → 250". */
function changedClause(changes: FieldChange[]): string {
  return changes
    .filter((change) => change.before !== undefined && change.after !== undefined && change.before !== change.after)
    .map((change) => `${change.field} ${change.before} → ${change.after}`)
    .join(', ');
}

const ROLE_NAMES: Record<string, string> = {
  owner: 'owner',
  admin: 'admin',
  developer: 'developer',
  analyst: 'analyst',
};

function roleOf(record: Record<string, unknown> | null): string {
  const role = record?.role;
  return typeof role === 'string' ? (ROLE_NAMES[role] ?? role) : 'a member';
}

/** The entry as one sentence, its actor first; `changes`: its fieldChanges, when the caller has them already. */
export function eventSentence(entry: Entry, changes?: FieldChange[]): string {
  const who = entry.actor;
  const target = entry.target?.label ?? '';
  const quoted = `“${target}”`;
  const after = entry.after ?? {};
  const before = entry.before ?? {};
  const withChange = (sentence: string) => {
    const clause = changedClause(changes ?? fieldChanges(entry));
    return clause ? `${sentence}: ${clause}` : sentence;
  };
  switch (entry.kind) {
    case 'api_key.created':
      return `${who} created ${typeof after.scope === 'string' ? `${after.scope} ` : ''}key ${quoted}`;
    case 'api_key.rolled':
      return `${who} rolled key ${quoted}${
        typeof after.previousKeyEndsAt === 'string'
          ? `; the old secret works until ${formatInstant(after.previousKeyEndsAt)}`
          : ''
      }`;
    case 'api_key.revoked':
      return `${who} revoked key ${quoted}`;
    case 'api_key.restricted':
      return withChange(`${who} changed the restrictions of key ${quoted}`);
    case 'api_key.renamed':
      return `${who} renamed key “${String(before.name ?? target)}” to “${String(after.name ?? target)}”`;
    case 'api_key.expired':
      return `Key ${quoted} expired`;
    case 'oauth_grant.created':
      return `${who} connected ${quoted} with ${typeof after.scope === 'string' ? after.scope : 'its'} access`;
    case 'oauth_grant.restricted':
      return withChange(`${who} changed the restrictions of connected app ${quoted}`);
    case 'oauth_grant.revoked':
      return `${who} disconnected ${quoted}${typeof after.reason === 'string' ? ` (${after.reason})` : ''}`;
    case 'webhook_endpoint.created':
      return `${who} added webhook endpoint ${target}`;
    case 'webhook_endpoint.changed':
      return withChange(`${who} changed webhook endpoint ${target}`);
    case 'webhook_endpoint.secret_rotated':
      return `${who} rotated the signing secret of ${target}`;
    case 'webhook_endpoint.deleted':
      return `${who} deleted webhook endpoint ${target}`;
    case 'store_account.connected':
      return `${who} connected the ${storeConsole(after.store)} account ${target}`;
    case 'store_account.replaced':
      return `${who} replaced the ${storeConsole(after.store)} account’s key with ${target}`;
    case 'store_account.removed':
      return `${who} removed the ${storeConsole(before.store)} account ${target}`;
    case 'plan.changed':
      return `${who} changed the plan from ${fieldValue('plan', before.plan)} to ${fieldValue('plan', after.plan)}${
        typeof after.reason === 'string' ? ` (${after.reason})` : ''
      }`;
    case 'session.signed_in':
      return `${who} signed in`;
    case 'session.sign_in_failed':
      return `A sign-in as ${target || 'a member'} failed${typeof after.reason === 'string' ? `: ${after.reason}` : ''}`;
    case 'session.sign_ins_slowed':
      return `Sign-ins as ${target || 'a member'} from new browsers slowed after ${fieldValue('failures', after.failures)} failures`;
    case 'session.signed_out':
      return `${who} signed out`;
    case 'session.ended':
      return `${who} ended ${
        typeof after.sessionsEnded === 'number'
          ? after.sessionsEnded === 1
            ? '1 session'
            : `${after.sessionsEnded} sessions`
          : 'the sessions'
      }${target ? ` of ${target}` : ''}`;
    case 'member.invited':
      return `${who} invited ${target} as ${roleOf(after)}${after.resent === true ? ' (sent again)' : ''}`;
    case 'member.invitation_revoked':
      return `${who} withdrew the invitation of ${target}`;
    case 'member.joined':
      return `${target || who} joined as ${roleOf(after)}`;
    case 'member.role_changed':
      return `${who} made ${target} ${roleOf(after)} (was ${roleOf(before)})`;
    case 'member.removed':
      return `${who} removed ${target} (${roleOf(before)})`;
    case 'member.left':
      return `${target || who} left the account`;
    case 'ownership.offered':
      return `${who} offered ownership to ${target}`;
    case 'ownership.transferred':
      return `${target || who} became owner`;
    default:
      return withChange(`${who}: ${String(entry.kind)}${target ? ` ${quoted}` : ''}`);
  }
}

/** "Chrome 131 on macOS", "curl 8.5", or null when the string names nothing known. */
export function browserOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const parsed = new UAParser(userAgent).getResult();
  const major = parsed.browser.major ?? parsed.browser.version?.split('.')[0];
  const browser = parsed.browser.name ? `${parsed.browser.name}${major ? ` ${major}` : ''}` : null;
  const system = parsed.os.name ? `${parsed.os.name}${parsed.os.version ? ` ${parsed.os.version}` : ''}` : null;
  if (browser && system) return `${browser} on ${system}`;
  if (browser || system) return browser ?? system;
  // Command-line clients name themselves first: "curl/8.5.0", "node-fetch/1.0".
  const tool = /^([A-Za-z][\w.-]*)\/(\d+(?:\.\d+)?)/.exec(userAgent);
  return tool ? `${tool[1]} ${tool[2]}` : null;
}
