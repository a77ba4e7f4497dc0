/** Company-file groups every application must carry. */
export const REQUIRED_COMPANY_FILE_TYPES = [
  'corporate_registration_documents',
  'documents_of_corporate_governance_and_amendment',
  'certificate_of_incumbency',
  'proof_of_residential_address_of_the_ubo',
  'proof_of_business_operating_address',
  'organization_chart',
] as const;

/**
 * Further groups an application may carry: Harbor's optional groups, and ours from before we
 * followed its list, still accepted.
 */
export const OPTIONAL_COMPANY_FILE_TYPES = [
  'initial_capital',
  'income_source',
  'business_license',
  'executive_documents',
  'financial_documents',
  'compliance_documents',
  'other_documentation',
  'proof_of_source_of_funds',
  'shareholder_register',
  'tax_registration',
  'other',
] as const;

export const COMPANY_FILE_TYPES = [...REQUIRED_COMPANY_FILE_TYPES, ...OPTIONAL_COMPANY_FILE_TYPES];

/**
 * Enumerations are matched without regard to case and kept in the form listed here. Harbor
 * writes identity documents upper-case (`PASSPORT`, `DRIVER_LICENCE`); `driver_licence` is its
 * spelling, `drivers_license` ours from before, and both stay accepted as sent.
 */
export const PERSON_TYPES = ['representative', 'applicant', 'equity_holder', 'controller'] as const;
export const ID_TYPES = ['passport', 'national_id', 'driver_licence', 'drivers_license', 'residence_permit'] as const;
export const IDENTITY_FILE_TYPES = ['passport', 'national_id', 'driver_licence', 'drivers_license', 'residence_permit', 'selfie', 'proof_of_address'] as const;
export const IDENTITY_FILE_PARTS = ['FRONT', 'BACK'] as const;
export const GENDERS = ['M', 'F'] as const;
export const PURPOSES_OF_REGISTRATION = ['onlyReceiving', 'receiptAndPayment'] as const;
export const SOURCES_OF_FUNDS = [
  'BUSINESS_INCOME',
  'CAPITAL_INJECTION',
  'BANK_LOAN_OR_OTHER_BORROWINGS',
  'INVESTMENT_INCOME',
  'GOVERNMENT_GRANT',
  'OTHER',
] as const;
/** Harbor's company types, shown in the API description; `company.type` stays free text, as it was. */
export const HARBOR_COMPANY_TYPES = [
  'soleProprietorship',
  'partnerships',
  'limitedLiabilityCompany',
  'corporation',
  'corporationPublic',
  'cooperative',
  'nonProfitOrganization',
  'stateOwnedCompany',
  'trust',
  'other',
] as const;

/** The parts of an application: what `PATCH …/onboarding` replaces one at a time. */
export const APPLICATION_SECTIONS = ['company', 'associated_persons', 'company_files'] as const;
export type ApplicationSection = (typeof APPLICATION_SECTIONS)[number];

export const MiB = 1024 * 1024;
/** Limits count decoded bytes (8 MiB per document, 50 MiB in all), not base64 text. */
export const MAX_DOCUMENT_BYTES = 8 * MiB;
export const MAX_TOTAL_DOCUMENT_BYTES = 50 * MiB;
/** 50 MiB of documents as base64 is 66.7 MiB; the rest of the application fits in the margin. */
export const KYB_BODY_LIMIT = 72 * MiB;
/** The application apart from its documents: a few kilobytes in practice. */
export const MAX_APPLICATION_JSON_CHARS = 256 * 1024;
/** Bodies above this size count against MAX_CONCURRENT_KYB_UPLOADS. */
export const LARGE_UPLOAD_BYTES = 1 * MiB;
