// What each role may do, from the procedures themselves (src/server/api/role-table.ts): each permission with the
// operations it governs, so the page cannot drift from what is enforced.
import { TableScroll } from '@/components/common/table-scroll';
import { formatCount } from '@/components/format';

type Props = {
  roles: { value: string; label: string }[];
  permissions: { label: string; operations: string[]; allowedTo: string[] }[];
};

export function RolePermissionsTable({ roles, permissions }: Props) {
  return (
    <section className="panel" aria-labelledby="role-permissions-title">
      <h2 id="role-permissions-title">What each role can do</h2>
      <TableScroll label="What each role can do">
        <table data-testid="role-permissions" className="wrap-first">
          <thead>
            <tr>
              <th scope="col">Permission</th>
              {roles.map((role) => (
                <th key={role.value} scope="col">
                  {role.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {permissions.map((permission) => (
              <tr key={permission.label}>
                <th scope="row" style={{ fontWeight: 'normal' }}>
                  {permission.label}
                  <details className="operations">
                    <summary className="muted">{formatCount(permission.operations.length, 'operation')}</summary>
                    <ul>
                      {permission.operations.map((operation) => (
                        <li key={operation}>{operation}</li>
                      ))}
                    </ul>
                  </details>
                </th>
                {roles.map((role) =>
                  permission.allowedTo.includes(role.value) ? (
                    <td key={role.value}>
                      <span aria-hidden="true">✓</span>
                      <span className="visually-hidden">Yes</span>
                    </td>
                  ) : (
                    <td key={role.value}>
                      <span className="visually-hidden">No</span>
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
