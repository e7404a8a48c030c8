import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('orders the members of every object, at any depth, and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson({ a: { y: 1, x: 2 } })).toBe(canonicalJson({ a: { x: 2, y: 1 } }));
  });

  it('writes what JSON.stringify writes for a value already in order', () => {
    const value = {
      a: 'é "quoted"',
      b: [1.5, true, null, 'x'],
      c: { d: -0, e: 1e21 },
      f: new Date(0),
      g: undefined,
      h: [undefined],
    };
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
    expect(canonicalJson('text')).toBe('"text"');
  });
});
