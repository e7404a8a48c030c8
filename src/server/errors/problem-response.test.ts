import { describe, expect, it } from 'vitest';
import { credentialRefused } from '@/server/auth/bearer';
import { limitReached } from './app-error';
import { problemAnswer, problemTemplate } from './problem-response';

describe('problemTemplate', () => {
  const origin = 'https://api.example.com';

  it('gives the bytes and headers problemAnswer gives, whatever the instance', () => {
    for (const refusal of [credentialRefused('missing'), credentialRefused('malformed')]) {
      const answer = problemTemplate(refusal, origin);
      for (const instance of ['/api/public/v1/apps', '/api/public/v1/a%22b\\c', '/api/public/v1/\u2028é/😀', '']) {
        const requestId = crypto.randomUUID();
        expect(answer(instance, requestId)).toEqual(problemAnswer(refusal, { origin, instance, requestId }));
      }
    }
  });

  it('refuses a problem with members of its own, whose order problemAnswer sets', () => {
    expect(() => problemTemplate(limitReached('apps', 3, 'Three apps at most.'), origin)).toThrow(/members of its own/);
  });
});
