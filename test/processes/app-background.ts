// A child process for the process-level webhook tests: the app's background work (what the launcher runs beside
// Next.js) on the database of DATABASE_URL, driven over IPC. "seed" and "events" write test data through the real
// services; "work" starts startBackgroundWork exactly as `npm start` does. SIGKILL is the crash under test.
import { randomUUID } from 'node:crypto';
import { recordEvents } from '@/server/services/events/events';
import { startBackgroundWork, type BackgroundWork } from '@/server/runtime/background';
import { createWebhookEndpoint } from '@/server/services/webhooks/endpoints';
import { makeAccount } from '../factories';

type Command = { id: number } & (
  | { cmd: 'seed'; receiver: string }
  | { cmd: 'events'; accountId: string; count: number }
  | { cmd: 'work' }
  | { cmd: 'stop' }
);

let background: BackgroundWork | undefined;

async function run(command: Command): Promise<unknown> {
  switch (command.cmd) {
    case 'seed': {
      const owner = await makeAccount();
      const { endpoint, secret } = await createWebhookEndpoint(owner.accountId, { url: command.receiver });
      return { accountId: owner.accountId, endpointId: endpoint.id, secret };
    }
    case 'events':
      await recordEvents(
        Array.from({ length: command.count }, (_, index) => ({
          accountId: command.accountId,
          type: 'webhook.test' as const,
          data: { endpointId: randomUUID(), message: `event ${index}` },
        })),
      );
      return {};
    case 'work':
      background = await startBackgroundWork(process.env.DATABASE_URL!, () => {}, { webhookIntervalMs: 200 });
      return {};
    case 'stop':
      await background?.stop();
      return {};
  }
}

process.on('message', (command: Command) => {
  run(command).then(
    (result) => process.send!({ id: command.id, ok: true, result }),
    (error: unknown) => process.send!({ id: command.id, ok: false, error: String(error) }),
  );
});
process.send!({ ready: true });
