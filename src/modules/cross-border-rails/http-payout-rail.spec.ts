import { setTimeout as sleep } from 'node:timers/promises';
import 'reflect-metadata';
import { SandboxUnderTest } from '../../../sandbox/common/sandbox-under-test';
import { listeningSandbox } from '../../../test/support/sandbox-spec';
import { createPayoutRailServer } from '../../../sandbox/payout-rail/payout-rail.server';
import { ProviderError, ProviderHttpClient } from '../../common/providers/provider-http-client';
import type { Recipient } from './bridge-rail';
import { HttpPayoutRail } from './http-payout-rail';
import type { ForeignPayoutRequest } from './payout-rail';

const API_KEY = 'spec-payout-key';
const OPTIONS = { timeoutMs: 2_000, retries: 0 };
const STEP_MS = 60;

const recipient = (overrides: Partial<Recipient> = {}): Recipient => ({
  fullName: 'Jane Doe',
  email: 'jane@example.com',
  country: 'GB',
  bankCodeType: 'swift',
  bankCode: 'BARCGB22',
  accountNumber: '31926819',
  ...overrides,
});

const payoutRequest = (overrides: Partial<ForeignPayoutRequest> = {}): ForeignPayoutRequest => ({
  reference: 'iin_1',
  currency: 'GBP',
  amount: 250_075,
  recipient: recipient(),
  purposeOfTransfer: 'Payment for services',
  paymentReference: 'Invoice 42',
  orderingCustomer: { name: 'Acme Ltd', country: 'NG' },
  ...overrides,
});

