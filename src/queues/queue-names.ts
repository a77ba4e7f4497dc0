export const KYB_QUEUE = 'kyb';
export const NAIRA_QUEUE = 'naira';
