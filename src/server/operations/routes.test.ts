import { describe, expect, it } from 'vitest';
import { appRouter } from '@/server/api/root';
import { buildOperations, matchRoute, type Operation } from './routes';

const routes = buildOperations(appRouter);

/** The match as the whole table gives it: every route's pattern tested. */
function matchAgainstEveryRoute(method: string, path: string) {
  const normalized = `/${path.replace(/^\/|\/$/g, '')}`;
  const onPath = routes.filter((route) => route.pattern.test(normalized));
  const route = onPath.find((candidate) => candidate.method === (method === 'HEAD' ? 'GET' : method));
  return route
    ? route.template + ' ' + route.method
    : onPath.length
      ? `allowed ${[...new Set(onPath.map((each) => each.method))].join(',')}`
      : 'not found';
}

function summary(method: string, path: string): string {
  const match = matchRoute(routes, method, path);
  if (match.kind === 'found') return match.route.template + ' ' + match.route.method;
  return match.kind === 'method-not-allowed'
    ? `allowed ${match.allowed.filter((each) => each !== 'HEAD' && each !== 'OPTIONS').join(',')}`
    : 'not found';
}

function samplePath(route: Operation): string {
  return route.template.replace(/\{[^}]+\}/g, '2b1f7f7e-1c57-4c3e-9a55-0f3b1a7d9c11');
}

describe('matchRoute', () => {
  it('answers every path as testing the whole table does, methods, slashes and case included', () => {
    const paths = routes.flatMap((route) => {
      const path = samplePath(route);
      return [
        path,
        `${path}/`,
        `/${path}`,
        path.toUpperCase(),
        `${path}/extra`,
        path.split('/').slice(0, -1).join('/'),
        path.replace('/', '//'),
        `${path}//x`,
      ];
    });
    paths.push('/', '', '/nothing/here', '//', '/apps/%2F/keywords');
    for (const path of paths) {
      for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
        expect(summary(method, path), `${method} ${path}`).toBe(matchAgainstEveryRoute(method, path));
      }
    }
  });

  it('gives the path parameters percent-decoded, as RFC 3986 lets a client send any character of a segment', () => {
    expect(matchRoute(routes, 'GET', '/apps/A%20b')).toMatchObject({ kind: 'found', params: { id: 'A b' } });
    // fetch's ids, `app:<uuid>`, as a generated client encodes them.
    expect(matchRoute(routes, 'GET', '/search/app%3Aabc')).toMatchObject({ kind: 'found', params: { id: 'app:abc' } });
    // One that does not decode is kept as sent, for its validation to refuse.
    expect(matchRoute(routes, 'GET', '/apps/%E0%A4%A')).toMatchObject({ kind: 'found', params: { id: '%E0%A4%A' } });
  });
});
