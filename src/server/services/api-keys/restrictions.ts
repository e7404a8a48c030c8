// What a key may do beyond its scope: the apps it reaches (all, or a chosen subset), the client addresses it may call
// from (any, or IPv4/IPv6 CIDR ranges), and a monthly credit budget of its own. Set when the key is made, editable
// later, enforced on every call by the access policy, which the runner of a call's steps asks
// (src/server/operations/runner.ts), and, for the budget, by the charging statement itself
// (src/server/db/credit-statements.ts), so that it is exact under concurrency.
//
// A key restricted to a subset of apps keeps that subset: an app added to the account later is not in it until the
// owner edits the key (a key made for one client's apps never reaches the next client's). Such a key may not add
// apps either (403 insufficient-scope): the app it added would be out of its reach.
import { inAddressRanges, parseAddressRange, type AddressRange } from '@/server/core/address-ranges';
import type { db } from '@/server/db';
import { AppError } from '@/server/errors/app-error';

export interface KeyRestrictions {
  /** null: every app of the account. */
  appIds: string[] | null;
  /** Empty: any address. */
  allowedCidrs: string[];
  /** Credits a month; null: none beyond the account's allowance. */
  monthlyBudget: number | null;
}

export const UNRESTRICTED: KeyRestrictions = { appIds: null, allowedCidrs: [], monthlyBudget: null };

/** The most apps and ranges one key lists, and the largest budget. */
export const MAX_KEY_APPS = 1_000;
export const MAX_KEY_CIDRS = 100;
export const MAX_KEY_BUDGET = 100_000_000;

/**
 * A change of restrictions, as the dashboard and the API take them (api-keys.schema.ts parses it): each member omitted
 * keeps what the key has; null lifts that restriction. Ranges come normalised (formatAddressRange).
 */
export interface KeyRestrictionsChange {
  appIds?: string[] | null;
  allowedCidrs?: string[] | null;
  monthlyBudget?: number | null;
}

/** The restrictions after an edit: what the input names, the rest as they were. */
export function restrictionsAfter(current: KeyRestrictions, input: KeyRestrictionsChange): KeyRestrictions {
  return {
    appIds:
      input.appIds === undefined
        ? current.appIds
        : input.appIds && [...new Set(input.appIds.map((id) => id.toLowerCase()))],
    allowedCidrs: input.allowedCidrs === undefined ? current.allowedCidrs : [...new Set(input.allowedCidrs ?? [])],
    monthlyBudget: input.monthlyBudget === undefined ? current.monthlyBudget : input.monthlyBudget,
  };
}

/** Parsed ranges by their stored list: a key's list is parsed once, not on every call. */
const parsedRanges = new Map<string, AddressRange[]>();

/** Whether a call from `address` may use a key with these ranges (none: any address; no address known: refused). */
export function addressAllowed(allowedCidrs: string[], address: string | null): boolean {
  if (!allowedCidrs.length) return true;
  if (address === null) return false;
  const list = allowedCidrs.join(',');
  let ranges = parsedRanges.get(list);
  if (!ranges) {
    if (parsedRanges.size >= 1_000) parsedRanges.clear();
    ranges = allowedCidrs.map(parseAddressRange).filter((range): range is AddressRange => range !== null);
    parsedRanges.set(list, ranges);
  }
  return inAddressRanges(address, ranges);
}

/** Whether a key with these restrictions reaches the app. */
export function appAllowed(appIds: string[] | null, appId: string): boolean {
  return appIds === null || appIds.includes(appId.toLowerCase());
}

/** The account's own apps among `appIds`: a key is never given another account's app, nor an unknown id. */
export async function assertOwnApps(
  client: Pick<typeof db, 'trackedApp'>,
  accountId: string,
  appIds: string[] | null,
): Promise<void> {
  if (!appIds) return;
  const own = await client.trackedApp.findMany({ where: { accountId, id: { in: appIds } }, select: { id: true } });
  const known = new Set(own.map((app) => app.id));
  const index = appIds.findIndex((id) => !known.has(id));
  if (index === -1) return;
  const detail = `No app with the id ${appIds[index]} is tracked by your account.`;
  throw new AppError('VALIDATION_ERROR', detail, {
    errors: [{ in: 'body', pointer: `#/restrictions/appIds/${index}`, detail }],
  });
}
