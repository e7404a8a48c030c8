import { describe, expect, it } from 'vitest';
import { MEMBER_ROLES, PERMISSIONS, roleAllows } from '@/server/services/access/roles';
import { roleOperations, roleTable } from './role-table';

const ARTICLES = new Set(['a', 'an', 'the', 'its', 'your', 'every', 'new']);

/** What an operation acts on: its name less its verb and articles ("Reset test data" → "test data"). */
function objectOf(name: string): string {
  return name
    .toLowerCase()
    .split(/\s+/)
    .slice(1)
    .filter((word) => !ARTICLES.has(word))
    .join(' ');
}

describe('the members page’s table of roles', () => {
  it('names every procedure, each under the permission the access policy checks for it', () => {
    const unnamed = roleOperations().filter((operation) => operation.name === operation.path);
    expect(unnamed.map((operation) => operation.path)).toEqual([]);
    const table = roleTable();
    for (const operation of roleOperations()) {
      const rows = table.filter((row) => row.operations.includes(operation.name));
      expect(
        rows.map((row) => row.permission),
        operation.path,
      ).toContain(operation.permission);
    }
  });

  it('ticks a role exactly where the role allows the permission', () => {
    for (const row of roleTable())
      for (const role of MEMBER_ROLES)
        expect(row.allowedTo.includes(role), `${role} ${row.permission}`).toBe(roleAllows(role, row.permission));
  });

  // Issue 64: the page said only owners and admins reset test data, while a developer can.
  it('says no operation under a permission other than the one that governs it', () => {
    const operations = roleOperations().filter((operation) => objectOf(operation.name).split(' ').length >= 2);
    for (const [permission, phrase] of Object.entries(PERMISSIONS))
      for (const operation of operations)
        if (operation.permission !== permission)
          expect(
            phrase.toLowerCase(),
            `${permission} names “${operation.name}” (${operation.permission})`,
          ).not.toContain(objectOf(operation.name));
  });
});
