'use client';
// The API reference, rendered by Scalar from the published document, with "Test request" against this app.
// A signed-in user's calls are pre-authorised with a token of their sign-in that works on the public API only, for an
// hour at most (it spends their account's credits like a key); anyone can paste an API key instead.
// Scalar comes as the browser script its package ships (src/server/http/api-reference-script.ts), styles included.
import Script from 'next/script';
import { useEffect, useRef, useState } from 'react';

/** What Scalar's browser script defines. */
interface ScalarGlobal {
  createApiReference(element: HTMLElement, configuration: Record<string, unknown>): { destroy(): void };
}

declare global {
  interface Window {
    Scalar?: ScalarGlobal;
  }
}

/**
 * Scalar's light theme with its text colours darkened to 4.5:1 against its own backgrounds (WCAG AA): its greys,
 * and the HTTP method colours of the sidebar and the operation headers. docs/accessibility.md lists what a theme
 * cannot fix.
 */
const ACCESSIBLE_THEME = `
.light-mode .scalar-app, .scalar-app.light-mode, .light-mode.scalar-app, body.light-mode {
  --scalar-color-2: #595959;
  --scalar-color-3: #5e5e5e;
  --scalar-color-blue: #0065a3;
  --scalar-color-accent: #0065a3;
  --scalar-color-orange: #a63a00;
  --scalar-color-green: #00744a;
  --scalar-color-red: #c00000;
  --scalar-color-purple: #5203d1;
  --scalar-color-yellow: #7a5c00;
}
`;

/** `scriptUrl`: Scalar's browser script, named by its version. */
export function ApiReference({ token, scriptUrl }: { token: string | null; scriptUrl: string }) {
  const container = useRef<HTMLDivElement>(null);
  const [scalar, setScalar] = useState<ScalarGlobal | null>(null);
  useEffect(() => {
    if (!scalar || !container.current) return;
    const reference = scalar.createApiReference(container.current, {
      url: '/api/public/v1/openapi.json',
      hideClientButton: false,
      withDefaultFonts: false,
      customCss: ACCESSIBLE_THEME,
      authentication: { preferredSecurityScheme: 'bearerAuth', ...(token ? { http: { bearer: { token } } } : {}) },
    });
    return () => reference.destroy();
  }, [scalar, token]);
  return (
    <>
      {/* onReady: once loaded, and again on every later visit of the page in this tab. */}
      <Script src={scriptUrl} onReady={() => setScalar(window.Scalar ?? null)} />
      <div ref={container} />
    </>
  );
}
