// One change of the store listing, as a reader wants it: the field's name in words, a keyword field as the keywords
// added and removed, a version or a count as before → after, and text as a word diff, or as before and after in
// full when most of it was rewritten (a word diff of two unrelated sentences reads as one glued line).
import { diffWords } from 'diff';
import { TextDiff } from './text-diff';

export const LISTING_FIELD_NAMES: Record<string, string> = {
  title: 'Title',
  subtitle: 'Subtitle',
  keywordField: 'Keyword field',
  promotionalText: 'Promotional text',
  description: 'Description',
  whatsNew: 'What’s new',
  screenshotsCount: 'Screenshots',
  hasVideo: 'Preview video',
  price: 'Price',
  version: 'Version',
};

/** The keyword field's keywords (comma-separated, as the App Store takes them), trimmed and lower-cased. */
function keywordsOf(field: string | null): string[] {
  return (field ?? '')
    .split(',')
    .map((keyword) => keyword.trim().toLowerCase())
    .filter(Boolean);
}

/** The share of the longer text's words the two have in common, 0 to 1. */
function sharedWords(before: string, after: string): number {
  const parts = diffWords(before, after);
  const count = (text: string) => text.split(/\s+/).filter(Boolean).length;
  const common = parts.filter((part) => !part.added && !part.removed).reduce((sum, part) => sum + count(part.value), 0);
  return common / Math.max(1, count(before), count(after));
}

export function ListingChange({
  field,
  before,
  after,
}: {
  field: string;
  before: string | null;
  after: string | null;
}) {
  if (field === 'keywordField') {
    const old = keywordsOf(before);
    const now = keywordsOf(after);
    const added = now.filter((keyword) => !old.includes(keyword));
    const removed = old.filter((keyword) => !now.includes(keyword));
    return (
      <div className="keyword-change">
        {added.length > 0 && (
          <p>
            Added:{' '}
            {added.map((keyword) => (
              <ins key={keyword} className="chip diff-after">
                {keyword}
              </ins>
            ))}
          </p>
        )}
        {removed.length > 0 && (
          <p>
            Removed:{' '}
            {removed.map((keyword) => (
              <del key={keyword} className="chip diff-before">
                {keyword}
              </del>
            ))}
          </p>
        )}
        {added.length === 0 && removed.length === 0 && <p className="muted">Same keywords, reordered.</p>}
      </div>
    );
  }
  if (field === 'hasVideo')
    return <p>{after === 'true' ? 'A preview video was added.' : 'The preview video was removed.'}</p>;
  if (field === 'screenshotsCount' || field === 'price' || field === 'version') {
    return (
      <p>
        <del className="diff-before">
          <span className="visually-hidden">before: </span>
          {before ?? 'none'}
        </del>{' '}
        →{' '}
        <ins className="diff-after">
          <span className="visually-hidden">after: </span>
          {after ?? 'none'}
        </ins>
        {field === 'screenshotsCount' ? ' screenshots' : ''}
      </p>
    );
  }
  if (before && after && sharedWords(before, after) < 0.5) {
    return (
      <dl className="before-after">
        <dt>Before</dt>
        <dd>
          <del className="diff-before">{before}</del>
        </dd>
        <dt>After</dt>
        <dd>
          <ins className="diff-after">{after}</ins>
        </dd>
      </dl>
    );
  }
  return <TextDiff before={before} after={after} />;
}
