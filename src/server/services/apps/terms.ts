/** Trimmed, inner white space collapsed, Unicode-normalised: the form a term is stored and shown in. */
export function normalizeTerm(term: string): string {
  return term.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/** Case-folded form that decides whether two terms are the same keyword. */
export function termKeyOf(term: string): string {
  return normalizeTerm(term).normalize('NFKC').toLocaleLowerCase('und');
}
