import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { USD_1500_CONFIRMATION, USD_1500_INTENT } from '../../../test/support/receipt-fixtures';
import { AppError } from '../../common/errors/app-error';
import { PAGE_CSP } from '../../common/html/pages';
import { PoboBusinessesService } from '../pobo-businesses';
import type { InternationalIntentStatus } from './international-intent.states';
import { InternationalIntentsRepository, ReceiptRecord } from './international-intents.repository';
import { installReceiptPageErrors, ReceiptsController } from './receipts.controller';
import { ReceiptNotFoundError, ReceiptsService } from './receipts.service';

const TOKEN = 'Xq3v9PZkz0m5yT8rW2bLcA';

const record = (status: InternationalIntentStatus, overrides: Partial<ReceiptRecord> = {}): ReceiptRecord => ({
  id: 'ipi_5c4b3a29181706f5e4d3c2b1',
  merchantId: 'mer_1',
  poboUserId: 'pobo_1',
  status,
  quoteId: 'qt_1',
  quoteOptionId: 'qo_1',
  routeType: 'ngn',
  ...USD_1500_INTENT,
  quoteExpiresAt: new Date('2026-11-20T10:06:58Z'),
  recipientFullName: 'Jane Doe',
  recipientEmail: null,
  bankCodeType: 'swift',
  bankCode: 'CHASUS33',
  accountNumber: '000123456789',
  purposeOfTransfer: 'Information Service Charges',
  paymentReference: null,
  adminNote: null,
  receiptToken: TOKEN,
  bridgeTransferId: 'brt_1',
  payoutId: 'po_1',
  payoutConfirmation:
    status === 'withdrawal_confirmed' || status === 'settled'
      ? { ...USD_1500_CONFIRMATION, orderingCustomer: 'Acme Ltd, NG', remittanceInformation: 'Information Service Charges' }
      : null,
  processedAt: new Date('2026-11-20T09:52:01Z'),
  settledAt: status === 'settled' ? new Date('2026-11-20T09:52:04Z') : null,
  createdAt: new Date('2026-11-20T09:51:58Z'),
  updatedAt: new Date('2026-11-20T09:52:04Z'),
  ...overrides,
});

const business = { id: 'pobo_1', merchantId: 'mer_1', businessName: 'Acme <Ltd>', country: 'NG' };

function service(found: ReceiptRecord | undefined, owner = business) {
  const repository = { findByReceiptToken: jest.fn().mockResolvedValue(found) };
  const businesses = { findById: jest.fn().mockResolvedValue(owner) };
  return {
    receipts: new ReceiptsService(repository as unknown as InternationalIntentsRepository, businesses as unknown as PoboBusinessesService),
    repository,
    businesses,
  };
}

describe('ReceiptsService', () => {
  it('renders the receipt of a settled payment with its business', async () => {
    const { receipts, repository, businesses } = service(record('settled'));
    const page = await receipts.receipt(TOKEN);
    expect(repository.findByReceiptToken).toHaveBeenCalledWith(TOKEN);
    expect(businesses.findById).toHaveBeenCalledWith('pobo_1');
    expect(page).toContain('<bdi>Acme &lt;Ltd&gt;</bdi>');
    expect(page).toContain('2,487,751.88 NGN');
  });

  it('renders the telex from withdrawal_confirmed on, without looking up the business', async () => {
    const { receipts, businesses } = service(record('withdrawal_confirmed'));
    expect(await receipts.telex(TOKEN)).toContain(':32A:261120USD1500,00');
    expect(businesses.findById).not.toHaveBeenCalled();
  });

  it.each([
    ['a malformed token', 'receipt', 'x'.repeat(21), record('settled')],
    ['a token with a character outside base64url', 'receipt', `${TOKEN.slice(0, 21)}=`, record('settled')],
    ['an unknown token', 'receipt', TOKEN, undefined],
    ['a payment not settled', 'receipt', TOKEN, record('withdrawal_confirmed')],
    ['a rejected payment', 'receipt', TOKEN, record('rejected')],
    ['an unknown token', 'telex', TOKEN, undefined],
    ['a payment before withdrawal_confirmed', 'telex', TOKEN, record('withdrawal_initiated')],
    ['a payment that is not swift', 'telex', TOKEN, record('settled', { bankCodeType: 'iban' })],
    ['a payment without its confirmation', 'telex', TOKEN, record('settled', { payoutConfirmation: null })],
  ] as const)('answers %s (%s) with the same 404', async (_, page, token, found) => {
    const { receipts, repository } = service(found);
    const error = await receipts[page](token).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReceiptNotFoundError);
    expect(error).toMatchObject({ code: 'resource_not_found', message: 'Receipt not found' });
    // The shape is checked before any query.
    expect(repository.findByReceiptToken).toHaveBeenCalledTimes(/^[A-Za-z0-9_-]{22}$/.test(token) ? 1 : 0);
  });

  it("fails loudly (not a 404) when the payment's business is missing or another merchant's", async () => {
    await expect(service(record('settled'), null as unknown as typeof business).receipts.receipt(TOKEN)).rejects.not.toBeInstanceOf(AppError);
    await expect(service(record('settled'), { ...business, merchantId: 'mer_2' }).receipts.receipt(TOKEN)).rejects.not.toBeInstanceOf(AppError);
  });
});