/** The payout rail adapter against the sandbox payout rail over a real socket. */
describe('HttpPayoutRail', () => {
  const sandbox = new SandboxUnderTest(() => createPayoutRailServer({ apiKey: API_KEY, settlementStepMs: STEP_MS }), API_KEY);
  const baseUrl = listeningSandbox(sandbox);

  const rail = (apiKey = API_KEY) =>
    new HttpPayoutRail(new ProviderHttpClient({ name: 'payout rail', baseUrl: baseUrl(), apiKey, backoffMs: 10, resetTimeoutMs: 60_000 }));
  const { faults, events: railEvents } = sandbox;
  const calls = (reference = 'iin_1') => sandbox.state(`/_sandbox/calls?reference=${reference}`);
  const stored = async () => (await sandbox.state('/_sandbox/payouts')).payouts;

  it('creates the payout as processing, sending the request as the rail takes it', async () => {
    const payout = await rail().createPayout(payoutRequest(), OPTIONS);
    expect(payout).toEqual({
      id: expect.stringMatching(/^fpo_/),
      reference: 'iin_1',
      status: 'processing',
      failureCode: null,
      failureMessage: null,
      sent: { currency: 'GBP', amount: 250_075 },
      confirmation: null,
      return: null,
      updatedAt: expect.any(Date),
    });
    expect(await stored()).toEqual([
      expect.objectContaining({
        reference: 'iin_1',
        currency: 'GBP',
        amount: 250_075,
        recipient: {
          full_name: 'Jane Doe',
          email: 'jane@example.com',
          country: 'GB',
          bank_code_type: 'swift',
          bank_code: 'BARCGB22',
          account_number: '31926819',
        },
        purpose_of_transfer: 'Payment for services',
        payment_reference: 'Invoice 42',
        ordering_customer: { name: 'Acme Ltd', country: 'NG' },
      }),
    ]);
  });

  it('gets the completed payout with its MT103 confirmation, or null when there is none', async () => {
    expect(await rail().getPayout('iin_1', OPTIONS)).toBeNull();
    const created = await rail().createPayout(payoutRequest({ paymentReference: null }), OPTIONS);
    await sleep(STEP_MS + 60);
    const completed = await rail().getPayout('iin_1', OPTIONS);
    expect(completed).toEqual({
      ...created,
      status: 'completed',
      updatedAt: expect.any(Date),
      confirmation: {
        uetr: expect.stringMatching(/^[0-9a-f-]{36}$/),
        senderReference: expect.stringMatching(/^[A-Z0-9]{16}$/),
        bankOperationCode: 'CRED',
        valueDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        currency: 'GBP',
        amount: '2500.75',
        orderingCustomer: 'Acme Ltd, NG',
        accountWithInstitution: 'BARCGB22',
        beneficiaryAccount: '31926819',
        beneficiaryName: 'Jane Doe',
        remittanceInformation: 'Payment for services',
        detailsOfCharges: 'OUR',
      },
    });
    // The same payout, whichever way it is asked for.
    expect(await rail().createPayout(payoutRequest(), OPTIONS)).toEqual(completed);
    expect(await calls()).toEqual({ createRequests: 2, created: 1 });
  });

  it('reports a closed account as a failed payout after it was accepted', async () => {
    const accepted = await rail().createPayout(
      payoutRequest({ recipient: recipient({ bankCodeType: 'iban', bankCode: 'GB33BUKB20201555559999', accountNumber: null }) }),
      OPTIONS,
    );
    expect(accepted.status).toBe('processing');
    await sleep(STEP_MS + 60);
    const failed = await rail().getPayout('iin_1', OPTIONS);
    expect(failed).toEqual({
      ...accepted,
      status: 'failed',
      failureCode: 'beneficiary_account_closed',
      failureMessage: expect.any(String),
      updatedAt: expect.any(Date),
    });
    // Its money is back at the rail, held for us until returned.
    expect(await rail().holdings(OPTIONS)).toEqual({ balances: [{ currency: 'GBP', amount: 250_075 }], open: [failed] });
  });

  it('holds a payout until it is paid, and a paid one only while it is recalled', async () => {
    const processing = await rail().createPayout(payoutRequest(), OPTIONS);
    expect(await rail().holdings(OPTIONS)).toEqual({ balances: [{ currency: 'GBP', amount: 250_075 }], open: [processing] });
    await sleep(STEP_MS + 60);
    expect(await rail().holdings(OPTIONS)).toEqual({ balances: [], open: [] });
    await sandbox.control('POST', '/_sandbox/settings', { settlement_step_ms: 60_000 });
    const recalled = await rail().returnPayout('iin_1', OPTIONS);
    expect(await rail().holdings(OPTIONS)).toEqual({ balances: [{ currency: 'GBP', amount: 250_075 }], open: [recalled] });
  });

  it('reports a refused request as not retryable, a failing rail as retryable', async () => {
    await expect(rail().createPayout(payoutRequest({ currency: 'JPY' }), OPTIONS)).rejects.toMatchObject({ retryable: false, status: 422 });
    await expect(rail('wrong-key').getPayout('iin_1', OPTIONS)).rejects.toMatchObject({ retryable: false, status: 401 });
    await faults({ failNext: 1, failStatus: 500 });
    expect((await rail().createPayout(payoutRequest(), { timeoutMs: 2_000, retries: 1 })).status).toBe('processing');
    await faults({ failNext: 2, failStatus: 502 });
    await expect(rail().getPayout('iin_1', { timeoutMs: 2_000, retries: 1 })).rejects.toMatchObject({ retryable: true, status: 502 });
    await faults({ latencyMs: 400 });
    await expect(rail().getPayout('iin_1', { timeoutMs: 100, retries: 0 })).rejects.toMatchObject({
      retryable: true,
      message: expect.stringContaining('timed out'),
    });
    expect(await calls()).toEqual({ createRequests: 1, created: 1 });
  });

  describe('parseEvent', () => {
    it('reads the events the rail raises', async () => {
      await sandbox.control('POST', '/_sandbox/settings', { settlement_step_ms: 0 });
      const completed = await rail().createPayout(payoutRequest(), OPTIONS);
      const failed = await rail().createPayout(payoutRequest({ reference: 'iin_2', recipient: recipient({ accountNumber: '9999' }) }), OPTIONS);
      const [first, second] = await railEvents();
      expect(rail().parseEvent(first)).toEqual({ id: first.id, type: 'payout.completed', payout: completed });
      expect(rail().parseEvent(second)).toEqual({ id: second.id, type: 'payout.failed', payout: failed });
      expect(completed.confirmation?.amount).toBe('2500.75');
    });

    it('reads a return of the payout to the bridge side, and a refused one', async () => {
      await sandbox.control('POST', '/_sandbox/settings', { settlement_step_ms: 0 });
      await rail().createPayout(payoutRequest({ recipient: recipient({ accountNumber: '9999' }) }), OPTIONS);
      await rail().createPayout(payoutRequest({ reference: 'iin_2', recipient: recipient({ accountNumber: '4444' }) }), OPTIONS);
      const returned = await rail().returnPayout('iin_1', OPTIONS);
      expect(returned).toMatchObject({ status: 'returned', return: { status: 'completed', amount: 250_075 } });
      const refused = await rail().returnPayout('iin_2', OPTIONS);
      expect(refused).toMatchObject({ status: 'completed', return: { status: 'refused', failureCode: 'return_refused' } });
      const events = (await railEvents()).slice(2);
      expect(events.map((event: { type: string }) => rail().parseEvent(event))).toEqual([
        { id: events[0].id, type: 'payout.returned', payout: returned },
        { id: events[1].id, type: 'payout.return_refused', payout: refused },
      ]);
    });

    it('records a type it does not act on as other', () => {
      expect(rail().parseEvent({ id: 'evt_1', type: 'payout.recalled', data: {} })).toEqual({ id: 'evt_1', type: 'other', name: 'payout.recalled' });
    });

    const confirmation = {
      uetr: '0f8fad5b-d9cb-469f-a165-70867728950e',
      sender_reference: 'SBX0123456789ABC',
      bank_operation_code: 'CRED',
      value_date: '2030-01-31',
      currency: 'GBP',
      amount: '2500.75',
      ordering_customer: 'Acme Ltd, NG',
      account_with_institution: 'BARCGB22',
      beneficiary_account: '31926819',
      beneficiary_name: 'Jane Doe',
      remittance_information: 'Invoice 42',
      details_of_charges: 'OUR',
    };
    const event = (data: object) => ({
      id: 'evt_1',
      type: 'payout.completed',
      data: {
        id: 'fpo_1',
        reference: 'iin_1',
        status: 'completed',
        currency: 'GBP',
        amount: 250_075,
        failure_code: null,
        failure_message: null,
        updated_at: '2030-01-31T10:00:00.000Z',
        ...data,
      },
    });

    it('accepts a well-formed completion', () => {
      expect(rail().parseEvent(event({ confirmation }))).toMatchObject({
        type: 'payout.completed',
        payout: { confirmation: { uetr: confirmation.uetr, detailsOfCharges: 'OUR' } },
      });
    });

    it.each([
      ['not an object', null],
      ['a completion without its confirmation', event({ confirmation: null })],
      ['a confirmation whose uetr is not a UUID', event({ confirmation: { ...confirmation, uetr: 'abc' } })],
      ['a confirmation whose amount is not a decimal', event({ confirmation: { ...confirmation, amount: '2,500.75' } })],
      ['a confirmation without a beneficiary', event({ confirmation: { ...confirmation, beneficiary_name: undefined } })],
      ['a status other than the type says', event({ status: 'processing', confirmation: null })],
      ['a payout without its amount', event({ confirmation, amount: undefined })],
      ['a payout without when it last changed', event({ confirmation, updated_at: 'yesterday' })],
    ])('throws a ProviderError for %s', (_name, body) => {
      expect(() => rail().parseEvent(body)).toThrow(ProviderError);
    });
  });
});
