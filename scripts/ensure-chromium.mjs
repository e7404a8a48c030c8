// The browser tests use Debian's Chromium at /usr/bin/chromium; install it when missing (as root, with apt).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('/usr/bin/chromium')) {
  if (process.getuid?.() !== 0) {
    console.error('The browser tests need Debian\'s Chromium: run `sudo apt-get install -y chromium`.');
    process.exit(1);
  }
  console.error('Installing Debian\'s Chromium for the browser tests…');
  execSync('apt-get update && apt-get install -y chromium', { stdio: 'inherit' });
}
