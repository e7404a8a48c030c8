import { SecurityLogPanel } from '@/components/security-log/security-log-panel';
import { getDashboardCaller, requirePermission, serverModules } from '@/app/server-modules';

export const metadata = { title: 'Security log · ASO Analytics' };

export default async function SecurityLogPage() {
  await requirePermission('security-log.read');
  const { SECURITY_EVENT_KINDS, SECURITY_EVENT_LABELS, SECURITY_LOG_RETENTION_DAYS } = await serverModules();
  const caller = await getDashboardCaller();
  const [account, first] = await Promise.all([caller.account.get(), caller.securityLog.list({})]);
  return (
    <SecurityLogPanel
      initial={first}
      kinds={SECURITY_EVENT_KINDS.map((kind) => ({ kind, label: SECURITY_EVENT_LABELS[kind] }))}
      retentionDays={SECURITY_LOG_RETENTION_DAYS}
      livemode={account.livemode}
    />
  );
}
