/** A recorded answer's file name from what it was asked for (a term, an app id): lower case, dots kept, the rest dashes. */
export const fixtureSlug = (value: string) =>
  value
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-|-$/g, '');
