import { IsString, Matches } from 'class-validator';
import { parseProviderBody, ProviderHttpClient } from '../../common/providers/provider-http-client';
import type { ChainName } from '../../config/vault-chains.config';
import type { CallBudget } from './chain-client';

/** Nest injection token of the local chains' faucet; null in production. */
export const CHAIN_FAUCET = Symbol('CHAIN_FAUCET');

class FaucetTransaction {
  @IsString()
  @Matches(/^[0-9A-Za-z]{32,128}$/)
  txHash: string;
}

/**
 * The local chains' faucet (development and tests only), behind the vault's test helpers: a real
 * transaction on the chain by the sandbox USDC's owner. `key` makes a retried call the same
 * transaction.
 */
export class ChainFaucet {
  private readonly http: ProviderHttpClient;

  constructor(url: string, apiKey: string) {
    this.http = new ProviderHttpClient({ name: 'chain faucet', baseUrl: url, apiKey });
  }

  /** Sends `amount` micro-USDC to `to`, minted by the USDC's owner; answers the transaction's hash. */
  async mint(chain: ChainName, to: string, amount: bigint, key: string, budget: CallBudget): Promise<string> {
    const { body } = await this.http.request({ method: 'POST', path: `/v1/${chain}/mint`, body: { to, amount: String(amount), key }, ...budget });
    return parseProviderBody('chain faucet', FaucetTransaction, body).txHash;
  }

  /** Blacklists `address` on the chain's USDC (Solana: freezes its USDC account), so transfers to it revert. */
  async blacklist(chain: ChainName, address: string, budget: CallBudget): Promise<string> {
    const { body } = await this.http.request({ method: 'POST', path: `/v1/${chain}/blacklist`, body: { address }, ...budget });
    return parseProviderBody('chain faucet', FaucetTransaction, body).txHash;
  }
}
