import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import type { Account } from './api';
import { Layout } from './layout';
import { ApiKeys } from './pages/api-keys';
import { AuditLog } from './pages/audit-log';
import { BusinessCollections, BusinessPage, Businesses, CollectionPage } from './pages/businesses';
import { InternationalIntentPage, InternationalIntents, Quotes } from './pages/international';
import { BalancePage, WithdrawalPage, Withdrawals } from './pages/money';
import { PaymentIntentPage, PaymentIntents } from './pages/payments';
import { AcceptInvitation, LogIn, ResetPassword, SignUp, VerifyEmail } from './pages/auth';
import { NotFound } from './components/ui';
import { Overview } from './pages/overview';
import { SearchPage } from './pages/search';
import { Security } from './pages/security';
import { Team } from './pages/team';
import { RequireSession } from './session';
import './styles.css';
import { VaultOverview, VaultPage, VaultTransferPage } from './pages/vault';
import { EventPage, Events, WebhookEndpointPage, Webhooks } from './pages/webhooks';

const signedIn = (page: (account: Account) => ReactNode) => <RequireSession>{(account) => <Layout account={account}>{page(account)}</Layout>}</RequireSession>;

const router = createBrowserRouter(
  [
    { path: '/login', element: <LogIn /> },
    { path: '/signup', element: <SignUp /> },
    { path: '/reset-password', element: <ResetPassword /> },
    { path: '/verify-email', element: <VerifyEmail /> },
    { path: '/accept-invitation', element: <AcceptInvitation /> },
    { path: '/', element: signedIn((account) => <Overview account={account} />) },
    { path: '/search', element: signedIn(() => <SearchPage />) },
    { path: '/balance', element: signedIn(() => <BalancePage />) },
    { path: '/businesses', element: signedIn(() => <Businesses />) },
    { path: '/businesses/:poboUserId', element: signedIn((account) => <BusinessPage account={account} />) },
    { path: '/businesses/:poboUserId/collections', element: signedIn(() => <BusinessCollections />) },
    { path: '/collections/:collectionId', element: signedIn(() => <CollectionPage />) },
    { path: '/businesses/:poboUserId/vault', element: signedIn((account) => <VaultPage account={account} />) },
    { path: '/vault', element: signedIn(() => <VaultOverview />) },
    { path: '/vault-transfers/:vaultTransferId', element: signedIn(() => <VaultTransferPage />) },
    { path: '/payment-intents', element: signedIn(() => <PaymentIntents />) },
    { path: '/payment-intents/:paymentIntentId', element: signedIn((account) => <PaymentIntentPage account={account} />) },
    { path: '/withdrawals', element: signedIn((account) => <Withdrawals account={account} />) },
    { path: '/withdrawals/:withdrawalId', element: signedIn(() => <WithdrawalPage />) },
    { path: '/international', element: signedIn(() => <InternationalIntents />) },
    { path: '/international/:intentId', element: signedIn(() => <InternationalIntentPage />) },
    { path: '/quotes', element: signedIn(() => <Quotes />) },
    { path: '/api-keys', element: signedIn((account) => <ApiKeys account={account} />) },
    { path: '/webhooks', element: signedIn((account) => <Webhooks account={account} />) },
    { path: '/webhooks/:webhookEndpointId', element: signedIn((account) => <WebhookEndpointPage account={account} />) },
    { path: '/events', element: signedIn(() => <Events />) },
    { path: '/events/:eventId', element: signedIn((account) => <EventPage account={account} />) },
    { path: '/team', element: signedIn((account) => <Team account={account} />) },
    { path: '/security', element: signedIn((account) => <Security account={account} />) },
    { path: '/audit-log', element: signedIn((account) => (account.user.role === 'owner' ? <AuditLog /> : <NotFound />)) },
    { path: '*', element: signedIn(() => <NotFound />) },
  ],
  { basename: '/dashboard' },
);

const queries = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queries}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
