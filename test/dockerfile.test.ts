// The Dockerfile, checked where no Docker engine runs (these machines): valid by the Docker language service's own
// validator (dockerfile-utils; hadolint is in neither Debian nor npm here), multi-stage, and a final stage that
// installs production dependencies only, runs as an unprivileged user and starts the launcher in exec form.
// e2e/api/production-image.spec.ts runs what that stage holds.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validate, type ValidatorSettings } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { removedByBuild, runtimeStage } from './dockerfile';

const ROOT = path.resolve(import.meta.dirname, '..');
const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const ERROR = 1; // ValidationSeverity.ERROR
const STRICT: ValidatorSettings = {
  deprecatedMaintainer: ERROR,
  directiveCasing: ERROR,
  emptyContinuationLine: ERROR,
  instructionCasing: ERROR,
  instructionCmdMultiple: ERROR,
  instructionEntrypointMultiple: ERROR,
  instructionHealthcheckMultiple: ERROR,
  instructionJSONInSingleQuotes: ERROR,
  instructionWorkdirRelative: ERROR,
};

describe('Dockerfile', () => {
  it('has no problem the Docker language service finds', () => {
    expect(validate(dockerfile, STRICT)).toEqual([]);
  });

  it('builds in one stage and runs from another, on a pinned base image', () => {
    const bases = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((match) => match[1]!);
    expect(bases.length).toBeGreaterThanOrEqual(2);
    for (const base of bases) expect(base).toMatch(/^node:\d+\.\d+-[a-z]+-slim$/);
  });

  it('installs production dependencies only in its last stage, and runs the launcher as the node user', () => {
    const stage = runtimeStage(dockerfile);
    const runs = stage.filter((step) => step.instruction === 'RUN').map((step) => step.argument);
    expect(runs.some((command) => /\bnpm ci\b.*--omit=dev/.test(command))).toBe(true);
    expect(stage.filter((step) => step.instruction === 'USER').map((step) => step.argument)).toEqual(['node']);
    expect(stage.find((step) => step.instruction === 'CMD')?.argument).toBe('["node", "dist/start.mjs"]');
    // What the launcher is: `npm start`.
    expect(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start).toBe('node dist/start.mjs');
    expect(stage.some((step) => step.instruction === 'HEALTHCHECK' && step.argument.includes('/api/health'))).toBe(
      true,
    );
  });

  it('runs on the base image’s Node, of the major the project pins, without the Node binary the project brings for development', () => {
    const pinned = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      optionalDependencies: Record<string, string>;
    };
    const binaries = Object.keys(pinned.optionalDependencies).filter((name) => /^node-linux-/.test(name));
    expect(binaries.length).toBeGreaterThan(0);
    const major = pinned.optionalDependencies[binaries[0]!]!.split('.')[0];
    for (const base of [...dockerfile.matchAll(/^FROM node:(\d+)\./gm)].map((match) => match[1]))
      expect(base).toBe(major);
    expect(readFileSync(path.join(ROOT, '.nvmrc'), 'utf8').trim().split('.')[0]).toBe(major);
    const install = runtimeStage(dockerfile).find(
      (step) => step.instruction === 'RUN' && /\bnpm ci\b/.test(step.argument),
    )!.argument;
    for (const removed of [...binaries.map((name) => `node_modules/${name}`), 'node_modules/.bin/node'])
      expect(install).toContain(removed);
  });

  it('leaves the build’s cache out of the image', () => {
    expect(removedByBuild(dockerfile)).toContain('.next/cache');
  });
});
