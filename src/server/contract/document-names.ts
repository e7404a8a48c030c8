/** A component name of the OpenAPI document from a slug, an event kind or a parameter name: `credits-exhausted` → `CreditsExhausted`, `keyword.rank_changed` → `KeywordRankChanged`, `pageSize` → `PageSize`. */
export const pascalCase = (name: string) =>
  name.replace(/(^|[-_.\s])([a-zA-Z])/g, (_, __, letter: string) => letter.toUpperCase());
