import { ExportsPanel } from '@/components/exports/exports-panel';
import { getDashboardCaller, requirePermission, serverModules } from '@/app/server-modules';

export const metadata = { title: 'Exports · ASO Analytics' };

export default async function ExportsPage() {
  await requirePermission('data.read');
  const { DATASETS, DATASET_DEFINITIONS, EXPORT_FILE_DAYS, MAX_EXPORT_DAYS, ROWS_PER_CREDIT } = await serverModules();
  const caller = await getDashboardCaller();
  const [exports, apps, account] = await Promise.all([
    caller.exports.list(),
    caller.apps.list({}),
    caller.account.get(),
  ]);
  return (
    <ExportsPanel
      exports={exports}
      apps={apps.map(({ id, name, store }) => ({ id, name, store }))}
      datasets={DATASETS.map((name) => ({ name, description: DATASET_DEFINITIONS[name].description }))}
      limits={{ fileDays: EXPORT_FILE_DAYS, maxDays: MAX_EXPORT_DAYS, rowsPerCredit: ROWS_PER_CREDIT }}
      today={new Date().toISOString().slice(0, 10)}
      livemode={account.livemode}
    />
  );
}
