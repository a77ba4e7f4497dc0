import { Init1795306551863 } from './1795306551863-Init';
import { KybOnboarding1795307054075 } from './1795307054075-KybOnboarding';
import { HouseInOrder1795321814706 } from './1795321814706-HouseInOrder';
import { MoneyMovement1795403537181 } from './1795403537181-MoneyMovement';
import { International1795412256135 } from './1795412256135-International';
import { PlatformBalancesUnkept1795480000000 } from './1795480000000-PlatformBalancesUnkept';
import { LedgerNotes1795490000000 } from './1795490000000-LedgerNotes';
import { NairaCollections1795500000000 } from './1795500000000-NairaCollections';
import { DashboardAccounts1795633240357 } from './1795633240357-DashboardAccounts';
import { DashboardTeam1795640342202 } from './1795640342202-DashboardTeam';
import { Vault1795661731226 } from './1795661731226-Vault';
import { VaultTransfers1795664131586 } from './1795664131586-VaultTransfers';
import { VaultTransferHashes1795673626619 } from './1795673626619-VaultTransferHashes';
import { VaultTransferStalls1795740000000 } from './1795740000000-VaultTransferStalls';
import { ApiKeyPermissions1795762940394 } from './1795762940394-ApiKeyPermissions';
import { VaultStatusHistory1795776366828 } from './1795776366828-VaultStatusHistory';
import { Events1795790976323 } from './1795790976323-Events';
import { Webhooks1795800044176 } from './1795800044176-Webhooks';
import { WebhookClaimByEndpoint1795811586806 } from './1795811586806-WebhookClaimByEndpoint';
import { VaultHolders1795830000000 } from './1795830000000-VaultHolders';
import { DashboardSearch1795840000000 } from './1795840000000-DashboardSearch';
import { DailyActivity1795850000000 } from './1795850000000-DailyActivity';
import { OperatingIt1795860000000 } from './1795860000000-OperatingIt';
import { MoneyCensus1795870000000 } from './1795870000000-MoneyCensus';
import { QuietNotifications1795880000000 } from './1795880000000-QuietNotifications';
import { LedgerCheckpoint1795890000000 } from './1795890000000-LedgerCheckpoint';

/** Every migration in order; append new ones here after `npm run migration:generate`. */
export const MIGRATIONS = [
  Init1795306551863,
  KybOnboarding1795307054075,
  HouseInOrder1795321814706,
  MoneyMovement1795403537181,
  International1795412256135,
  PlatformBalancesUnkept1795480000000,
  LedgerNotes1795490000000,
  NairaCollections1795500000000,
  DashboardAccounts1795633240357,
  DashboardTeam1795640342202,
  Vault1795661731226,
  VaultTransfers1795664131586,
  VaultTransferHashes1795673626619,
  VaultTransferStalls1795740000000,
  ApiKeyPermissions1795762940394,
  VaultStatusHistory1795776366828,
  Events1795790976323,
  Webhooks1795800044176,
  WebhookClaimByEndpoint1795811586806,
  VaultHolders1795830000000,
  DashboardSearch1795840000000,
  DailyActivity1795850000000,
  OperatingIt1795860000000,
  MoneyCensus1795870000000,
  QuietNotifications1795880000000,
  LedgerCheckpoint1795890000000,
];
