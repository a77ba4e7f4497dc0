import 'reflect-metadata';
import { SandboxUnderTest } from '../../../sandbox/common/sandbox-under-test';
import { listeningSandbox } from '../../../test/support/sandbox-spec';
import { createBridgeRailServer } from '../../../sandbox/bridge-rail/bridge-rail.server';
import { ProviderError, ProviderHttpClient } from '../../common/providers/provider-http-client';
import type { BridgeTransferRequest, Recipient } from './bridge-rail';
import { HttpBridgeRail } from './http-bridge-rail';

const API_KEY = 'spec-bridge-key';
const OPTIONS = { timeoutMs: 2_000, retries: 0 };
const STEP_MS = 60;

const recipient = (overrides: Partial<Recipient> = {}): Recipient => ({
  fullName: 'Jane Doe',
  email: null,
  country: 'US',
  bankCodeType: 'routing_number',
  bankCode: '021000021',
  accountNumber: '123456789',
  ...overrides,
});

const transferRequest = (overrides: Partial<BridgeTransferRequest> = {}): BridgeTransferRequest => ({
  reference: 'iin_1',
  routeType: 'ngn',
  sourceAmount: 155_075_000,
  destinationCurrency: 'USD',
  destinationAmount: 100_000,
  recipient: recipient(),
  ...overrides,
});

