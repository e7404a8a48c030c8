// Beside the list reporter: when a test fails, where the application's logs of the run are, and the e2e server's
// errors themselves. Its output goes to a file (playwright.config.ts) rather than the console, which shows the results
// alone; but CI keeps only the console, and a 500 a test saw is explained by the error the server logged with it.
import { existsSync, readFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export const E2E_SERVER_LOG = 'test-results/logs/e2e-server.log';
/** The last errors printed: enough for the ones beside a failure, few enough to read. */
const ERRORS_SHOWN = 10;

/** The e2e server's error lines (pino's level 50 and above), the last ERRORS_SHOWN of them. */
function serverErrors(): string[] {
  if (!existsSync(E2E_SERVER_LOG)) return [];
  const errors = readFileSync(E2E_SERVER_LOG, 'utf8')
    .split('\n')
    .filter((line) => /^\{"level":(5|6)\d,/.test(line));
  return errors.slice(-ERRORS_SHOWN);
}

export default class LogLocationsReporter implements Reporter {
  private failed = false;

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== test.expectedStatus && result.status !== 'skipped') this.failed = true;
  }

  onEnd(result: FullResult): void {
    if (!this.failed && result.status === 'passed') return;
    console.log(
      `\nThe e2e server's log: ${E2E_SERVER_LOG}. A test that starts processes of its own attaches their output to its failure (test-results/e2e/).`,
    );
    const errors = serverErrors();
    if (errors.length) console.log(`The e2e server's last ${errors.length} errors:\n${errors.join('\n')}`);
  }
}
