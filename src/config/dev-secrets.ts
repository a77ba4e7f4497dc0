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
