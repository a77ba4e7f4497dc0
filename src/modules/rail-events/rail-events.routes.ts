/**
 * Where each rail delivers its signed callbacks (registered with the rail; `npm start` points the
 * sandbox rails at them).
 */
export const BANK_RAIL_CALLBACK_PATH = '/api/rails/bank/events';
export const BRIDGE_RAIL_CALLBACK_PATH = '/api/rails/bridge/events';
export const PAYOUT_RAIL_CALLBACK_PATH = '/api/rails/payout/events';
