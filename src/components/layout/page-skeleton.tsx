// What a dashboard page shows while its data loads: its frame at once, announced as busy.
export function PageSkeleton({ label }: { label: string }) {
  return (
    <div className="panel" aria-busy="true" aria-live="polite" data-testid="page-loading">
      <p className="visually-hidden">{label}</p>
      <div className="skeleton" style={{ width: '40%', height: '1.6rem' }} />
      <div className="skeleton" style={{ width: '85%' }} />
      <div className="skeleton" style={{ width: '70%' }} />
      <div className="skeleton" style={{ width: '90%', height: '8rem' }} />
    </div>
  );
}
