// The steps of the Dockerfile's last stage, and what its build stage removes, for the tests that check it
// (test/dockerfile.test.ts) and run what it holds without Docker (e2e/api/production-image.spec.ts). Continuation lines
// are joined; comments are left out.

export interface Step {
  instruction: string;
  argument: string;
}

function steps(dockerfile: string): Step[] {
  const joined = dockerfile
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n\s*/g, '');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const space = line.indexOf(' ');
      return { instruction: line.slice(0, space).toUpperCase(), argument: line.slice(space + 1).trim() };
    });
}

/** The steps before the last FROM (the stages that build), and after it (the last stage's). */
function stages(dockerfile: string): { building: Step[]; last: Step[] } {
  const all = steps(dockerfile);
  const from = all.map((step) => step.instruction).lastIndexOf('FROM');
  return { building: all.slice(0, from), last: all.slice(from + 1) };
}

/** The paths the build stage (before the last FROM) removes with `rm -rf` once built: never copied from it. */
export function removedByBuild(dockerfile: string): string[] {
  return stages(dockerfile)
    .building.filter((step) => step.instruction === 'RUN')
    .flatMap((step) => step.argument.split('&&').map((command) => command.trim()))
    .flatMap((command) => (command.startsWith('rm -rf ') ? command.slice('rm -rf '.length).split(/\s+/) : []));
}

/** The steps after the last FROM. */
export function runtimeStage(dockerfile: string): Step[] {
  return stages(dockerfile).last;
}
