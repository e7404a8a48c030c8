// Beside the list reporter: when a test fails, where the application's logs of the run are. The e2e server's output
// goes to a file (playwright.config.ts) rather than the console, which shows the results alone.
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

export const E2E_SERVER_LOG = 'test-results/logs/e2e-server.log';

export default class LogLocationsReporter implements Reporter {
  private failed = false;

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.status !== test.expectedStatus && result.status !== 'skipped') this.failed = true;
  }

  onEnd(result: FullResult): void {
    if (!this.failed && result.status === 'passed') return;
    console.log(`\nThe e2e server's log: ${E2E_SERVER_LOG}. A test that starts processes of its own attaches their output to its failure (test-results/e2e/).`);
  }
}
