'use client';
import { useRouter } from 'next/navigation';
import { useEffect, useState, useTransition } from 'react';

/** The cookie the server reads (src/server/auth/test-mode.ts, TEST_MODE_COOKIE): `test` while in test mode. */
const TEST_MODE_COOKIE = 'svc_mode';

/**
 * Stripe's "Test mode" switch: every page then shows the account's test sandbox (its apps, test keys, webhook
 * endpoints, usage and logs). A preference of this browser, not of the sign-in: it narrows what the session sees.
 */
export function TestModeSwitch({ testMode }: { testMode: boolean }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // Switched at once; the page's data follows with the refresh.
  const [on, setOn] = useState(testMode);
  useEffect(() => setOn(testMode), [testMode]);
  const toggle = () => {
    document.cookie = on
      ? `${TEST_MODE_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`
      : `${TEST_MODE_COOKIE}=test; Path=/; SameSite=Lax`;
    setOn(!on);
    startTransition(() => router.refresh());
  };
  return (
    <label className="test-mode-switch">
      <input
        type="checkbox"
        role="switch"
        checked={on}
        disabled={pending}
        onChange={toggle}
        data-testid="test-mode-switch"
      />
      Test mode
    </label>
  );
}
