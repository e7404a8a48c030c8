// The credentials' hourly job, one process at a time across those sharing the database: each key that expires within
// a week gets its `api_key.expiring` notice, each key that expired since the last run is logged, the security log's
// entries past their retention are deleted, and so are the OAuth records (codes, tokens, interactions) expired a day ago
// and the registered OAuth clients no one connected (src/server/db/oauth-records.ts), and the MCP tasks expired an hour
// ago (src/server/services/tasks/mcp-tasks.ts).
import type PgBoss from 'pg-boss';
import { logExpiredKeys, notifyExpiringKeys } from '@/server/services/api-keys/key-expiry';
import { purgeExpiredOAuthRecords, purgeUnusedOAuthClients } from '@/server/db/oauth-records';
import { scheduleCronJob } from '@/server/services/jobs/cron-job';
import { purgeExpiredTasks } from '@/server/services/tasks/mcp-tasks';
import { purgeSecurityEvents } from './security-log';

const SECURITY_LOG_QUEUE = 'security-log';
const SECURITY_LOG_CRON = '7 * * * *';

export function scheduleSecurityLogJob(boss: PgBoss, log: (line: string) => void): Promise<void> {
  return scheduleCronJob(
    boss,
    {
      queue: SECURITY_LOG_QUEUE,
      cron: SECURITY_LOG_CRON,
      retryDelaySeconds: 60,
      failure: 'security log job failed',
      run: async () => {
        const [expiring, expired, purged, oauth, clients, tasks] = [
          await notifyExpiringKeys(),
          await logExpiredKeys(),
          await purgeSecurityEvents(),
          await purgeExpiredOAuthRecords(),
          await purgeUnusedOAuthClients(),
          await purgeExpiredTasks(),
        ];
        return expiring || expired || purged || oauth || clients || tasks
          ? `keys: ${expiring} expiring soon notified, ${expired} expired logged; security log: ${purged} entries past retention deleted; OAuth: ${oauth} expired records and ${clients} clients no one connected deleted; MCP: ${tasks} expired tasks deleted`
          : null;
      },
    },
    log,
  );
}
