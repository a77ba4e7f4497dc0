import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import { COLLECTIONS_PATH, DASHBOARD_BUSINESS_COLLECTIONS_PATH, DASHBOARD_COLLECTIONS_PATH, NAIRA_TEST_HELPERS_PATH } from './naira.routes';
import type { FastifyReply } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { sendPage } from '../../common/http/list.query';
import { MerchantId, TestModeOnly } from '../auth';
import { Operation } from '../operations';
import { IdempotencyClaim, IdempotencyContext, REPLAYED_HEADER } from '../idempotency';
import {
  CollectionDto,
  CollectionEnvelopeDto,
  CollectionListEnvelopeDto,
  CollectionListQuery,
  NairaTransferSentDto,
  NairaTransferSentEnvelopeDto,
  SendNairaTransferDto,
} from './dto/collection.dto';
import { NairaCollectionsService } from './naira-collections.service';
import { POBO_USERS_PATH } from '../pobo-businesses';

const COLLECTION_EXAMPLE: CollectionDto = {
  collectionId: 'col_3e4f5a6b7c8d9e0f1a2b3c4d',
  poboUserId: 'pobo_4c1f0a9e2b7d3c5e8f601a2b',
  amount: 125000.5,
  currency: 'NGN',
  senderName: 'Chidi Okafor',
  senderBankName: 'Guaranty Trust Bank',
  senderAccountNumber: '0123456789',
  narration: 'Invoice 2231',
  status: 'credited',
  returnReason: null,
  receivedAt: '2026-11-20T10:15:00.000Z',
};

@Controller()
export class CollectionsController {
  constructor(private readonly collections: NairaCollectionsService) {}

  @Operation({
    method: 'GET',
    merchant: { path: `${POBO_USERS_PATH}/:poboUserId/collections`, tag: 'Collections' },
    dashboard: { path: DASHBOARD_BUSINESS_COLLECTIONS_PATH, tag: 'Dashboard: businesses' },
    answer: 'Collections retrieved',
    operationId: 'listCollections',
    summary: "List the transfers into a business's Naira account, newest first",
    description:
      "Every transfer into the business's own Naira account is a collection: credited to the merchant's NGN balance once, or returned to its sender once the account was closed.",
    success: {
      status: 200,
      type: CollectionListEnvelopeDto,
      description: 'A page of collections',
      headers: LIST_HEADERS,
      example: { message: 'Collections retrieved', response: [COLLECTION_EXAMPLE] },
    },
    errors: ['validation_failed', 'invalid_cursor', 'resource_not_found', 'uri_too_long'],
  })
  async list(
    @MerchantId() merchantId: string,
    @Param('poboUserId') poboUserId: string,
    @Query() query: CollectionListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CollectionDto[]> {
    return sendPage(reply, await this.collections.list(merchantId, poboUserId, query));
  }

  @Operation({
    method: 'GET',
    merchant: { path: `${COLLECTIONS_PATH}/:collectionId`, tag: 'Collections' },
    dashboard: { path: `${DASHBOARD_COLLECTIONS_PATH}/:collectionId`, tag: 'Dashboard: money' },
    answer: 'Collection retrieved',
    operationId: 'getCollection',
    summary: 'Retrieve a collection',
    success: {
      status: 200,
      type: CollectionEnvelopeDto,
      description: 'The collection',
      example: { message: 'Collection retrieved', response: COLLECTION_EXAMPLE },
    },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  async get(@MerchantId() merchantId: string, @Param('collectionId') id: string): Promise<CollectionDto> {
    return await this.collections.get(merchantId, id);
  }
}

@TestModeOnly()
@Controller()
export class NairaTestHelpersController {
  constructor(private readonly collections: NairaCollectionsService) {}

  @Operation({
    method: 'POST',
    merchant: { path: `${NAIRA_TEST_HELPERS_PATH}/:poboUserId/naira-transfers`, tag: 'Test helpers', permission: 'write' },
    idempotent: { mode: 'optional', status: 202 },
    answer: 'Test transfer sent',
    operationId: 'sendNairaTransferForTest',
    summary: "Test keys only: send a transfer into the business's Naira account through the sandbox bank rail",
    description:
      'The sandbox bank sends the transfer as a sender at another bank would, and notifies the service by signed callback; the collection is listed within a few seconds. ' +
      'A live key gets 404.',
    success: {
      status: 202,
      headers: REPLAYED_HEADER,
      type: NairaTransferSentEnvelopeDto,
      description: 'The rail accepted the transfer',
      example: {
        message: 'Test transfer sent',
        response: { transferId: 'trf_0a1b2c3d4e5f60718293a4b5', poboUserId: 'pobo_4c1f0a9e2b7d3c5e8f601a2b', accountNumber: '9912345678', amount: 125000.5 },
      },
    },
    body: {
      type: SendNairaTransferDto,
      example: {
        amount: 125000.5,
        senderName: 'Chidi Okafor',
        senderBankName: 'Guaranty Trust Bank',
        senderAccountNumber: '0123456789',
        narration: 'Invoice 2231',
      },
    },
    errors: ['resource_not_found', 'route_not_found', 'uri_too_long', 'naira_account_not_active'],
  })
  send(
    @MerchantId() merchantId: string,
    @Param('poboUserId') poboUserId: string,
    @Body() dto: SendNairaTransferDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<NairaTransferSentDto> {
    return this.collections.sendTestTransfer(merchantId, poboUserId, dto, claim);
  }
}
