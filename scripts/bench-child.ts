// A measurement made in a process of its own (so that its peak RSS is its own): a bench script run again with
// `--child` and its arguments, answering one JSON object on its standard output.
import { spawn } from 'node:child_process';

export function measuredInChild<T>(script: string, args: string[], env: Record<string, string> = {}): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--child', ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${script} ${args.join(' ')} exited ${code}`)),
    );
  });
}
