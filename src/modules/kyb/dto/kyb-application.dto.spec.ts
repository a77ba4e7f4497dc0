import { harborApplication, kybApplication } from '../../../../test/support/kyb-fixtures';
import { ValidationFailedError } from '../../../common/errors/app-error';
import { createValidationPipe } from '../../../common/validation/validation.pipe';
import { KybApplicationDto, KybApplicationPatchDto } from './kyb-application.dto';
import { KYB_APPLICATION_EXAMPLE } from './kyb-application.example';

const pipe = createValidationPipe();
const parse = <T>(body: unknown, metatype: new () => T): Promise<T> =>
  pipe.transform(JSON.parse(JSON.stringify(body)), { type: 'body', metatype }) as Promise<T>;
const application = (body: unknown) => parse(body, KybApplicationDto);

/** The fields a refused body names. */
async function refused(body: unknown, metatype: new () => object = KybApplicationDto): Promise<string[]> {
  try {
    await parse(body, metatype);
  } catch (err) {
    if (err instanceof ValidationFailedError) return err.details.map((d) => d.field);
    throw err;
  }
  throw new Error('the body was accepted');
}

const withCompany = (overrides: Record<string, unknown>) => {
  const body = harborApplication();
  return { ...body, company: { ...body.company, ...overrides } };
};
const withPerson = (overrides: Record<string, unknown>) => {
  const body = harborApplication();
  body.associated_persons[0] = { ...body.associated_persons[0], ...overrides };
  return body;
};

