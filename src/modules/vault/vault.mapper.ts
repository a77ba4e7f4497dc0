import { minorFromColumn, toMajorUnits } from '../../common/money/money';
import { ChainConfig, explorerUrl } from '../../config/vault-chains.config';
import type { VaultAccountBalance } from '../ledger';
import type { PoboBusinessRow } from '../pobo-businesses';
import type { VaultDto, VaultHolderDto, VaultTotalsDto, VaultTransactionDto } from './dto/vault.dto';
import type { VaultTransferDto } from './dto/vault-transfer.dto';
import type { VaultTransferRecord } from './vault-transfers.repository';
import type { VaultTransactionRecord } from './vault.repository';
import { vaultAddressOn } from './chain-address';

export const VAULT_ASSET = 'USDC';

const usdc = (micro: number | bigint) => toMajorUnits(Number(micro), VAULT_ASSET);

/** The business's vault on each of `chains`: its address there, and its balances from the ledger and its pending deposits. */
export function mapVault(
  business: Pick<PoboBusinessRow, 'id' | 'evmAddress' | 'svmAddress'>,
  chains: readonly Pick<ChainConfig, 'name' | 'kind'>[],
  accounts: VaultAccountBalance[],
  pending: ReadonlyMap<string, bigint>,
): VaultDto {
  return {
    poboUserId: business.id,
    wallets: chains.map((chain) => ({ chain: chain.name, address: vaultAddressOn(chain, business) })),
    balances: balancesOn(chains, availableOn(accounts), pending),
  };
}

/** A business in the merchant-wide list: its balances on each of `chains`. */
export function mapVaultHolder(
  holder: { poboUserId: string; businessName: string; accounts: VaultAccountBalance[] },
  chains: readonly Pick<ChainConfig, 'name'>[],
  pending: ReadonlyMap<string, bigint>,
): VaultHolderDto {
  return { poboUserId: holder.poboUserId, businessName: holder.businessName, balances: balancesOn(chains, availableOn(holder.accounts), pending) };
}

/** Every vault of the merchant summed: each chain's, from the ledger's totals (micro-USDC by chain) and the pending deposits. */
export function mapVaultTotals(
  chains: readonly Pick<ChainConfig, 'name'>[],
  available: ReadonlyMap<string, number>,
  pending: ReadonlyMap<string, bigint>,
): VaultTotalsDto {
  const sum = (of: (chain: string) => number | bigint) => usdc(chains.reduce((total, chain) => total + BigInt(of(chain.name)), 0n));
  return {
    asset: VAULT_ASSET,
    available: sum((chain) => available.get(chain) ?? 0),
    pending: sum((chain) => pending.get(chain) ?? 0n),
    balances: balancesOn(chains, (chain) => available.get(chain) ?? 0, pending),
  };
}

function availableOn(accounts: VaultAccountBalance[]): (chain: string) => number {
  return (chain) => accounts.find((account) => account.chain === chain && account.kind === 'vault_available')?.balance ?? 0;
}

function balancesOn(chains: readonly Pick<ChainConfig, 'name'>[], available: (chain: string) => number, pending: ReadonlyMap<string, bigint>) {
  return chains.map((chain) => ({
    chain: chain.name,
    asset: VAULT_ASSET,
    available: usdc(available(chain.name)),
    pending: usdc(pending.get(chain.name) ?? 0n),
  }));
}

/** `chains` give each chain's explorer. */
export function mapVaultTransaction(row: VaultTransactionRecord, chains: readonly ChainConfig[]): VaultTransactionDto {
  return {
    vaultTransactionId: row.id,
    poboUserId: row.poboUserId,
    direction: row.direction,
    ...movement(row),
    txHash: row.txHash,
    explorerUrl: explorerUrl(chains, row.chain, row.txHash),
    confirmations: row.confirmations,
    status: row.status,
    merchantReference: row.merchantReference,
    createdAt: row.createdAt.toISOString(),
    confirmedAt: row.confirmedAt?.toISOString() ?? null,
  };
}

/** `chains` give each chain's explorer. */
export function mapVaultTransfer(row: VaultTransferRecord, chains: readonly ChainConfig[]): VaultTransferDto {
  return {
    vaultTransferId: row.id,
    vaultTransactionId: row.vaultTransactionId,
    poboUserId: row.poboUserId,
    ...movement(row),
    merchantReference: row.merchantReference,
    status: row.status,
    failureReason: row.failureReason,
    stalledReason: row.stalledReason,
    txHash: row.txHash,
    explorerUrl: explorerUrl(chains, row.chain, row.txHash),
    createdAt: row.createdAt.toISOString(),
    submittedAt: row.submittedAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/** What moved on which chain, from where to where: a vault transaction's and a transfer's alike. */
function movement<From extends string | null>(
  row: Pick<VaultTransferRecord, 'chain' | 'asset' | 'amount' | 'networkFee' | 'toAddress'> & { fromAddress: From },
) {
  return {
    chain: row.chain,
    asset: row.asset,
    amount: usdc(minorFromColumn(row.amount)),
    networkFee: usdc(minorFromColumn(row.networkFee)),
    fromAddress: row.fromAddress,
    toAddress: row.toAddress,
  };
}
