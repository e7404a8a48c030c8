// Trials (CONTRACT "Trial"): a new account signed up from the dashboard tries a paid tier for a while, with its own
// monthly allowance, so that its first API call needs no payment. Access already ends at `trialEndsAt` (plans.ts,
// accessOf); this job then moves the account to Free for good, writes its history and fires `plan.changed`, once a
// minute, one process at a time across those sharing the database.
import type PgBoss from 'pg-boss';
import { db } from '@/server/db';
import { endTrialsDue } from '@/server/db/plan-statements';
import type { PlanTier } from '@/generated/prisma/enums';
import { config } from '@/server/core/config';
import { scheduleCronJob } from '@/server/services/jobs/cron-job';
import { recordPlanChange } from './plan-changes';
import { PLANS, type Trial } from './plans';

export const TRIAL_END_QUEUE = 'end-trials';
export const TRIAL_END_CRON = '* * * * *';

/** The trial a new account starts on now, as configured; null when trials are off. */
export function newTrial(now: Date): Trial | null {
  const { TRIAL_TIER, TRIAL_DAYS, TRIAL_CREDITS } = config();
  if (TRIAL_TIER === 'off') return null;
  return { tier: TRIAL_TIER, endsAt: new Date(now.getTime() + TRIAL_DAYS * 86_400_000), credits: TRIAL_CREDITS };
}

/** Ends every trial due by `now`; returns how many. */
export async function endExpiredTrials(now = new Date()): Promise<number> {
  let ended = 0;
  for (;;) {
    const batch = await db.$transaction(async (tx) => {
      const rows = await endTrialsDue(tx, now);
      for (const row of rows)
        await recordPlanChange(tx, {
          accountId: row.accountId,
          from: row.fromPlan as PlanTier,
          to: 'free',
          reason: 'trial_ended',
          now,
        });
      return rows.length;
    });
    ended += batch;
    if (batch < 500) return ended;
  }
}

export function scheduleTrialEnds(boss: PgBoss, log: (line: string) => void): Promise<void> {
  return scheduleCronJob(
    boss,
    {
      queue: TRIAL_END_QUEUE,
      cron: TRIAL_END_CRON,
      retryDelaySeconds: 30,
      failure: 'ending trials failed',
      run: async () => {
        const ended = await endExpiredTrials();
        return ended ? `trials: ${ended} ended, moved to ${PLANS.free.label}` : null;
      },
    },
    log,
  );
}