/** The bridge rail adapter against the sandbox bridge rail over a real socket. */
describe('HttpBridgeRail', () => {
  const sandbox = new SandboxUnderTest(() => createBridgeRailServer({ apiKey: API_KEY, settlementStepMs: STEP_MS }), API_KEY);
  const baseUrl = listeningSandbox(sandbox);

  const rail = (apiKey = API_KEY) =>
    new HttpBridgeRail(new ProviderHttpClient({ name: 'bridge rail', baseUrl: baseUrl(), apiKey, backoffMs: 10, resetTimeoutMs: 60_000 }));
  const { faults, events: railEvents } = sandbox;
  const calls = (reference = 'iin_1') => sandbox.state(`/_sandbox/calls?reference=${reference}`);
  const stored = async () => (await sandbox.state('/_sandbox/transfers')).transfers;

  it('creates the transfer with our reference as the key, sending the request as the rail takes it', async () => {
    const transfer = await rail().createTransfer(transferRequest({ recipient: recipient({ email: 'jane@example.com' }) }), OPTIONS);
    expect(transfer).toEqual({
      id: expect.stringMatching(/^btr_/),
      reference: 'iin_1',
      status: 'pending',
      failureCode: null,
      failureMessage: null,
      sent: { currency: 'NGN', amount: 155_075_000 },
      return: null,
      updatedAt: expect.any(Date),
    });
    expect(await stored()).toEqual([
      expect.objectContaining({
        id: transfer.id,
        reference: 'iin_1',
        route_type: 'ngn',
        source_amount: 155_075_000,
        destination_currency: 'USD',
        destination_amount: 100_000,
        recipient: {
          full_name: 'Jane Doe',
          email: 'jane@example.com',
          country: 'US',
          bank_code_type: 'routing_number',
          bank_code: '021000021',
          account_number: '123456789',
        },
      }),
    ]);
  });

  it('answers the one transfer already created under the reference, never a second', async () => {
    const first = await rail().createTransfer(transferRequest(), OPTIONS);
    const again = await rail().createTransfer(transferRequest(), OPTIONS);
    expect(again).toEqual(first);
    expect(await calls()).toEqual({ createRequests: 2, created: 1 });
  });

  it('sends an IBAN recipient with a null account number', async () => {
    const transfer = await rail().createTransfer(
      transferRequest({
        destinationCurrency: 'EUR',
        routeType: 'usdc',
        recipient: recipient({ country: 'DE', bankCodeType: 'iban', bankCode: 'DE89370400440532013000', accountNumber: null }),
      }),
      OPTIONS,
    );
    expect(transfer.status).toBe('pending');
  });

  it('reports a compliance rejection as a rejected transfer', async () => {
    const transfer = await rail().createTransfer(transferRequest({ recipient: recipient({ accountNumber: '5550000' }) }), OPTIONS);
    expect(transfer).toMatchObject({ status: 'rejected', failureCode: 'compliance_rejected', failureMessage: expect.any(String) });
  });

  it('gets the transfer by reference as it is now, or null when there is none', async () => {
    expect(await rail().getTransfer('iin_1', OPTIONS)).toBeNull();
    const created = await rail().createTransfer(transferRequest(), OPTIONS);
    expect(await rail().getTransfer('iin_1', OPTIONS)).toEqual(created);
    await new Promise((resolve) => setTimeout(resolve, STEP_MS + 60));
    const completed = await rail().getTransfer('iin_1', OPTIONS);
    expect(completed).toEqual({ ...created, status: 'completed', updatedAt: expect.any(Date) });
    expect(completed!.updatedAt.getTime()).toBeGreaterThan(created.updatedAt.getTime());
  });

  it('reads what the rail holds for us: unconverted NGN, and converted money on its way back', async () => {
    await sandbox.control('POST', '/_sandbox/settings', { settlement_step_ms: 60_000 });
    const pending = await rail().createTransfer(transferRequest(), OPTIONS);
    await rail().createTransfer(transferRequest({ reference: 'iin_2', recipient: recipient({ accountNumber: '5550000' }) }), OPTIONS);
    expect(await rail().holdings(OPTIONS)).toEqual({ balances: [{ currency: 'NGN', amount: 155_075_000 }], open: [pending] });
    await sandbox.control('POST', '/_sandbox/settings', { settlement_step_ms: 0 });
    await rail().createTransfer(transferRequest({ reference: 'iin_3' }), OPTIONS);
    await sandbox.control('POST', '/_sandbox/settings', { settlement_step_ms: 60_000 });
    const returning = await rail().returnTransfer('iin_3', OPTIONS);
    expect(await rail().holdings(OPTIONS)).toEqual({
      balances: [
        { currency: 'NGN', amount: 155_075_000 },
        { currency: 'USD', amount: 100_000 },
      ],
      open: [pending, returning],
    });
  });

  it('reports a refused request (validation, wrong key) as not retryable', async () => {
    await expect(
      rail().createTransfer(transferRequest({ routeType: 'usdc', destinationCurrency: 'GBP', recipient: recipient({ country: 'GB' }) }), OPTIONS),
    ).rejects.toMatchObject({
      retryable: false,
      status: 422,
    });
    await expect(rail('wrong-key').createTransfer(transferRequest(), OPTIONS)).rejects.toMatchObject({ retryable: false, status: 401 });
    await expect(rail('wrong-key').getTransfer('iin_1', OPTIONS)).rejects.toMatchObject({ retryable: false, status: 401 });
    expect(await calls()).toEqual({ createRequests: 0, created: 0 });
  });

  it('retries a 5xx and creates once; reports a rail that stays down as retryable', async () => {
    await faults({ failNext: 2, failStatus: 503 });
    expect((await rail().createTransfer(transferRequest(), { timeoutMs: 2_000, retries: 2 })).status).toBe('pending');
    expect(await calls()).toEqual({ createRequests: 1, created: 1 });
    await faults({ down: true });
    await expect(rail().getTransfer('iin_1', { timeoutMs: 2_000, retries: 1 })).rejects.toMatchObject({ retryable: true, status: 503 });
  });

  it('a call that timed out after the rail acted is settled by calling again: the same transfer', async () => {
    await faults({ answerDelayMs: 1_000 });
    const error = await rail()
      .createTransfer(transferRequest(), { timeoutMs: 150, retries: 0 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: true, message: expect.stringContaining('timed out') });
    await faults({ answerDelayMs: 0 });
    const transfer = await rail().createTransfer(transferRequest(), OPTIONS);
    expect((await stored()).map((stored: { id: string }) => stored.id)).toEqual([transfer.id]);
    expect(await calls()).toEqual({ createRequests: 2, created: 1 });
  });

  describe('parseEvent', () => {
    it('reads the events the rail raises', async () => {
      await sandbox.control('POST', '/_sandbox/settings', { settlement_step_ms: 0 });
      const completed = await rail().createTransfer(transferRequest(), OPTIONS);
      const rejected = await rail().createTransfer(transferRequest({ reference: 'iin_2', recipient: recipient({ accountNumber: '10000' }) }), OPTIONS);
      const [first, second] = await railEvents();
      expect(rail().parseEvent(JSON.parse(JSON.stringify(first)))).toEqual({ id: first.id, type: 'transfer.completed', transfer: completed });
      expect(rail().parseEvent(second)).toEqual({ id: second.id, type: 'transfer.rejected', transfer: rejected });
      expect(completed.status).toBe('completed');
    });

    it('reads a return and its refusal, whatever the status a refused return leaves the transfer in', async () => {
      await sandbox.control('POST', '/_sandbox/settings', { settlement_step_ms: 0 });
      await rail().createTransfer(transferRequest(), OPTIONS);
      await rail().createTransfer(transferRequest({ reference: 'iin_2', recipient: recipient({ accountNumber: '13333' }) }), OPTIONS);
      const returned = await rail().returnTransfer('iin_1', OPTIONS);
      expect(returned).toMatchObject({ reference: 'iin_1', status: 'returned', return: { status: 'completed', amount: 154_299_625, failureCode: null } });
      // Asked again: the same return, never a second.
      expect(await rail().returnTransfer('iin_1', OPTIONS)).toEqual(returned);
      const refused = await rail().returnTransfer('iin_2', OPTIONS);
      expect(refused).toMatchObject({ status: 'completed', return: { status: 'refused', amount: null, failureCode: 'return_refused' } });
      const events = (await railEvents()).slice(2);
      expect(events.map((event: { type: string }) => rail().parseEvent(event))).toEqual([
        { id: events[0].id, type: 'transfer.returned', transfer: returned },
        { id: events[1].id, type: 'transfer.return_refused', transfer: refused },
      ]);
    });

    it('records a type it does not act on as other', () => {
      expect(rail().parseEvent({ id: 'evt_1', type: 'transfer.refunded', data: {} })).toEqual({ id: 'evt_1', type: 'other', name: 'transfer.refunded' });
    });

    it.each([
      ['not an object', 'evt'],
      ['no id', { type: 'transfer.completed', data: {} }],
      ['no data', { id: 'evt_1', type: 'transfer.completed' }],
      ['a transfer without a reference', { id: 'evt_1', type: 'transfer.completed', data: { id: 'btr_1', status: 'completed' } }],
      ['an unknown status', { id: 'evt_1', type: 'transfer.completed', data: { id: 'btr_1', reference: 'iin_1', status: 'done' } }],
      ['a status other than the type says', { id: 'evt_1', type: 'transfer.completed', data: { id: 'btr_1', reference: 'iin_1', status: 'pending' } }],
    ])('throws a ProviderError for %s', (_name, body) => {
      expect(() => rail().parseEvent(body)).toThrow(ProviderError);
    });
  });
});
