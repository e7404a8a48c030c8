/** Plain ASCII: unchanged by Unicode normalisation, and lower-cased the same by every locale. */
const ASCII = /^[\x00-\x7f]*$/;

/** Trimmed, inner white space collapsed, Unicode-normalised: the form a term is stored and shown in. */
export function normalizeTerm(term: string): string {
  return (ASCII.test(term) ? term : term.normalize('NFC')).trim().replace(/\s+/gu, ' ');
}

/**
 * Case-folded form that decides whether two terms are the same keyword. Most terms are ASCII, and every refresh keys
 * each term it observes: for them the normalisations and ICU's locale-aware lower-casing change nothing, so they are
 * skipped.
 */
export function termKeyOf(term: string): string {
  const normalized = normalizeTerm(term);
  return ASCII.test(normalized) ? normalized.toLowerCase() : normalized.normalize('NFKC').toLocaleLowerCase('und');
}
