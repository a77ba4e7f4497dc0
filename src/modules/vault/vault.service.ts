import { Inject, Injectable } from '@nestjs/common';
import { ServiceUnavailableError } from '../../common/errors/app-error';
import { ProviderError } from '../../common/providers/provider-http-client';
import { listPage, Page, PageRequest } from '../../common/paging';
import { toMinorUnits } from '../../common/money/money';
import { APP_CONFIG, AppConfig } from '../../config/app.config';
import { chainNamed } from '../../config/vault-chains.config';
import { testTransferKey } from '../bank-rail';
import { CHAIN_FAUCET, ChainFaucet } from '../chains';
import { IdempotencyClaim, IdempotencyService } from '../idempotency';
import { LedgerService } from '../ledger';
import { PoboBusinessesService } from '../pobo-businesses';
import { isChainAddress, vaultAddressOn } from './chain-address';
import { VaultDto, VaultHolderDto, VaultTotalsDto, VaultTransactionDto, VaultTransactionListQuery } from './dto/vault.dto';
import { AddressBlacklistedDto, BlacklistAddressDto, SendTestDepositDto, TestDepositSentDto } from './dto/vault-test-helpers.dto';
import { mapVault, mapVaultHolder, mapVaultTotals, mapVaultTransaction, VAULT_ASSET } from './vault.mapper';
import { AddressInvalidError } from './vault.errors';
import { VaultRepository } from './vault.repository';

/** The businesses' vaults as merchants see them, and the test helpers that move USDC on the local chains. */
@Injectable()
export class VaultService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CHAIN_FAUCET) private readonly faucet: ChainFaucet | null,
    private readonly repository: VaultRepository,
    private readonly businesses: PoboBusinessesService,
    private readonly ledger: LedgerService,
    private readonly idempotency: IdempotencyService,
  ) {}

  /** One of the merchant's businesses' vault: an address and balances per chain. */
  async vault(merchantId: string, poboUserId: string): Promise<VaultDto> {
    const business = await this.businesses.findOwned(merchantId, poboUserId);
    const chains = this.config.vault.chains;
    const [accounts, pending] = await Promise.all([
      this.ledger.vaultBalances(
        VAULT_ASSET,
        business.id,
        chains.map((chain) => chain.name),
      ),
      this.repository.pendingOf(merchantId, [business.id]),
    ]);
    return mapVault(business, chains, accounts, byChain(pending));
  }

  /** Every vault of the merchant summed, on each chain: what the dashboard's vault page opens with. */
  async totals(merchantId: string): Promise<VaultTotalsDto> {
    const [available, pending] = await Promise.all([this.ledger.vaultTotals(merchantId, VAULT_ASSET), this.repository.pendingOf(merchantId)]);
    return mapVaultTotals(this.config.vault.chains, available, byChain(pending));
  }

  /** A page of the merchant's businesses holding USDC, in business id order (the cursor is the last one's id), with their balances per chain. */
  holders(merchantId: string, query: PageRequest): Promise<Page<VaultHolderDto>> {
    const chains = this.config.vault.chains;
    return listPage(
      query,
      'pobo',
      async (limit, after) => {
        const holders = await this.ledger.vaultHolders(merchantId, VAULT_ASSET, chains.length, limit, after);
        const ids = holders.map((holder) => holder.poboUserId);
        const [names, pending] = await Promise.all([this.businesses.namesOf(merchantId, ids), this.repository.pendingOf(merchantId, ids)]);
        return holders.map((holder) => ({
          ...holder,
          businessName: names.get(holder.poboUserId) ?? '',
          pending: byChain(pending.filter((row) => row.poboUserId === holder.poboUserId)),
        }));
      },
      (holder) => mapVaultHolder(holder, chains, holder.pending),
      (item) => item.poboUserId,
    );
  }

  /** A page of the merchant's vault transactions, newest first: one business's when `poboUserId` is given, else every business's. */
  async transactions(merchantId: string, poboUserId: string | undefined, query: VaultTransactionListQuery): Promise<Page<VaultTransactionDto>> {
    if (poboUserId !== undefined) await this.businesses.findOwned(merchantId, poboUserId);
    return listPage(
      query,
      'vtx',
      (limit, after) => this.repository.page(merchantId, poboUserId, limit, after),
      (row) => mapVaultTransaction(row, this.config.vault.chains),
      (item) => item.vaultTransactionId,
    );
  }

  /** Test mode: the local chain's faucet sends USDC to the business's vault, a real transaction the worker then finds. */
  async sendTestDeposit(merchantId: string, dto: SendTestDepositDto, claim: IdempotencyClaim | undefined): Promise<TestDepositSentDto> {
    const business = await this.businesses.findOwned(merchantId, dto.poboUserId);
    const chain = chainNamed(this.config.vault.chains, dto.chain);
    const toAddress = vaultAddressOn(chain, business);
    const amount = toMinorUnits(dto.amount, VAULT_ASSET)!;
    const txHash = await this.callFaucet((faucet) => faucet.mint(dto.chain, toAddress, BigInt(amount), testTransferKey(claim), this.budget()));
    return this.idempotency.commit(claim, () => Promise.resolve({ poboUserId: business.id, chain: dto.chain, toAddress, amount: dto.amount, txHash }));
  }

  /** Test mode: blacklists an address on the local chain's USDC, so a transfer to it reverts. */
  async blacklist(dto: BlacklistAddressDto, claim: IdempotencyClaim | undefined): Promise<AddressBlacklistedDto> {
    if (!isChainAddress(dto.chain, dto.address)) throw new AddressInvalidError(dto.chain);
    const txHash = await this.callFaucet((faucet) => faucet.blacklist(dto.chain, dto.address, this.budget()));
    return this.idempotency.commit(claim, () => Promise.resolve({ chain: dto.chain, address: dto.address, txHash }));
  }

  private budget() {
    return { timeoutMs: this.config.providerTimeoutMs, retries: 1 };
  }

  /** A faucet that is down or slow is a 503 to retry with the same Idempotency-Key. Test keys only reach here, so outside production. */
  private async callFaucet<T>(call: (faucet: ChainFaucet) => Promise<T>): Promise<T> {
    if (!this.faucet) throw new ServiceUnavailableError('There is no local chain faucet in production');
    try {
      return await call(this.faucet);
    } catch (err) {
      if (err instanceof ProviderError && err.retryable)
        throw new ServiceUnavailableError('The local chain faucet is unavailable; retry with the same Idempotency-Key');
      throw err;
    }
  }
}

/** Micro-USDC pending by chain, summed over the rows' businesses. */
function byChain(rows: { chain: string; pending: bigint }[]): Map<string, bigint> {
  const sums = new Map<string, bigint>();
  for (const row of rows) sums.set(row.chain, (sums.get(row.chain) ?? 0n) + row.pending);
  return sums;
}
