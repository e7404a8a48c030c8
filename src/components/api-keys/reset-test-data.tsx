'use client';
import { ConfirmButton } from '@/components/common/confirm-button';
import { trpc } from '@/components/trpc';

/** Test mode's "Reset test data": the sandbox's apps back to the sample ones; its keys and endpoints stay. */
export function ResetTestData() {
  return (
    <section className="panel" aria-labelledby="reset-test-data">
      <h2 id="reset-test-data">Test data</h2>
      <p className="muted">
        The sandbox starts with sample apps of both stores and a year of generated history. Resetting removes every app,
        keyword and competitor added in test mode and puts the sample apps back; test keys, webhook endpoints and usage
        stay.
      </p>
      <ConfirmButton
        label="Reset test data"
        title="Reset test data?"
        consequence="Every app, keyword and competitor added in test mode is deleted, and the sample apps come back with their history. Live data is not touched."
        onConfirm={async () => {
          await trpc.account.resetTestData.mutate();
        }}
        done="Test data reset: the sample apps are back."
        testId="reset-test-data"
      />
    </section>
  );
}
