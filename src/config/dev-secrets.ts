/**
 * Development-only secrets. Safe to publish because production refuses to boot with them
 * (see `loadConfig`). The mnemonic is the well-known Hardhat/Foundry test phrase.
 */
export const DEV_LINK_SIGNING_SECRET = 'dev-only-link-signing-secret-change-me';
export const DEV_WALLET_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEV_VERIFICATION_PROVIDER_API_KEY = 'sandbox-verification-key';
export const DEV_BANK_RAIL_API_KEY = 'sandbox-bank-rail-key';
export const DEV_BANK_RAIL_WEBHOOK_SECRET = 'sandbox-bank-rail-webhook-secret';
export const DEV_BRIDGE_RAIL_API_KEY = 'sandbox-bridge-rail-key';
export const DEV_BRIDGE_RAIL_WEBHOOK_SECRET = 'sandbox-bridge-rail-webhook-secret';
export const DEV_PAYOUT_RAIL_API_KEY = 'sandbox-payout-rail-key';
export const DEV_PAYOUT_RAIL_WEBHOOK_SECRET = 'sandbox-payout-rail-webhook-secret';
/** The local chains' USDC: the contract Hardhat's first account deploys first (the same on each EVM chain), and the Solana mint. */
export const DEV_EVM_USDC_ADDRESS = '0xbaaF9af35C5Afb292cC0eC170961B5bF601171b9';
export const DEV_SOLANA_USDC_MINT = '2MkbSBSigkLkUzY1G4Q9Va77rQafDWTfRKVKPKSxssuH';
export const DEV_CHAIN_FAUCET_API_KEY = 'sandbox-chains-key';
