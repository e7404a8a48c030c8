// A field's change, before and after, with the words that changed marked (jsdiff's word diff: the same algorithm as
// `git diff --word-diff`). Removed words are struck through and labelled for screen readers, not told by colour alone.
import { diffWords } from 'diff';

export function TextDiff({ before, after }: { before: string | null; after: string | null }) {
  const parts = diffWords(before ?? '', after ?? '');
  // A removed run followed at once by an added one, with no space between: a space keeps them two words to the eye.
  const gap = (index: number) => {
    const part = parts[index]!;
    const next = parts[index + 1];
    return part.removed && next?.added && !/\s$/.test(part.value) && !/^\s/.test(next.value) ? ' ' : '';
  };
  return (
    <p className="text-diff" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
      {parts.map((part, index) =>
        part.added ? (
          <ins key={index} className="diff-after">
            <span className="visually-hidden">added: </span>
            {part.value}
          </ins>
        ) : part.removed ? (
          <span key={index}>
            <del className="diff-before">
              <span className="visually-hidden">removed: </span>
              {part.value}
            </del>
            {gap(index)}
          </span>
        ) : (
          <span key={index}>{part.value}</span>
        ),
      )}
    </p>
  );
}
