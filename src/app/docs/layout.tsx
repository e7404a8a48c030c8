import type { ReactNode } from 'react';
import { PublicHeader } from '@/components/layout/public-header';

export default function DocsLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <PublicHeader />
      <div id="content">{children}</div>
    </>
  );
}
