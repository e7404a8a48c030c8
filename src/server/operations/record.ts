// The last step of every call, on every channel: the public API's metrics, the key's request log and the log line, once
// the turn's answers are out (core/turn-end.ts). One entry per HTTP request.
import { atTurnEnd } from '@/server/core/turn-end';
import { logRequest } from '@/server/core/log';
import { apiRequestDuration, apiRequests, creditsCharged, responseCacheLookups } from '@/server/core/metrics';
import { recordKeyCall } from '@/server/services/api-keys/key-calls';
import type { CallTrace } from './runner';

/** How the channel names what was called; the rest of the record is the trace's. */
export interface CallNames {
  /** The metrics' route label: a matched route's template or tool, else one value for all ("unmatched", the path). */
  route: string;
  /** The log line's route, when it says more than the label (the path no route matched). */
  loggedRoute?: string;
  /** The call's outcome: the HTTP status, or an MCP tool error's problem status inside a 200. */
  status: number;
  /** The HTTP status, when the log line must show it beside the call's (MCP). */
  httpStatus?: number;
  /** The entry of a key's request log, when the call is one a key's log shows. */
  keyCall?: { method: string; endpoint: string };
}

export function recordCall(trace: CallTrace, names: CallNames, seconds: number): void {
  atTurnEnd(() => record(trace, names, seconds));
}

function record(trace: CallTrace, names: CallNames, seconds: number): void {
  const { status } = names;
  // The metrics are the public API's.
  if (trace.channel !== 'dashboard') {
    const labels = { method: trace.method, route: names.route, status: String(status) };
    apiRequests.inc(labels);
    apiRequestDuration.observe(labels, seconds);
  }
  const actor = trace.actor;
  const cost = trace.caller?.metering.cost;
  if (cost && actor) creditsCharged.inc({ plan: actor.plan }, cost);
  if (trace.cache) responseCacheLookups.inc({ result: trace.cache });
  // A call of a valid key goes to the key's request log, failures too (services/api-keys/key-calls.ts).
  if (actor?.keyId && names.keyCall) {
    recordKeyCall({
      keyId: actor.keyId,
      at: trace.now,
      method: names.keyCall.method,
      endpoint: names.keyCall.endpoint,
      status,
      credits: cost ?? 0,
      clientAddress: trace.clientAddress,
      requestId: trace.requestId,
    });
  }
  logRequest({
    requestId: trace.requestId,
    channel: trace.channel,
    method: trace.method,
    route: names.loggedRoute ?? names.route,
    status,
    ...(names.httpStatus === undefined ? {} : { httpStatus: names.httpStatus }),
    durationMs: Math.round(seconds * 10_000) / 10,
    accountId: actor?.accountId,
    keyId: actor?.keyId,
    actor: actor?.kind,
    credits: cost,
    cache: trace.cache,
  });
}
