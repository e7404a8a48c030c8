// Usage: what GET /usage answers.
import { z } from 'zod';
import { isoDate, isoDateTime } from '@/server/api/schemas';
import { PLAN_TIERS } from '@/server/services/accounts/plans';

const spend = { calls: z.int().nonnegative(), credits: z.int().nonnegative() };

export const usageOutput = z
  .object({
    account: z.object({ id: z.uuid(), name: z.string() }).meta({
      description:
        'The account this usage is of: the one the credential acts for. A key or a connected app acts for the account it was made in; a member’s session token for the account the session was last switched to (the dashboard’s account switcher); in test mode, the account’s test sandbox.',
    }),
    plan: z.enum([...PLAN_TIERS, 'test']).meta({
      description:
        'The tier in force: during a trial, the tier tried; once it ends, `free`. `test` for a test key (`svc_test_…`): test mode’s allowance and request rate, whatever the live plan.',
    }),
    livemode: z.boolean().meta({
      description:
        'false: the call was made in test mode, and this is the test sandbox’s usage, apart from the live allowance.',
    }),
    trial: z
      .object({
        tier: z.enum(PLAN_TIERS).meta({ description: 'The paid tier tried.' }),
        endsAt: isoDateTime.meta({
          description: 'When the trial ends and the account moves to Free (a `plan.changed` event fires).',
        }),
        credits: z.int().nonnegative().meta({
          description:
            'The trial’s monthly allowance, in place of the tier’s (also in `limit` and the credit headers).',
        }),
      })
      .nullable()
      .meta({ description: 'The trial in progress; null when the account is not on a trial.' }),
    limit: z.int().nullable().meta({
      description: 'Monthly credit allowance in force (a trial’s own while it lasts); null = unlimited (Enterprise).',
    }),
    used: z.int().nonnegative(),
    remaining: z.int().nonnegative().nullable().meta({ description: 'null = unlimited.' }),
    periodStart: isoDateTime.meta({ description: 'Start of the calendar month (UTC).' }),
    periodEnd: isoDateTime.meta({ description: 'When the allowance resets: the start of the next month (UTC).' }),
    requestsPerMinute: z.int().meta({ description: 'Request-rate limit per key of the plan.' }),
    byEndpoint: z.array(
      z.object({
        endpoint: z.string().meta({
          description:
            'A REST endpoint (method and path template), or `mcp <tool>` for the calls of a tool of the MCP server at /api/mcp (e.g. `mcp apps_get`).',
          example: 'GET /apps/{id}/keywords',
        }),
        ...spend,
      }),
    ),
    byKey: z.array(
      z.object({
        keyId: z.uuid().nullable().meta({ description: 'null: calls made with a dashboard session token.' }),
        kind: z.enum(['api_key', 'connected_app', 'session']).meta({
          description:
            '`api_key`; `connected_app`: an agent connected through OAuth to the MCP server (Settings → API access), its id in `keyId`; `session`: a dashboard session token.',
        }),
        name: z.string().meta({
          description:
            'The key’s name, the connected app’s client name, or "Session of <email>" for a member’s session tokens.',
        }),
        member: z
          .object({
            userId: z.uuid(),
            email: z.string().nullable().meta({ description: 'null once the user was deleted.' }),
          })
          .nullable()
          .meta({
            description:
              'The member whose session tokens (dashboard, API reference, scripts) made the calls; null for a key or a connected app.',
          }),
        key: z.string().nullable().meta({
          description: 'Display prefix and last four characters of a key; null for a connected app or a session.',
          example: 'svc_live_AbCd…x9Z2',
        }),
        restrictions: z
          .object({
            appIds: z
              .array(z.uuid())
              .nullable()
              .meta({ description: 'The apps the key reaches; null: every app of the account.' }),
            allowedCidrs: z.array(z.string()).meta({
              description: 'The client address ranges it may call from; empty: any.',
              example: ['198.51.100.0/24'],
            }),
            monthlyBudget: z
              .int()
              .positive()
              .nullable()
              .meta({ description: 'Its monthly credit budget; null: none beyond the account’s allowance.' }),
          })
          .nullable()
          .meta({ description: 'What the key is restricted to (Settings → API access); null for dashboard sessions.' }),
        ...spend,
      }),
    ),
    daily: z
      .array(z.object({ date: isoDate, ...spend }))
      .meta({ description: 'One entry per day of the period so far.' }),
  })
  .meta({ id: 'Usage' });

export const usageLedgerInput = z.object({
  from: isoDate.optional().meta({ description: 'First day; default: the start of the current period.' }),
  to: isoDate.optional().meta({ description: 'Last day; default: today (UTC).' }),
});

export const usageLedgerOutput = z.object({
  from: isoDate,
  to: isoDate,
  rows: z.array(
    z.object({
      date: isoDate,
      endpoint: z.string(),
      keyId: z.uuid().nullable(),
      keyName: z.string(),
      key: z.string().nullable(),
      ...spend,
    }),
  ),
});
