export type { AddressSet, CallBudget, ChainClient, Sender, SignedTransfer, SigningKey, TransferOutcome, TransferSigning, UsdcTransfer } from './chain-client';
export { describeChainError, TransferRefusedError } from './chain-client';
export { CHAIN_CLIENTS, createChainClients } from './chain-clients';
export type { ChainClients } from './chain-clients';
export { ChainsModule } from './chains.module';
export { CHAIN_FAUCET, ChainFaucet } from './chain-faucet';