describe('ReceiptsController over HTTP', () => {
  let app: NestFastifyApplication;
  const find = jest.fn<Promise<ReceiptRecord | undefined>, [string]>();

  @Module({
    controllers: [ReceiptsController],
    providers: [
      ReceiptsService,
      { provide: InternationalIntentsRepository, useValue: { findByReceiptToken: find } },
      { provide: PoboBusinessesService, useValue: { findById: () => Promise.resolve(business) } },
    ],
  })
  class ReceiptsTestModule {}

  beforeAll(async () => {
    app = await NestFactory.create<NestFastifyApplication>(ReceiptsTestModule, new FastifyAdapter(), { logger: false });
    const fastify = app.getHttpAdapter().getInstance();
    // Stands for the app's refusals before any route (a Content-Encoding on a GET…).
    fastify.addHook('onRequest', (request, _reply, done) =>
      done(request.headers['x-refuse'] ? new AppError('unsupported_media_type', 'Refused before the route') : undefined),
    );
    installReceiptPageErrors(fastify);
    await app.init();
    await fastify.ready();
  });

  afterAll(() => app?.close());

  const get = (url: string, headers: Record<string, string> = {}) => app.getHttpAdapter().getInstance().inject({ method: 'GET', url, headers });

  const expectPageHeaders = (headers: Record<string, unknown>) => {
    expect(headers['content-type']).toBe('text/html; charset=utf-8');
    expect(headers['content-security-policy']).toBe(PAGE_CSP);
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-robots-tag']).toBe('noindex');
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
  };

  it('serves the receipt and the telex as HTML pages', async () => {
    find.mockResolvedValue(record('settled'));
    const receipt = await get(`/receipts/${TOKEN}`);
    expect(receipt.statusCode).toBe(200);
    expectPageHeaders(receipt.headers);
    expect(receipt.body).toMatch(/^<!doctype html>/);
    expect(receipt.body).toContain('1,500.00 USD');

    const telex = await get(`/receipts/${TOKEN}/telex`);
    expect(telex.statusCode).toBe(200);
    expectPageHeaders(telex.headers);
    expect(telex.body).toContain(':71A:OUR');
  });

  it('answers every link that leads to nothing with the same HTML 404', async () => {
    find.mockResolvedValue(undefined);
    const unknown = await get(`/receipts/${TOKEN}`);
    find.mockResolvedValue(record('bridge_confirmed'));
    const early = await get(`/receipts/${TOKEN}`);
    const noTelex = await get(`/receipts/${TOKEN}/telex`);
    const malformed = await get('/receipts/not-a-token');
    for (const page of [unknown, early, noTelex, malformed]) {
      expect(page.statusCode).toBe(404);
      expectPageHeaders(page.headers);
      expect(page.body.replace(/req-[0-9a-z-]+|req_[0-9a-f]+/g, 'REQ')).toBe(unknown.body.replace(/req-[0-9a-z-]+|req_[0-9a-f]+/g, 'REQ'));
    }
    expect(unknown.body).toContain('Nothing to show at this link');
  });

  it('answers a failure as an HTML page that leaks nothing, and so do refusals before the route', async () => {
    find.mockRejectedValue(new Error('SELECT secret FROM somewhere'));
    const crash = await get(`/receipts/${TOKEN}`);
    expect(crash.statusCode).toBe(500);
    expectPageHeaders(crash.headers);
    expect(crash.body).toContain('Something went wrong');
    expect(crash.body).not.toContain('SELECT');

    const refused = await get(`/receipts/${TOKEN}/telex`, { 'x-refuse': '1' });
    expect(refused.statusCode).toBe(415);
    expectPageHeaders(refused.headers);
    expect(refused.body).toContain('Refused before the route');
  });

  it('documents both pages in OpenAPI as public HTML operations', () => {
    const document = SwaggerModule.createDocument(app, new DocumentBuilder().build());
    const receipt = document.paths['/receipts/{token}'].get!;
    const telex = document.paths['/receipts/{token}/telex'].get!;
    expect(receipt.operationId).toBe('getInternationalPaymentReceipt');
    expect(telex.operationId).toBe('getInternationalPaymentTelex');
    for (const operation of [receipt, telex]) {
      expect(operation.responses['200']).toMatchObject({ content: { 'text/html': { schema: { type: 'string' } } } });
      expect(operation.responses['404']).toMatchObject({ content: { 'text/html': { schema: { type: 'string' } } } });
      expect(operation.responses['503']).toMatchObject({ content: { 'text/html': expect.anything() } });
      expect(operation.responses['429']).toMatchObject({ content: { 'text/html': expect.anything() } });
      expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '404', '414', '429', '503']);
      expect(operation.parameters).toEqual([expect.objectContaining({ name: 'token', in: 'path', required: true })]);
    }
  });
});
