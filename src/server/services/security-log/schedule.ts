// The security log's hourly job, one process at a time across those sharing the database: each key that expired
// since the last run is logged, and the entries past their retention are deleted.
import type PgBoss from 'pg-boss';
import { logExpiredKeys } from '@/server/services/api-keys/api-keys';
import { scheduleCronJob } from '@/server/services/jobs/cron-job';
import { purgeSecurityEvents } from './security-log';

export const SECURITY_LOG_QUEUE = 'security-log';
export const SECURITY_LOG_CRON = '7 * * * *';

export function scheduleSecurityLogJob(boss: PgBoss, log: (line: string) => void): Promise<void> {
  return scheduleCronJob(
    boss,
    {
      queue: SECURITY_LOG_QUEUE,
      cron: SECURITY_LOG_CRON,
      retryDelaySeconds: 60,
      failure: 'security log job failed',
      run: async () => {
        const [expired, purged] = [await logExpiredKeys(), await purgeSecurityEvents()];
        return expired || purged ? `security log: ${expired} expired keys logged, ${purged} entries past retention deleted` : null;
      },
    },
    log,
  );
}
