// For the specs that run the server's modules in the test process (a second app, a database they restart): they
// change the environment, and the configuration module (src/server/core/config.ts) reads it again.
import { resetConfig } from '../src/server/core/config';

/** Sets each variable, or unsets it for undefined. */
export function setEnvironment(changes: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}
