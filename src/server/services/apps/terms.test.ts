import { describe, expect, it } from 'vitest';
import { normalizeTerm, termKeyOf } from './terms';

/** The definitions the fast path for ASCII must agree with. */
const fullNormalize = (term: string) => term.normalize('NFC').trim().replace(/\s+/gu, ' ');
const fullKey = (term: string) => fullNormalize(term).normalize('NFKC').toLocaleLowerCase('und');

describe('terms', () => {
  it('keys ASCII and other terms exactly as the full Unicode normalisation does', () => {
    const terms = [
      'Sleep Tracker',
      '  white\tnoise \n app ',
      'ÉTÉ',
      'e\u0301te\u0301',
      'Straße',
      'İstanbul',
      'ﬁtness',
      'Ｗｉｆｉ',
      'ΣΟΦΟΣ',
      'Habit\u00a0Loop',
      'calm\u3000sleep',
      'A-Z 0-9 !?',
      '',
    ];
    for (const term of terms) {
      expect(normalizeTerm(term), term).toBe(fullNormalize(term));
      expect(termKeyOf(term), term).toBe(fullKey(term));
    }
    // Every ASCII character, alone and in a word.
    for (let code = 0; code < 128; code++) {
      const term = `a${String.fromCharCode(code)}B`;
      expect(termKeyOf(term), JSON.stringify(term)).toBe(fullKey(term));
    }
  });

  it('keys the same keyword written differently alike', () => {
    expect(termKeyOf(' Sleep  TRACKER ')).toBe(termKeyOf('sleep tracker'));
    expect(termKeyOf('e\u0301te\u0301')).toBe(termKeyOf('été'));
  });
});
