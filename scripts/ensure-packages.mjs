// The tests use Debian's packages: Chromium's headless shell (browser tests), redis-server (the rate limits' Redis
// store), and the PostgreSQL server and PgBouncer (the deployment of e2e/external). Each one missing is installed (as
// root, with apt), once, before the tests that need it.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

/** Any major version of Debian's PostgreSQL server (bookworm's `postgresql` is 15). */
const postgresServer = () =>
  existsSync('/usr/lib/postgresql') &&
  readdirSync('/usr/lib/postgresql').some((version) => existsSync(`/usr/lib/postgresql/${version}/bin/postgres`));

const PACKAGES = [
  { binary: '/usr/bin/chromium-headless-shell', name: 'chromium-headless-shell', for: 'the browser tests' },
  { binary: '/usr/bin/redis-server', name: 'redis-server', for: 'the tests of the rate limits’ Redis store' },
  { installed: postgresServer, name: 'postgresql', for: 'the tests on an external PostgreSQL' },
  { binary: '/usr/sbin/pgbouncer', name: 'pgbouncer', for: 'the tests behind PgBouncer' },
];

const missing = PACKAGES.filter((entry) => !(entry.installed ? entry.installed() : existsSync(entry.binary)));
if (missing.length) {
  const names = missing.map((entry) => entry.name).join(' ');
  if (process.getuid?.() !== 0) {
    console.error(
      `The tests need Debian's ${names} (${missing.map((entry) => entry.for).join('; ')}): run \`sudo apt-get install -y ${names}\`.`,
    );
    process.exit(1);
  }
  console.error(`Installing Debian's ${names} for the tests…`);
  execSync(`apt-get update && apt-get install -y ${names}`, { stdio: 'inherit' });
}
