export interface VirtualAccountRequest {
  /** Our business id: the idempotency key, so a retried provisioning never opens a second account. */
  reference: string;
  accountName: string;
}

export interface VirtualAccount {
  id: string;
  accountNumber: string;
  bankName: string;
}

/** The banking rail that opens Naira receiving accounts (and, later, moves money). */
export interface BankRail {
  openVirtualAccount(request: VirtualAccountRequest, options: { timeoutMs: number; retries: number }): Promise<VirtualAccount>;
}

export const BANK_RAIL = Symbol('BANK_RAIL');
