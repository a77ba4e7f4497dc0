import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { Account, answer, ApiError, dashboard, setCsrfToken } from './api';

export const ME = ['me'] as const;

/** The marker the service sets beside the session cookie (which scripts cannot read), and clears with it. */
const SIGNED_IN = /(?:^|;\s*)(?:__Host-)?dashboard_signed_in=1(?:;|$)/;

/**
 * The signed-in account, or null when there is no session: no marker (nothing is asked, so a
 * signed-out page logs no 401), or the service answered 401 (the session ended; the marker goes).
 */
export function useAccount() {
  return useQuery({
    queryKey: ME,
    queryFn: async (): Promise<Account | null> => {
      if (!SIGNED_IN.test(document.cookie)) return null;
      try {
        const account = await answer(dashboard.GET('/api/dashboard/me'));
        setCsrfToken(account.csrfToken);
        return account;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          // Named and flagged as the service set it: `__Host-` and `Secure` over HTTPS.
          const https = window.location.protocol === 'https:';
          document.cookie = `${https ? '__Host-' : ''}dashboard_signed_in=; Max-Age=0; Path=/${https ? '; Secure' : ''}`;
          return null;
        }
        throw err;
      }
    },
    staleTime: 60_000,
    retry: false,
  });
}

/** After sign-up, login or a session restart: the new account and its CSRF token, without asking again. */
export function useSignedIn(): (account: Account) => void {
  const client = useQueryClient();
  return (account) => {
    setCsrfToken(account.csrfToken);
    client.setQueryData(ME, account);
  };
}

/** Renders its children for a signed-in user, else sends the browser to the login page (and back after). */
export function RequireSession({ children }: { children: (account: Account) => ReactNode }) {
  const { data, isPending, error } = useAccount();
  const location = useLocation();
  if (isPending) return <p className="loading">Loading…</p>;
  if (error) throw error;
  if (!data) return <Navigate to={`/login?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <>{children(data)}</>;
}

export function canWrite(account: Account, ...roles: Account['user']['role'][]): boolean {
  return roles.includes(account.user.role);
}
