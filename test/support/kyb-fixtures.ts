import type { Client } from 'pg';
import { randomBytes } from 'node:crypto';
import { COMPANY_FILE_TYPES, REQUIRED_COMPANY_FILE_TYPES } from '../../src/modules/kyb/kyb.constants';

/** A small, real-looking PDF as base64. */
export const SAMPLE_PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n').toString('base64');

export function documentOfSize(bytes: number): string {
  return randomBytes(bytes).toString('base64');
}

const person = (type: string, overrides: Record<string, unknown> = {}) => ({
  type,
  first_name: 'Ada',
  last_name: type === 'representative' ? 'Obi' : 'Eze',
  birthday: '1985-02-17',
  nationality: 'NG',
  email: `${type}@acme.example`,
  id_type: 'passport',
  id_number: 'A12345678',
  residential_address: { street: '1 Marina', city: 'Lagos', state: 'Lagos', country: 'NG', postal_code: '101001' },
  identity_files: [{ file_type: 'passport', part: 'FRONT', country: 'NG', file: `data:application/pdf;base64,${SAMPLE_PDF}` }],
  ...overrides,
});

/** A complete, valid application; `registrationNumber` picks the sandbox's outcome by its suffix. */
export function kybApplication(registrationNumber = 'RC-100200', overrides: Record<string, unknown> = {}) {
  return {
    company: {
      name: 'Acme Trading Limited',
      business_name: 'Acme Trading',
      registration_number: registrationNumber,
      country: 'NG',
      incorporation_date: '2019-04-01',
      type: 'limited_liability_company',
      description: 'Wholesale of consumer electronics',
      industry: 'wholesale_trade',
      register_address: { street: '12 Broad Street', city: 'Lagos', postal_code: '101001' },
      business_address: { street: '12 Broad Street', city: 'Lagos', state: 'Lagos', country: 'NG', postal_code: '101001' },
      email: 'compliance@acme.example',
      url: 'https://acme.example',
      tax_id: 'TIN-1234567',
    },
    associated_persons: [person('representative'), person('applicant')],
    company_files: REQUIRED_COMPANY_FILE_TYPES.map((file_type) => ({ file_type, files: [SAMPLE_PDF] })),
    ...overrides,
  };
}

export { person as kybPerson };

/**
 * Stands in for the business accepting the terms on the agreement page, for suites about what
 * comes after it (the page has suites of its own, and the happy path goes through it).
 */
export async function acceptAgreementDirectly(pg: Client, businessId: string): Promise<void> {
  await pg.query(`UPDATE pobo_businesses SET agreement_status = 'accepted', kyb_status = 'not_started', agreement_accepted_at = now() WHERE id = $1`, [
    businessId,
  ]);
}

/**
 * An application in OwlPay Harbor's fuller published format, every optional field of it given
 * (and the optional fields we accepted before following it), as a merchant moving from Harbor
 * sends it: enumerations in Harbor's own case, all company-file groups.
 */
export function harborApplication(registrationNumber = 'REG-123456') {
  const address = { street: '200 Pine St', city: 'Richmond', state: 'VA', country: 'US', postal_code: '23219' };
  const harborPerson = (type: string, first_name: string, overrides: Record<string, unknown> = {}) => ({
    type,
    first_name,
    middle_name: 'Q',
    last_name: 'Smith',
    id_type: 'PASSPORT',
    id_number: 'A1234567',
    birthday: '1990-01-01',
    gender: 'F',
    nationality: 'US',
    position: 'director',
    email: `${first_name.toLowerCase()}@acme.us`,
    phone: { country: 'US', number: '4155550101' },
    phone_number: '+14155550101',
    title: 'Director',
    ownership_percentage: 30,
    equity: 30.5,
    has_control: true,
    is_signer: true,
    relationship_established_at: '2020-01-01',
    tax_jurisdiction_country: 'US',
    residential_address: address,
    permanent_address: { ...address, street: '1 Elm St' },
    identity_files: [
      { file_type: 'PASSPORT', part: 'FRONT', country: 'US', file: SAMPLE_PDF },
      { file_type: 'DRIVER_LICENCE', part: 'BACK', country: 'US', file: `data:image/png;base64,${SAMPLE_PDF}` },
    ],
    ...overrides,
  });
  return {
    company: {
      name: 'Acme US Inc',
      business_name: 'Acme',
      registration_number: registrationNumber,
      country: 'US',
      incorporation_date: '2020-01-01',
      type: 'corporation',
      description: 'Software publishers',
      industry: 'software_publishers',
      register_address: { street: '100 Market St', city: 'Richmond', state: 'VA', postal_code: '23218' },
      business_address: { street: '100 Market St', city: 'Richmond', state: 'VA', country: 'US', postal_code: '23218' },
      phone_country_code: 'US',
      phone_number: '2025550100',
      email: 'ops@acme.us',
      url: 'https://acme.us',
      has_bearer_shares: false,
      purpose_of_registration: 'receiptAndPayment',
      estimated_number_of_transactions: 100,
      estimated_amount_of_transactions: 50000,
      country_of_operation: ['US', 'CA'],
      has_vasp_relationship: false,
      source_of_funds: 'OTHER',
      source_of_funds_other: 'Settlement proceeds of card sales',
      transfers_funds_for_clients: true,
      compliance_screening_explanation: 'Funds are settlement proceeds from merchant sales.',
      tax_id: '123456789',
      trade_name: 'Acme Software',
      purpose_of_account: 'Receiving payouts',
      expected_monthly_volume: '50000 USD',
    },
    associated_persons: [
      harborPerson('representative', 'Ada'),
      harborPerson('applicant', 'Ben', { id_type: 'NATIONAL_ID' }),
      harborPerson('equity_holder', 'Cy', {
        id_type: 'RESIDENCE_PERMIT',
        identity_files: [{ file_type: 'RESIDENCE_PERMIT', part: 'FRONT', country: 'CA', file: SAMPLE_PDF }],
      }),
      harborPerson('controller', 'Di', { id_type: 'DRIVER_LICENCE', identity_files: [] }),
    ],
    company_files: COMPANY_FILE_TYPES.map((file_type) => ({ file_type, files: [SAMPLE_PDF] })),
  };
}
