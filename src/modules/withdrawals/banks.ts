/**
 * Banks a withdrawal can pay into, by 3-digit CBN code. A fixed list in this version: the rail
 * pays into any of them, and an account number is checked against its bank's code (NUBAN).
 */
export const BANKS: readonly { bankCode: string; name: string }[] = [
  { bankCode: '044', name: 'Access Bank' },
  { bankCode: '023', name: 'Citibank Nigeria' },
  { bankCode: '050', name: 'Ecobank Nigeria' },
  { bankCode: '070', name: 'Fidelity Bank' },
  { bankCode: '011', name: 'First Bank of Nigeria' },
  { bankCode: '214', name: 'First City Monument Bank' },
  { bankCode: '058', name: 'Guaranty Trust Bank' },
  { bankCode: '030', name: 'Heritage Bank' },
  { bankCode: '082', name: 'Keystone Bank' },
  { bankCode: '076', name: 'Polaris Bank' },
  { bankCode: '221', name: 'Stanbic IBTC Bank' },
  { bankCode: '068', name: 'Standard Chartered Bank' },
  { bankCode: '232', name: 'Sterling Bank' },
  { bankCode: '032', name: 'Union Bank of Nigeria' },
  { bankCode: '033', name: 'United Bank for Africa' },
  { bankCode: '215', name: 'Unity Bank' },
  { bankCode: '035', name: 'Wema Bank' },
  { bankCode: '057', name: 'Zenith Bank' },
];

export const BANK_CODES = BANKS.map((bank) => bank.bankCode);
