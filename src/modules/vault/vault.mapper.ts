import { minorFromColumn, toMajorUnits } from '../../common/money/money';
import { ChainConfig, explorerUrl } from '../../config/vault-chains.config';
import type { VaultAccountBalance } from '../ledger';
import type { PoboBusinessRow } from '../pobo-businesses';
import type { VaultDto, VaultTransactionDto } from './dto/vault.dto';
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
  const available = (chain: string) => accounts.find((account) => account.chain === chain && account.kind === 'vault_available')?.balance ?? 0;
  return {
    poboUserId: business.id,
    wallets: chains.map((chain) => ({ chain: chain.name, address: vaultAddressOn(chain, business) })),
    balances: chains.map((chain) => ({
      chain: chain.name,
      asset: VAULT_ASSET,
      available: usdc(available(chain.name)),
      pending: usdc(pending.get(chain.name) ?? 0n),
    })),
  };
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