describe('KybApplicationDto (the Harbor business-onboarding format)', () => {
  it("accepts Harbor's full format, every optional field given, and keeps every field", async () => {
    const body = harborApplication();
    const parsed = await application(body);
    expect(JSON.parse(JSON.stringify(parsed.company))).toEqual(body.company);
    const [representative] = parsed.associated_persons;
    expect(representative).toMatchObject({
      gender: 'F',
      position: 'director',
      phone: { country: 'US', number: '4155550101' },
      equity: 30.5,
      has_control: true,
      is_signer: true,
      relationship_established_at: '2020-01-01',
      tax_jurisdiction_country: 'US',
      permanent_address: { street: '1 Elm St', country: 'US' },
    });
  });

  it('accepts the example the API documents', async () => {
    await expect(application(KYB_APPLICATION_EXAMPLE)).resolves.toBeInstanceOf(KybApplicationDto);
  });

  it('still accepts the minimal application and our earlier optional fields', async () => {
    await expect(application(kybApplication())).resolves.toBeInstanceOf(KybApplicationDto);
    await expect(
      application(
        withCompany({
          phone_number: '+2348012345678',
          source_of_funds: 'BUSINESS_INCOME',
          source_of_funds_other: null,
          compliance_screening_explanation: null,
          phone_country_code: null,
        }),
      ),
    ).resolves.toBeDefined();
  });

  it('matches enumerations in any case and keeps their listed form', async () => {
    const body = kybApplication();
    const [representative, applicant] = body.associated_persons as Record<string, unknown>[];
    Object.assign(representative, {
      type: 'REPRESENTATIVE',
      id_type: 'DRIVER_LICENCE',
      gender: 'f',
      identity_files: [{ file_type: 'Passport', part: 'front', country: 'ng', file: 'x' }],
    });
    Object.assign(applicant, { type: 'Applicant', id_type: 'NATIONAL_ID', nationality: 'ng' });
    body.company_files[0].file_type = 'CORPORATE_REGISTRATION_DOCUMENTS' as never;
    Object.assign(body.company, {
      country: 'ng',
      purpose_of_registration: 'ONLYRECEIVING',
      source_of_funds: 'business_income',
      country_of_operation: ['ng', 'Gh'],
    });

    const parsed = await application(body);
    expect(parsed.associated_persons.map((p) => [p.type, p.id_type, p.nationality])).toEqual([
      ['representative', 'driver_licence', 'NG'],
      ['applicant', 'national_id', 'NG'],
    ]);
    expect(parsed.associated_persons[0].gender).toBe('F');
    expect(parsed.associated_persons[0].identity_files[0]).toMatchObject({ file_type: 'passport', part: 'FRONT', country: 'NG' });
    expect(parsed.company_files[0].file_type).toBe('corporate_registration_documents');
    expect(parsed.company).toMatchObject({
      country: 'NG',
      purpose_of_registration: 'onlyReceiving',
      source_of_funds: 'BUSINESS_INCOME',
      country_of_operation: ['NG', 'GH'],
    });
  });

  it.each([
    ['an unknown purpose of registration', withCompany({ purpose_of_registration: 'sometimes' }), 'company.purpose_of_registration'],
    ['an unknown source of funds', withCompany({ source_of_funds: 'lottery' }), 'company.source_of_funds'],
    ['source_of_funds OTHER without an explanation', withCompany({ source_of_funds: 'other', source_of_funds_other: null }), 'company.source_of_funds_other'],
    ['a negative transaction count', withCompany({ estimated_number_of_transactions: -1 }), 'company.estimated_number_of_transactions'],
    ['a fractional transaction amount', withCompany({ estimated_amount_of_transactions: 10.5 }), 'company.estimated_amount_of_transactions'],
    ['a transaction count as a string', withCompany({ estimated_number_of_transactions: '100' }), 'company.estimated_number_of_transactions'],
    ['an empty country_of_operation', withCompany({ country_of_operation: [] }), 'company.country_of_operation'],
    ['an unknown country of operation', withCompany({ country_of_operation: ['US', 'XX'] }), 'company.country_of_operation'],
    ['a repeated country of operation', withCompany({ country_of_operation: ['US', 'us'] }), 'company.country_of_operation'],
    ['a string as has_bearer_shares', withCompany({ has_bearer_shares: 'no' }), 'company.has_bearer_shares'],
    ['null as transfers_funds_for_clients', withCompany({ transfers_funds_for_clients: null }), 'company.transfers_funds_for_clients'],
    ['a three-letter phone country code', withCompany({ phone_country_code: 'USA' }), 'company.phone_country_code'],
    ['letters in the company phone number', withCompany({ phone_number: 'call us' }), 'company.phone_number'],
    ['a 1001-character screening explanation', withCompany({ compliance_screening_explanation: 'x'.repeat(1001) }), 'company.compliance_screening_explanation'],
    ['an unknown gender', withPerson({ gender: 'X' }), 'associated_persons[0].gender'],
    ['a phone number with letters', withPerson({ phone: { country: 'US', number: '415-CALL' } }), 'associated_persons[0].phone.number'],
    ['a phone without its country', withPerson({ phone: { number: '4155550101' } }), 'associated_persons[0].phone.country'],
    ['null as the phone', withPerson({ phone: null }), 'associated_persons[0].phone'],
    ['equity over 100', withPerson({ equity: 100.5 }), 'associated_persons[0].equity'],
    ['a future relationship date', withPerson({ relationship_established_at: '2999-01-01' }), 'associated_persons[0].relationship_established_at'],
    ['a bad tax jurisdiction', withPerson({ tax_jurisdiction_country: 'United States' }), 'associated_persons[0].tax_jurisdiction_country'],
    [
      'a permanent address without its city',
      withPerson({ permanent_address: { street: '1 Elm St', country: 'US', postal_code: '1' } }),
      'associated_persons[0].permanent_address.city',
    ],
    ['an unknown id type', withPerson({ id_type: 'library_card' }), 'associated_persons[0].id_type'],
    [
      'an unknown identity part',
      withPerson({ identity_files: [{ file_type: 'passport', part: 'SIDE', country: 'US', file: 'x' }] }),
      'associated_persons[0].identity_files[0].part',
    ],
  ])('refuses %s, naming the field', async (_name, body, field) => {
    expect(await refused(body)).toContain(field);
  });

  it('refuses an unknown field, as before', async () => {
    expect(await refused(withCompany({ kyb_status: 'verified' }))).toContain('company.kyb_status');
  });
});

describe('KybApplicationPatchDto', () => {
  it('takes any one section, validated as in a full application', async () => {
    const { company, associated_persons, company_files } = harborApplication();
    await expect(parse({ company }, KybApplicationPatchDto)).resolves.toMatchObject({ company: { name: 'Acme US Inc' } });
    await expect(parse({ associated_persons }, KybApplicationPatchDto)).resolves.toBeDefined();
    await expect(parse({ company_files }, KybApplicationPatchDto)).resolves.toBeDefined();
    // An empty body passes here; the service refuses it, naming the body.
    await expect(parse({}, KybApplicationPatchDto)).resolves.toEqual({});
  });

  it('refuses a section that is incomplete, null or of the wrong shape, and unknown sections', async () => {
    const { company } = harborApplication();
    expect(await refused({ company: { ...company, tax_id: undefined } }, KybApplicationPatchDto)).toContain('company.tax_id');
    expect(await refused({ company: null }, KybApplicationPatchDto)).toContain('company');
    expect(await refused({ associated_persons: [] }, KybApplicationPatchDto)).toContain('associated_persons');
    expect(await refused({ company_files: {} }, KybApplicationPatchDto)).toContain('company_files');
    expect(await refused({ kyb_status: 'verified' }, KybApplicationPatchDto)).toContain('kyb_status');
  });
});
