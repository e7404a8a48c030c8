'use client';
// The API reference, rendered by Scalar from the published document, with "Test request" against this app.
// A signed-in user's calls are pre-authorised with a token of their sign-in that works on the public API only, for an
// hour at most (it spends their account's credits like a key); anyone can paste an API key instead.
import { ApiReferenceReact } from '@scalar/api-reference-react';
import '@scalar/api-reference-react/style.css';

export function ApiReference({ token }: { token: string | null }) {
  return (
    <ApiReferenceReact
      configuration={{
        url: '/api/public/v1/openapi.json',
        hideClientButton: false,
        withDefaultFonts: false,
        authentication: { preferredSecurityScheme: 'bearerAuth', ...(token ? { http: { bearer: { token } } } : {}) },
      }}
    />
  );
}
