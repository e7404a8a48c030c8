// The log lines a test's requests write to stdout (one JSON line per API request), kept instead of printed.
// Call vi.restoreAllMocks() to stop capturing.
import { vi } from 'vitest';

export function captureLogs(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}
