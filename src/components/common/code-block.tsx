// A block of code in the docs, with a button that copies it: commands and configurations are meant to be pasted.
import { CopyButton } from './copy-button';

export function CodeBlock({ code, testId }: { code: string; testId?: string }) {
  return (
    <div className="code-block-frame">
      <pre data-testid={testId}>{code}</pre>
      <CopyButton text={code} what="The code" />
    </div>
  );
}
