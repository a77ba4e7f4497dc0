import type { Client } from 'pg';
import { randomBytes } from 'node:crypto';
import { REQUIRED_COMPANY_FILE_TYPES } from '../../../src/modules/kyb/kyb.constants';

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
  await pg.query(`UPDATE pobo_businesses SET agreement_status = 'accepted', kyb_status = 'not_started', agreement_accepted_at = now() WHERE id = $1`, [businessId]);
}
