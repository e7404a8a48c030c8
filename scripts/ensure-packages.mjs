// The tests use Debian's packages: Chromium (browser tests) and redis-server (the rate limits' Redis store). Each one
// missing is installed (as root, with apt), once, before the tests that need it.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PACKAGES = [
  { binary: '/usr/bin/chromium', name: 'chromium', for: 'the browser tests' },
  { binary: '/usr/bin/redis-server', name: 'redis-server', for: 'the tests of the rate limits’ Redis store' },
];

const missing = PACKAGES.filter((entry) => !existsSync(entry.binary));
if (missing.length) {
  const names = missing.map((entry) => entry.name).join(' ');
  if (process.getuid?.() !== 0) {
    console.error(`The tests need Debian's ${names} (${missing.map((entry) => entry.for).join('; ')}): run \`sudo apt-get install -y ${names}\`.`);
    process.exit(1);
  }
  console.error(`Installing Debian's ${names} for the tests…`);
  execSync(`apt-get update && apt-get install -y ${names}`, { stdio: 'inherit' });
}
