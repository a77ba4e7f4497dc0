import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { Account, answer, dashboard } from './api';
import { SearchBox } from './pages/search';

/**
 * Every signed-in page: a skip link, the navigation, who is signed in, and the page in `main`. On
 * a narrow screen the navigation and the account fold into a menu behind one button.
 */
export function Layout({ account, children }: { account: Account; children: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  // A link followed from the open menu closes it.
  useEffect(() => setMenuOpen(false), [pathname]);
  const logout = useMutation({
    mutationFn: () => answer(dashboard.POST('/api/dashboard/logout')),
    // A fresh page: nothing of the session (its CSRF token, its data) stays in memory.
    onSettled: () => window.location.replace('/dashboard/login'),
  });
  const links = [
    { to: '/', label: 'Overview', end: true },
    { to: '/balance', label: 'Balance' },
    { to: '/businesses', label: 'Businesses' },
    { to: '/payment-intents', label: 'Payments' },
    { to: '/withdrawals', label: 'Withdrawals' },
    { to: '/international', label: 'International' },
    { to: '/vault', label: 'Vault' },
    { to: '/api-keys', label: 'API keys' },
    { to: '/webhooks', label: 'Webhooks' },
    { to: '/events', label: 'Events' },
    { to: '/team', label: 'Team' },
    { to: '/security', label: 'Security' },
    ...(account.user.role === 'owner' ? [{ to: '/audit-log', label: 'Audit log' }] : []),
  ];
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to the content
      </a>
      <header className={menuOpen ? 'top open' : 'top'}>
        <div className="bar">
          <Link className="brand" to="/">
            Merchant Dashboard
          </Link>
          <button type="button" className="secondary menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
            Menu
          </button>
        </div>
        <SearchBox />
        <nav id="main-nav" aria-label="Main">
          <ul>
            {links.map((link) => (
              <li key={link.to}>
                <NavLink to={link.to} end={link.end}>
                  {link.label}
                </NavLink>
              </li>
            ))}
            <li>
              <a href="/docs">API reference</a>
            </li>
          </ul>
        </nav>
        <div className="who">
          <span>
            {account.merchant.name} · {account.user.email} ({account.user.role})
          </span>
          <button type="button" className="secondary" onClick={() => logout.mutate()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
