import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { LIST_HEADERS } from '../../common/http/api-docs';
import { MerchantId } from '../auth';
import { Operation } from '../operations';
import { IdempotencyClaim, IdempotencyContext, REPLAYED_HEADER } from '../idempotency';
import { CreatePoboBusinessDto } from './dto/create-pobo-business.dto';
import { sendPage } from '../../common/http/list.query';
import { BusinessListQuery } from './dto/business-list.query';
import { POBO_BUSINESS_RESPONSE } from './dto/pobo-business.schema';
import { POBO_BUSINESS_EXAMPLE, PoboBusinessDto, PoboBusinessEnvelopeDto, PoboBusinessListEnvelopeDto } from './dto/pobo-business.response';
import { PoboBusinessAgreementService } from './pobo-business-agreement.service';
import { PoboBusinessesService } from './pobo-businesses.service';
import { DASHBOARD_BUSINESSES_PATH, POBO_USERS_PATH } from './pobo-businesses.routes';

@Controller()
export class PoboBusinessesController {
  constructor(
    private readonly businesses: PoboBusinessesService,
    private readonly agreement: PoboBusinessAgreementService,
  ) {}

  @Operation({
    method: 'POST',
    merchant: { path: POBO_USERS_PATH, tag: 'POBO businesses', permission: 'write' },
    idempotent: { mode: 'optional', status: 201 },
    answer: 'Business created',
    operationId: 'createPoboBusiness',
    summary: 'Create a business customer',
    description:
      'Creates a POBO business with its own EVM and SVM addresses. `response.agreement.url` is its agreement link: the only answer ' +
      'besides `POST …/agreement-link` that shows it. Send it to the business, who accepts the terms on that page.',
    success: {
      status: 201,
      type: PoboBusinessEnvelopeDto,
      headers: REPLAYED_HEADER,
      description: 'Created; `agreement.status` is `pending`, `kyb.status` `agreement_pending`',
      example: { message: 'Business created', response: POBO_BUSINESS_EXAMPLE },
    },
    body: {
      type: CreatePoboBusinessDto,
      example: { businessName: 'Acme Trading Ltd', email: 'finance@acme.example', phoneNumber: '+2348012345678', country: 'NG', allowNairaCollection: true },
    },
  })
  create(
    @MerchantId() merchantId: string,
    @Body() dto: CreatePoboBusinessDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<PoboBusinessDto> {
    return this.businesses.create(merchantId, dto, claim);
  }

  @Operation({
    method: 'GET',
    merchant: { path: POBO_USERS_PATH, tag: 'POBO businesses' },
    dashboard: { path: DASHBOARD_BUSINESSES_PATH, tag: 'Dashboard: businesses' },
    answer: 'Businesses retrieved',
    operationId: 'listPoboBusinesses',
    summary: "List the merchant's businesses, newest first",
    description: 'Up to `limit` (default and most 100) businesses, newest first. When there are more, `Link` names the next page; follow it as given.',
    success: {
      status: 200,
      type: PoboBusinessListEnvelopeDto,
      description: 'A page of businesses',
      example: { message: 'Businesses retrieved', response: [{ ...POBO_BUSINESS_EXAMPLE, agreement: { status: 'pending' } }] },
      headers: LIST_HEADERS,
    },
    errors: ['validation_failed', 'invalid_cursor'],
  })
  async list(@MerchantId() merchantId: string, @Query() query: BusinessListQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<PoboBusinessDto[]> {
    return sendPage(reply, await this.businesses.list(merchantId, query));
  }

  @Operation({
    method: 'GET',
    merchant: { path: `${POBO_USERS_PATH}/:poboUserId`, tag: 'POBO businesses' },
    dashboard: { path: `${DASHBOARD_BUSINESSES_PATH}/:poboUserId`, tag: 'Dashboard: businesses' },
    answer: 'Business retrieved',
    operationId: 'getPoboBusiness',
    summary: 'Retrieve one business',
    description: 'A business of another merchant is a 404, like an id that does not exist.',
    success: {
      status: 200,
      type: PoboBusinessEnvelopeDto,
      description: 'The business',
      example: { message: 'Business retrieved', response: { ...POBO_BUSINESS_EXAMPLE, agreement: { status: 'pending' } } },
    },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  @RouteSchema(POBO_BUSINESS_RESPONSE)
  async get(@MerchantId() merchantId: string, @Param('poboUserId') poboUserId: string): Promise<PoboBusinessDto> {
    return await this.businesses.get(merchantId, poboUserId);
  }

  @Operation({
    method: 'POST',
    merchant: { path: `${POBO_USERS_PATH}/:poboUserId/agreement-link`, tag: 'POBO businesses', permission: 'write' },
    dashboard: {
      path: `${DASHBOARD_BUSINESSES_PATH}/:poboUserId/agreement-link`,
      tag: 'Dashboard: businesses',
      roles: ['owner'],
      idempotency: 'required',
      audit: ({ params }) => ({ action: 'pobo_business.agreement_link_issued', objectId: params.poboUserId }),
    },
    idempotent: { mode: 'optional', status: 201 },
    answer: 'Agreement link issued',
    operationId: 'issueAgreementLink',
    summary: 'Issue a fresh agreement link',
    description: 'Voids every earlier link of the business. Refused once the agreement is accepted.',
    success: {
      status: 201,
      type: PoboBusinessEnvelopeDto,
      headers: REPLAYED_HEADER,
      description: '`response.agreement.url` is the new link',
      example: { message: 'Agreement link issued', response: POBO_BUSINESS_EXAMPLE },
    },
    errors: ['resource_not_found', 'uri_too_long', 'agreement_already_accepted'],
  })
  issueAgreementLink(
    @MerchantId() merchantId: string,
    @Param('poboUserId') poboUserId: string,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<PoboBusinessDto> {
    return this.agreement.issueLink(merchantId, poboUserId, claim);
  }
}
