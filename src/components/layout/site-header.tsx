'use client';
// The site's header: the product's name, its navigation and the account. Below 900 px the navigation folds under a
// Menu button (a disclosure: aria-expanded, closed again when a link is followed). The current page is marked with
// aria-current.
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useId, useState, type ReactNode } from 'react';

export interface NavLink {
  href: string;
  label: string;
}

function isCurrent(pathname: string, href: string): boolean {
  if (href === '/docs') return pathname === '/docs';
  return pathname === href || pathname.startsWith(`${href}/`);
}

export function SiteHeader({ links, children }: { links: NavLink[]; children?: ReactNode }) {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const navId = useId();
  useEffect(() => setOpen(false), [pathname]);
  return (
    <header className="top">
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <Link href="/" className="brand">
        <img src="/icon.svg" alt="" width={22} height={22} />
        ASO Analytics
      </Link>
      <button
        type="button"
        className="menu-button"
        aria-expanded={open}
        aria-controls={navId}
        onClick={() => setOpen((value) => !value)}
      >
        Menu
      </button>
      <nav id={navId} className="site-nav" aria-label="Main" data-open={open}>
        <ul>
          {links.map((link) => (
            <li key={link.href}>
              <Link href={link.href} aria-current={isCurrent(pathname, link.href) ? 'page' : undefined}>
                {link.label}
              </Link>
            </li>
          ))}
        </ul>
        {children && <div className="account">{children}</div>}
      </nav>
    </header>
  );
}
