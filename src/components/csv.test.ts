import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';

describe('toCsv', () => {
  it('quotes commas, quotes and line breaks, leaves numbers and empty cells plain, and ends lines with CRLF', () => {
    expect(
      toCsv(
        ['term', 'rank'],
        [
          ['sleep, deep', 3],
          ['say "hi"', null],
          ['two\nlines', 0],
        ],
      ),
    ).toBe('term,rank\r\n"sleep, deep",3\r\n"say ""hi""",\r\n"two\nlines",0\r\n');
  });

  it('keeps text that a spreadsheet would run as a formula from running, and negative numbers as numbers', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['=HYPERLINK("x")', -3],
          ['@sum', '+1'],
        ],
      ),
    ).toBe('a,b\r\n"\'=HYPERLINK(""x"")",-3\r\n"\'@sum","\'+1"\r\n');
  });
});
