import { REQUIRED_COMPANY_FILE_TYPES } from '../kyb.constants';

/** A whole application as the API documents it: Harbor's format, optional fields included. */
const FILE = 'JVBERi0xLjQKJcOkw7zDtsOfCg==';
const ADDRESS = { street: '1 Marina', city: 'Lagos', state: 'LA', country: 'NG', postal_code: '101001' };

export const KYB_APPLICATION_EXAMPLE = {
  company: {
    name: 'Acme Trading Limited',
    business_name: 'Acme Trading',
    registration_number: 'RC-100200',
    country: 'NG',
    incorporation_date: '2019-04-01',
    type: 'limitedLiabilityCompany',
    description: 'Wholesale of consumer electronics',
    industry: 'wholesale_trade',
    register_address: { street: '12 Broad Street', city: 'Lagos', state: 'LA', postal_code: '101001' },
    business_address: { street: '12 Broad Street', city: 'Lagos', state: 'LA', country: 'NG', postal_code: '101001' },
    phone_country_code: 'NG',
    phone_number: '8012345678',
    email: 'compliance@acme.example',
    url: 'https://acme.example',
    has_bearer_shares: false,
    purpose_of_registration: 'receiptAndPayment',
    estimated_number_of_transactions: 100,
    estimated_amount_of_transactions: 50000,
    country_of_operation: ['NG', 'GH'],
    has_vasp_relationship: false,
    source_of_funds: 'BUSINESS_INCOME',
    transfers_funds_for_clients: false,
    tax_id: 'TIN-1234567',
  },
  associated_persons: [
    {
      type: 'representative',
      first_name: 'Ada',
      last_name: 'Obi',
      birthday: '1985-02-17',
      gender: 'F',
      nationality: 'NG',
      email: 'ada@acme.example',
      position: 'director',
      phone: { country: 'NG', number: '8012345678' },
      id_type: 'passport',
      id_number: 'A12345678',
      residential_address: ADDRESS,
      permanent_address: ADDRESS,
      identity_files: [{ file_type: 'passport', part: 'FRONT', country: 'NG', file: FILE }],
    },
    {
      type: 'applicant',
      first_name: 'Chidi',
      last_name: 'Eze',
      birthday: '1990-06-01',
      nationality: 'NG',
      email: 'chidi@acme.example',
      id_type: 'national_id',
      id_number: 'NIN-998877',
      residential_address: { ...ADDRESS, street: '3 Allen Avenue', postal_code: '100001' },
      identity_files: [],
    },
  ],
  company_files: REQUIRED_COMPANY_FILE_TYPES.map((file_type) => ({ file_type, files: [FILE] })),
};
