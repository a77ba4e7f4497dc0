import { Inject, Injectable } from '@nestjs/common';
import type { ChainName } from '../../config/vault-chains.config';
import { CHAIN_CLIENTS, ChainClients } from '../chains';
import { LedgerService } from '../ledger';
import { VAULT_ASSET } from './vault.mapper';
import { VaultRepository } from './vault.repository';
import { VaultTransfersRepository } from './vault-transfers.repository';

/** A vault whose USDC on its chain is not what the ledger and its pending deposits say (micro-USDC, as strings). */
export interface VaultDifference {
  poboUserId: string;
  chain: ChainName;
  address: string;
  /** The vault's accounts in the ledger (available and reserved). */
  ledger: string;
  /** Deposits seen on the chain and not yet credited. */
  pending: string;
  /** Network fees of its confirmed transfers out: the platform's, still at the vault's address. */
  fees: string;
  onChain: string;
}

/**
 * The vaults against their chains, for `ledger:verify`: each vault's USDC on its chain must be
 * what the ledger holds for it (available and reserved), plus its deposits still pending, plus the
 * fees of its confirmed transfers (the platform's revenue, never moved from the vault's address).
 * A transfer that landed and has not reached its confirmations yet is a difference until it has.
 */
@Injectable()
export class VaultReconciliationService {
  constructor(
    @Inject(CHAIN_CLIENTS) private readonly clients: ChainClients,
    private readonly repository: VaultRepository,
    private readonly transfers: VaultTransfersRepository,
    private readonly ledger: LedgerService,
  ) {}

  async reconcile(): Promise<{ compared: number; differences: VaultDifference[] }> {
    const [vaults, accounts, fees] = await Promise.all([this.repository.depositedVaults(), this.ledger.vaultBalances(VAULT_ASSET), this.transfers.feesHeld()]);
    const differences: VaultDifference[] = [];
    for (const vault of vaults) {
      const ledger = accounts
        .filter((account) => account.poboUserId === vault.poboUserId && account.chain === vault.chain)
        .reduce((sum, account) => sum + BigInt(account.balance), 0n);
      const held = fees.find((f) => f.poboUserId === vault.poboUserId && f.chain === vault.chain)?.fees ?? 0n;
      const onChain = await this.clients.get(vault.chain)!.usdcBalance(vault.address);
      if (onChain !== ledger + vault.pending + held) {
        differences.push({ ...vault, ledger: String(ledger), pending: String(vault.pending), fees: String(held), onChain: String(onChain) });
      }
    }
    return { compared: vaults.length, differences };
  }
}
