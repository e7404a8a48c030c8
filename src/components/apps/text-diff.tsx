// A field's change, before and after, with the words that changed marked (jsdiff's word diff: the same algorithm as
// `git diff --word-diff`). Removed words are struck through and labelled for screen readers, not told by colour alone.
import { diffWords } from 'diff';

export function TextDiff({ before, after }: { before: string | null; after: string | null }) {
  const parts = diffWords(before ?? '', after ?? '');
  return (
    <p className="text-diff" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
      {parts.map((part, index) =>
        part.added ? (
          <ins key={index} className="diff-after">
            <span className="visually-hidden">added: </span>
            {part.value}
          </ins>
        ) : part.removed ? (
          <del key={index} className="diff-before">
            <span className="visually-hidden">removed: </span>
            {part.value}
          </del>
        ) : (
          <span key={index}>{part.value}</span>
        ),
      )}
    </p>
  );
}
