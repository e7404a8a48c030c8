// The keys' hourly job, one process at a time across those sharing the database: each key that expires within a week
// gets its `api_key.expiring` notice, each key that expired since the last run is logged, and the security log's
// entries past their retention are deleted.
import type PgBoss from 'pg-boss';
import { logExpiredKeys, notifyExpiringKeys } from '@/server/services/api-keys/api-keys';
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
        const [expiring, expired, purged] = [await notifyExpiringKeys(), await logExpiredKeys(), await purgeSecurityEvents()];
        return expiring || expired || purged ? `keys: ${expiring} expiring soon notified, ${expired} expired logged; security log: ${purged} entries past retention deleted` : null;
      },
    },
    log,
  );
}
