import { createPublicClient, createWalletClient, erc20Abi, http, parseEventLogs, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  isSolanaError,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  type Address as SolanaAddress,
} from '@solana/kit';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';
import type { FastifyInstance } from 'fastify';
import { DEV_USDC_ADDRESS, startEvmChains, type LocalEvmChain } from './evm-chains';
import { createFaucetServer, DEFAULT_FAUCET_API_KEY } from './faucet.server';
import artifact from './sandbox-usdc.json';
import { compileSandboxUsdc } from './sandbox-usdc.compile';
import { DEV_USDC_MINT, SolanaChain } from './solana-chain';
import { createSolanaRpcServer } from './solana-rpc.server';

/** Hardhat's second development account (a public key pair): a sender of USDC in these tests. */
const SENDER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const RECIPIENT: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const BLACKLISTED: Address = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';

/** The local chains through the clients the service uses: viem on the EVM chains, @solana/kit on Solana. */
describe('local chains', () => {
  let evm: { chains: LocalEvmChain[]; close(): Promise<void> };
  let solana: SolanaChain;
  let solanaRpc: FastifyInstance;
  let solanaUrl: string;
  let faucet: FastifyInstance;

  beforeAll(async () => {
    evm = await startEvmChains(
      [
        { name: 'ethereum', chainId: 31337, port: 0 },
        { name: 'polygon', chainId: 31338, port: 0 },
      ],
      { host: '127.0.0.1', blockIntervalMs: 0 },
    );
    solana = await SolanaChain.start();
    solanaRpc = createSolanaRpcServer(solana);
    solanaUrl = await solanaRpc.listen({ host: '127.0.0.1', port: 0 });
    faucet = createFaucetServer({ apiKey: DEFAULT_FAUCET_API_KEY, evm: evm.chains, solana: { chain: solana, rpcUrl: solanaUrl } });
  });

  afterAll(async () => {
    await faucet?.close();
    await solanaRpc?.close();
    await evm?.close();
  });

  const faucetPost = async (path: string, body: unknown) => {
    const answer = await faucet.inject({ method: 'POST', url: path, headers: { authorization: `Bearer ${DEFAULT_FAUCET_API_KEY}` }, payload: body as object });
    return { status: answer.statusCode, body: answer.json<{ txHash?: string; error?: string }>() };
  };

  it('deploys the checked-in USDC artifact, which is what the Solidity source compiles to', () => {
    expect(compileSandboxUsdc()).toEqual(artifact);
  });

  describe('EVM (Hardhat networks)', () => {
    const clientOf = (chain: LocalEvmChain) => createPublicClient({ transport: http(chain.rpcUrl) });

    it('answers each chain id, with the USDC (6 decimals) at the same address on each', async () => {
      for (const [i, chain] of evm.chains.entries()) {
        const client = clientOf(chain);
        await expect(client.getChainId()).resolves.toBe(31337 + i);
        await expect(client.readContract({ address: DEV_USDC_ADDRESS, abi: erc20Abi, functionName: 'decimals' })).resolves.toBe(6);
      }
    });

    it('mints from the faucet in a real transaction, a Transfer log the chain reports; a blacklisted recipient makes a transfer revert', async () => {
      const [chain] = evm.chains;
      const client = clientOf(chain);
      const sender = privateKeyToAccount(SENDER_KEY);
      const minted = await faucetPost('/v1/ethereum/mint', { to: sender.address, amount: '25000000' });
      expect(minted.status).toBe(200);
      const receipt = await client.getTransactionReceipt({ hash: minted.body.txHash as Hex });
      const [log] = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' });
      expect(log.args).toEqual({ from: '0x0000000000000000000000000000000000000000', to: sender.address, value: 25_000_000n });

      const wallet = createWalletClient({ account: sender, transport: http(chain.rpcUrl) });
      const chainDefinition = {
        id: 31337,
        name: 'local',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [chain.rpcUrl] } },
      };
      // A transfer signed by the sender; the gas is given so a transfer that will revert is still sent and mined.
      const transfer = (to: Address, amount: bigint) =>
        wallet.writeContract({ chain: chainDefinition, address: DEV_USDC_ADDRESS, abi: erc20Abi, functionName: 'transfer', args: [to, amount], gas: 100_000n });
      const sent = await transfer(RECIPIENT, 5_000_000n);
      expect((await client.getTransactionReceipt({ hash: sent })).status).toBe('success');
      // Another transaction with the nonce the transfer used: refused, as a real node refuses a reused nonce.
      const used = (await client.getTransaction({ hash: sent })).nonce;
      await expect(
        wallet.writeContract({
          chain: chainDefinition,
          address: DEV_USDC_ADDRESS,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [RECIPIENT, 1n],
          gas: 100_000n,
          nonce: used,
        }),
      ).rejects.toThrow(/nonce/i);
      await expect(client.readContract({ address: DEV_USDC_ADDRESS, abi: erc20Abi, functionName: 'balanceOf', args: [RECIPIENT] })).resolves.toBe(5_000_000n);

      expect((await faucetPost('/v1/ethereum/blacklist', { address: BLACKLISTED })).status).toBe(200);
      const reverted = await transfer(BLACKLISTED, 1_000_000n);
      expect((await client.getTransactionReceipt({ hash: reverted })).status).toBe('reverted');
      // The other chain is another chain: nothing of this happened there.
      const other = clientOf(evm.chains[1]);
      await expect(other.readContract({ address: DEV_USDC_ADDRESS, abi: erc20Abi, functionName: 'balanceOf', args: [RECIPIENT] })).resolves.toBe(0n);
    });

    it('drops what was mined after a snapshot when reverted to it, as a reorganisation does', async () => {
      const chain = evm.chains[1];
      const client = clientOf(chain);
      const snapshot = (await chain.provider.request({ method: 'evm_snapshot' })) as string;
      const minted = await faucetPost('/v1/polygon/mint', { to: RECIPIENT, amount: '7000000' });
      await expect(client.readContract({ address: DEV_USDC_ADDRESS, abi: erc20Abi, functionName: 'balanceOf', args: [RECIPIENT] })).resolves.toBe(7_000_000n);
      await chain.provider.request({ method: 'evm_revert', params: [snapshot] });
      await expect(client.readContract({ address: DEV_USDC_ADDRESS, abi: erc20Abi, functionName: 'balanceOf', args: [RECIPIENT] })).resolves.toBe(0n);
      await expect(client.getTransactionReceipt({ hash: minted.body.txHash as Hex })).rejects.toThrow(/could not be found/);
    });

    it('refuses a bad address or amount, an unknown chain, and a missing key', async () => {
      expect((await faucetPost('/v1/ethereum/mint', { to: 'not-an-address', amount: '1' })).status).toBe(422);
      expect((await faucetPost('/v1/ethereum/mint', { to: RECIPIENT, amount: '0' })).status).toBe(422);
      expect((await faucetPost('/v1/bitcoin/mint', { to: RECIPIENT, amount: '1' })).status).toBe(404);
      expect((await faucet.inject({ method: 'POST', url: '/v1/ethereum/mint', payload: { to: RECIPIENT, amount: '1' } })).statusCode).toBe(401);
    });
  });

  describe('Solana (LiteSVM behind JSON-RPC)', () => {
    const usdcAccountOf = async (owner: SolanaAddress) =>
      (await findAssociatedTokenPda({ owner, mint: DEV_USDC_MINT, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0];

    it('mints from the faucet, moves USDC in a transaction signed by its owner with another fee payer, and reports both as a validator would', async () => {
      const rpc = createSolanaRpc(solanaUrl);
      const owner = await generateKeyPairSigner();
      const payer = await generateKeyPairSigner();
      const recipient = await generateKeyPairSigner();
      await rpc.requestAirdrop(payer.address, lamports(1_000_000_000n)).send();

      const minted = await faucetPost('/v1/solana/mint', { to: owner.address, amount: '40000000' });
      expect(minted.status).toBe(200);
      const ownerAccount = await usdcAccountOf(owner.address);
      expect((await rpc.getTokenAccountBalance(ownerAccount).send()).value.amount).toBe('40000000');
      const [latest] = await rpc.getSignaturesForAddress(ownerAccount).send();
      expect(latest.signature).toBe(minted.body.txHash);
      const mintTx = await rpc.getTransaction(latest.signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
      expect(mintTx!.meta!.postTokenBalances!.find((b) => b.owner === owner.address)!.uiTokenAmount.amount).toBe('40000000');

      const recipientAccount = await usdcAccountOf(recipient.address);
      const { value: blockhash } = await rpc.getLatestBlockhash().send();
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
        (m) =>
          appendTransactionMessageInstructions(
            [
              getCreateAssociatedTokenIdempotentInstruction({ payer, ata: recipientAccount, owner: recipient.address, mint: DEV_USDC_MINT }),
              getTransferCheckedInstruction({
                source: ownerAccount,
                mint: DEV_USDC_MINT,
                destination: recipientAccount,
                authority: owner,
                amount: 15_000_000n,
                decimals: 6,
              }),
            ],
            m,
          ),
      );
      const signed = await signTransactionMessageWithSigners(message);
      const signature = await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
      expect((await rpc.getTokenAccountBalance(recipientAccount).send()).value.amount).toBe('15000000');
      expect((await rpc.getTokenAccountBalance(ownerAccount).send()).value.amount).toBe('25000000');
      const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
      expect(status!.slot).toBeGreaterThan(Number(latest.slot));

      // The same transaction again (a resend after a lost answer): refused as already processed, run once.
      const resent = rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send();
      const refusal = await resent.then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isSolanaError((refusal as Error | undefined)?.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)).toBe(true);
      expect((await rpc.getTokenAccountBalance(recipientAccount).send()).value.amount).toBe('15000000');
      expect((await rpc.getSignatureStatuses([signature]).send()).value[0]!.slot).toBe(status!.slot);

      // A frozen (blacklisted) recipient: the transfer is refused, nothing moves.
      expect((await faucetPost('/v1/solana/blacklist', { address: recipient.address })).status).toBe(200);
      const again = await signTransactionMessageWithSigners(
        pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayerSigner(payer, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
          (m) =>
            appendTransactionMessageInstructions(
              [
                getTransferCheckedInstruction({
                  source: ownerAccount,
                  mint: DEV_USDC_MINT,
                  destination: recipientAccount,
                  authority: owner,
                  amount: 1n,
                  decimals: 6,
                }),
              ],
              m,
            ),
        ),
      );
      await expect(rpc.sendTransaction(getBase64EncodedWireTransaction(again), { encoding: 'base64' }).send()).rejects.toThrow();
      expect((await rpc.getTokenAccountBalance(ownerAccount).send()).value.amount).toBe('25000000');
    });

    it('forgets what was sent after a snapshot when reverted to it', async () => {
      const owner = await generateKeyPairSigner();
      const snapshot = solana.snapshot();
      const minted = await faucetPost('/v1/solana/mint', { to: owner.address, amount: '3000000' });
      const rpc = createSolanaRpc(solanaUrl);
      expect(await rpc.getTransaction(minted.body.txHash as never, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send()).not.toBeNull();
      solana.revert(snapshot);
      expect(await rpc.getTransaction(minted.body.txHash as never, { encoding: 'json', maxSupportedTransactionVersion: 0 }).send()).toBeNull();
      expect((await rpc.getAccountInfo(await usdcAccountOf(owner.address), { encoding: 'base64' }).send()).value).toBeNull();
    });
  });
});
