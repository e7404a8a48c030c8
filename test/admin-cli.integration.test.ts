// The operator CLI as an operator runs it: the built `node dist/admin.mjs` (what `npm run admin` runs), a child
// process that joins the running embedded cluster. `npm test` builds it first; alone, run `npm run build` before.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveBearer } from '@/server/auth/credentials';

const run = promisify(execFile);
const CLI = 'dist/admin.mjs';

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
});

async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = { ...process.env, DATABASE_URL: '' };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;
const now = { now: new Date(), ip: null };

describe('npm run admin', () => {
  it('creates an account, changes its plan, creates and revokes a key', async () => {
    const email = `ops-${randomUUID()}@example.test`;
    const created = await admin('account', 'create', '--email', email, '--password', 'a-long-password', '--plan', 'free');
    expect(created.code).toBe(0);
    expect(lastLine(created.stdout)).toMatch(/^Created account [0-9a-f-]{36} on the free plan/);

    const refused = await admin('key', 'create', '--email', email, '--scope', 'read-only');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/paid plans/);

    expect((await admin('plan', 'set', '--email', email, '--plan', 'agency')).stdout).toMatch(/now on the Agency plan/);

    const key = await admin('key', 'create', '--email', email, '--scope', 'read-write', '--name', 'nightly export');
    expect(key.code).toBe(0);
    const secret = lastLine(key.stdout);
    expect(secret).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
    const resolved = await resolveBearer(`Bearer ${secret}`, now);
    expect(resolved).toMatchObject({ status: 'valid', actor: { scope: 'read-write', plan: 'agency' } });

    const revoked = await admin('key', 'revoke', '--email', email, '--key-prefix', secret.slice(0, 13));
    expect(revoked.code).toBe(0);
    expect(lastLine(revoked.stdout)).toMatch(/^Revoked key "nightly export"/);
    expect((await resolveBearer(`Bearer ${secret}`, now)).status).toBe('revoked');
  }, 120_000);

  it('fails with a clear message and exit code 1 on bad arguments', async () => {
    const cases: [string[], RegExp][] = [
      [[], /Usage:/],
      [['account', 'delete'], /unknown command "account delete"/],
      [['account', 'create', '--email', 'x@example.test', '--password', 'a-long-password'], /--plan is required/],
      [['account', 'create', '--email', 'x@example.test', '--password', 'a-long-password', '--plan', 'gold'], /--plan must be one of/],
      [['account', 'create', '--email', 'not-an-email', '--password', 'a-long-password', '--plan', 'pro'], /valid email/],
      [['account', 'create', '--email', 'x@example.test', '--password', 'short', '--plan', 'pro'], /at least 10 characters/],
      [['key', 'create', '--email', 'x@example.test', '--scope', 'admin'], /--scope must be one of/],
      [['key', 'create', '--email', 'nobody@example.test', '--scope', 'read-only'], /No user with the email/],
      [['key', 'revoke', '--email', 'nobody@example.test', '--key-prefix', 'svc_live_abcd'], /No user with the email/],
      [['plan', 'set', '--email', 'x@example.test', '--plan', 'pro', '--verbose'], /Unknown option '--verbose'/],
    ];
    // At once: each is a process of its own, and the machine may be busy.
    const results = await Promise.all(cases.map(([args]) => admin(...args)));
    for (const [index, [args, message]] of cases.entries()) {
      expect(results[index]!.code, args.join(' ')).toBe(1);
      expect(results[index]!.stderr, args.join(' ')).toMatch(message);
    }
  }, 120_000);
});
