// An API key as its owner sees it (the dashboard's list, the API's answers): its scope, status, restrictions and
// this month's spending, and how a key is named in the security log and in events.
import type { ApiKeyScope as DbScope } from '@/generated/prisma/enums';
import { periodOf } from '@/server/services/metering/credits';
import type { KeyRestrictions } from './restrictions';

export const API_KEY_SCOPES = ['read-only', 'read-write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
export type ApiKeyStatus = 'active' | 'expired' | 'revoked';

/**
 * The rows of api_keys that are keys: the table also holds connected apps (OAuth grants, src/server/oauth/), which
 * share a key's restrictions, budget and request log but are never listed, changed, rolled or revoked as keys.
 */
export const KEYS = { kind: 'api_key' } as const;

export const toDbScope = (scope: ApiKeyScope): DbScope => (scope === 'read-only' ? 'read_only' : 'read_write');
export const fromDbScope = (scope: DbScope): ApiKeyScope => (scope === 'read_only' ? 'read-only' : 'read-write');

export interface ApiKeyView {
  id: string;
  name: string;
  scope: ApiKeyScope;
  displayPrefix: string;
  lastFour: string;
  status: ApiKeyStatus;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  rolledAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
  restrictions: KeyRestrictions;
  /** Credits the key spent in the current period against its monthly budget (0 for a key without one: not counted). */
  spentThisMonth: number;
  /** The key's own dated API version; null: its account's. */
  apiVersion: string | null;
}

export const viewSelect = {
  id: true,
  name: true,
  scope: true,
  displayPrefix: true,
  lastFour: true,
  createdAt: true,
  expiresAt: true,
  revokedAt: true,
  rolledAt: true,
  lastUsedAt: true,
  lastUsedIp: true,
  allApps: true,
  appIds: true,
  allowedCidrs: true,
  monthlyBudget: true,
  apiVersion: true,
} as const;

/** viewSelect with the key's spending in the period of `now` (a connected app's row is read so too). */
export const viewSelectAt = (now: Date) =>
  ({ ...viewSelect, creditUsage: { where: { periodStart: periodOf(now).start }, select: { used: true } } }) as const;

type KeyRow = {
  scope: DbScope;
  revokedAt: Date | null;
  expiresAt: Date | null;
  allApps: boolean;
  appIds: string[];
  allowedCidrs: string[];
  monthlyBudget: number | null;
  creditUsage?: { used: number }[];
} & Omit<ApiKeyView, 'scope' | 'status' | 'restrictions' | 'spentThisMonth'>;

export function statusOf(key: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): ApiKeyStatus {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'active';
}

export function restrictionsOf(
  row: Pick<KeyRow, 'allApps' | 'appIds' | 'allowedCidrs' | 'monthlyBudget'>,
): KeyRestrictions {
  return { appIds: row.allApps ? null : row.appIds, allowedCidrs: row.allowedCidrs, monthlyBudget: row.monthlyBudget };
}

/** The restrictions as the key's columns. */
export function restrictionColumns(restrictions: KeyRestrictions) {
  return {
    allApps: restrictions.appIds === null,
    appIds: restrictions.appIds ?? [],
    allowedCidrs: restrictions.allowedCidrs,
    monthlyBudget: restrictions.monthlyBudget,
  };
}

export function toView(row: KeyRow, now: Date): ApiKeyView {
  const {
    allApps: _allApps,
    appIds: _appIds,
    allowedCidrs: _allowedCidrs,
    monthlyBudget: _monthlyBudget,
    creditUsage,
    ...rest
  } = row;
  return {
    ...rest,
    scope: fromDbScope(row.scope),
    status: statusOf(row, now),
    restrictions: restrictionsOf(row),
    spentThisMonth: creditUsage?.[0]?.used ?? 0,
  };
}

export function keyTarget(key: { id: string; name: string; displayPrefix: string; lastFour: string }) {
  return { type: 'api_key' as const, id: key.id, label: `${key.name} (${key.displayPrefix}…${key.lastFour})` };
}

export function keyEventData(
  key: { id: string; name: string; scope: DbScope; displayPrefix: string },
  extra: Record<string, string> = {},
) {
  return { keyId: key.id, name: key.name, scope: fromDbScope(key.scope), displayPrefix: key.displayPrefix, ...extra };
}
