// The operator CLI as an operator runs it: the built `node dist/admin.mjs` (what `npm run admin` runs), a child
// process that joins the running embedded cluster. `npm test` builds it first; alone, run `npm run build` before.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveBearer } from '@/server/auth/credentials';

const CLI = 'dist/admin.mjs';

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
});

/** The CLI with these arguments; a last argument `{ input }` is written to its stdin. */
async function admin(
  ...args: [...string[]] | [...string[], { input: string }]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const input = typeof args.at(-1) === 'object' ? (args.pop() as { input: string }).input : '';
  const env = { ...process.env, DATABASE_URL: '' };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...(args as string[])], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin!.end(input);
  });
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)!;
const now = { now: new Date(), ip: null };

describe('npm run admin', () => {
  it('creates an account, changes its plan, creates and revokes a key', async () => {
    const email = `ops-${randomUUID()}@example.test`;
    const created = await admin(
      'account',
      'create',
      '--email',
      email,
      '--password',
      'a-long-password',
      '--plan',
      'free',
    );
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
  });

  it('fails with a clear message and exit code 1 on bad arguments', async () => {
    // A process each for what only a command line has (no command at all, batch's own arguments), and one more, so
    // that the exit code is the process's; the other refusals are the same parser's, one line each of a batch.
    const processes: [string[], RegExp][] = [
      [[], /Usage:/],
      [['plan', 'set', '--email', 'x@example.test', '--plan', 'pro', '--verbose'], /Unknown option '--verbose'/],
      [['batch', 'now'], /batch takes no arguments/],
    ];
    const lines: [string[], RegExp][] = [
      [['account', 'delete'], /unknown command "account delete"/],
      [['account', 'create', '--email', 'x@example.test', '--password', 'a-long-password'], /--plan is required/],
      [
        ['account', 'create', '--email', 'x@example.test', '--password', 'a-long-password', '--plan', 'gold'],
        /--plan must be one of/,
      ],
      [
        ['account', 'create', '--email', 'not-an-email', '--password', 'a-long-password', '--plan', 'pro'],
        /valid email/,
      ],
      [
        ['account', 'create', '--email', 'x@example.test', '--password', 'short', '--plan', 'pro'],
        /at least 10 characters/,
      ],
      [['key', 'create', '--email', 'x@example.test', '--scope', 'admin'], /--scope must be one of/],
      [['key', 'create', '--email', 'nobody@example.test', '--scope', 'read-only'], /No user with the email/],
      [['key', 'revoke', '--email', 'nobody@example.test', '--key-prefix', 'svc_live_abcd'], /No user with the email/],
    ];
    // At once: each is a process of its own, and the machine may be busy.
    const [batch, ...results] = await Promise.all([
      admin('batch', { input: `${lines.map(([args]) => JSON.stringify(args)).join('\n')}\n` }),
      ...processes.map(([args]) => admin(...args)),
    ]);
    for (const [index, [args, message]] of processes.entries()) {
      expect(results[index]!.code, args.join(' ')).toBe(1);
      expect(results[index]!.stderr, args.join(' ')).toMatch(message);
    }
    const answers = batch!.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { exitCode: number; error?: string });
    for (const [index, [args, message]] of lines.entries()) {
      expect(answers[index], args.join(' ')).toMatchObject({ exitCode: 1, error: expect.stringMatching(message) });
    }
  });

  it('runs a batch: a command per line, an answer per line in order, a failed or unreadable line not stopping the rest', async () => {
    const email = `batch-${randomUUID()}@example.test`;
    const lines = [
      JSON.stringify(['account', 'create', '--email', email, '--password', 'a-long-password', '--plan', 'free']),
      'account create --email x@example.test',
      JSON.stringify(['key', 'create', '--email', email, '--scope', 'read-only']),
      '',
      JSON.stringify(['plan', 'set', '--email', email, '--plan', 'pro']),
      JSON.stringify(['account', 'delete']),
      JSON.stringify(['plan', 'set', '--email', email, '--plan', 'gold']),
      JSON.stringify(['key', 'create', '--email', email, '--scope', 'read-only', '--name', 'from a batch']),
      JSON.stringify(['batch']),
      JSON.stringify({ command: 'plan set' }),
    ];
    const { code, stdout } = await admin('batch', { input: `${lines.join('\n')}\n` });
    expect(code).toBe(0);
    // Answers alone on stdout: one JSON line per non-empty line of input.
    const answers = stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { exitCode: number; output?: string[]; error?: string });
    expect(answers.map((answer) => answer.exitCode)).toEqual([0, 1, 1, 0, 1, 1, 0, 1, 1]);
    expect(answers[0]!.output![0]).toMatch(/^Created account [0-9a-f-]{36} on the free plan/);
    expect(answers[1]!.error).toMatch(/JSON array of one command's arguments/);
    expect(answers[2]!.error).toMatch(/paid plans/);
    expect(answers[3]!.output).toEqual([expect.stringMatching(/now on the Pro plan/)]);
    expect(answers[4]!.error).toBe('unknown command "account delete"');
    expect(answers[5]!.error).toMatch(/--plan must be one of/);
    const secret = answers[6]!.output!.at(-1)!;
    expect((await resolveBearer(`Bearer ${secret}`, now)).status).toBe('valid');
    expect(answers[7]!.error).toMatch(/JSON array/);
    expect(answers[8]!.error).toMatch(/JSON array/);
  });
});
