/**
 * The terms a business accepts on the agreement page. The version is recorded with every
 * acceptance; change it whenever the text changes, so evidence always names the exact text.
 * A form loaded with an older version is refused (409) and the business is asked to reload.
 */
export const TERMS_VERSION = '2026-11-01';

export const TERMS_TITLE = 'Pay-on-behalf-of services agreement';

export interface TermsSection {
  heading: string;
  body: string;
}

export const TERMS: readonly TermsSection[] = [
  {
    heading: 'The service',
    body:
      'We provide payment collection and payout services to your business through the merchant that sent you this link. ' +
      'The merchant submits instructions on your behalf; we execute them according to these terms.',
  },
  {
    heading: 'Verification',
    body:
      'Before any funds move, we verify your business (KYB): its registration, ownership, directors and operating address. ' +
      'You agree to provide accurate, complete and current information and documents, and to tell us promptly when they change.',
  },
  {
    heading: 'Permitted use',
    body:
      'You will use the service only for lawful business purposes and not for any activity restricted by applicable law, ' +
      'sanctions or our acceptable-use policy. We may suspend the service while we review unusual activity.',
  },
  {
    heading: 'Funds and fees',
    body:
      'Funds we hold for you are safeguarded in segregated accounts. Fees are agreed between you and the merchant and shown before each payment. ' +
      'Blockchain and banking networks may charge their own fees.',
  },
  {
    heading: 'Data protection',
    body:
      'We process your business and personal data to provide the service, meet our legal obligations and prevent fraud. ' +
      'We share it only with the merchant, our verification and banking partners, and authorities where the law requires.',
  },
  {
    heading: 'Ending the agreement',
    body:
      'Either party may end this agreement with 30 days’ written notice, or immediately for a serious breach. ' +
      'Obligations relating to completed payments survive its end.',
  },
];
