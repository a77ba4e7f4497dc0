import { Body, Controller, Get, Param, Post, Query, Res } from '@nestjs/common';
import { Answer } from '../../common/http/answer';
import { ApiTags } from '@nestjs/swagger';
import { RouteSchema } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { ApiMerchantOperation, LIST_HEADERS } from '../../common/http/api-docs';
import { CurrentMerchant, MerchantRoute, MerchantPrincipal } from '../auth';
import { IdempotencyClaim, IdempotencyContext, Idempotent, idempotencyErrors, REPLAYED_HEADER } from '../idempotency';
import { CreatePoboBusinessDto } from './dto/create-pobo-business.dto';
import { sendPage } from '../../common/http/list.query';
import { BusinessListQuery } from './dto/business-list.query';
import { POBO_BUSINESS_RESPONSE } from './dto/pobo-business.schema';
import { POBO_BUSINESS_EXAMPLE, PoboBusinessDto, PoboBusinessEnvelopeDto, PoboBusinessListEnvelopeDto } from './dto/pobo-business.response';
import { PoboBusinessAgreementService } from './pobo-business-agreement.service';
import { PoboBusinessesService } from './pobo-businesses.service';
import { POBO_USERS_PATH } from './pobo-businesses.routes';

@ApiTags('POBO businesses')
@Controller(POBO_USERS_PATH)
export class PoboBusinessesController {
  constructor(
    private readonly businesses: PoboBusinessesService,
    private readonly agreement: PoboBusinessAgreementService,
  ) {}

  @MerchantRoute('write')
  @Post()
  @Idempotent('optional', 201)
  @ApiMerchantOperation({
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
    errors: idempotencyErrors('optional'),
  })
  @Answer('Business created')
  create(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Body() dto: CreatePoboBusinessDto,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<PoboBusinessDto> {
    return this.businesses.create(merchant.merchantId, dto, claim);
  }

  @MerchantRoute()
  @Get()
  @ApiMerchantOperation({
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
  @Answer('Businesses retrieved')
  async list(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Query() query: BusinessListQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PoboBusinessDto[]> {
    return sendPage(reply, await this.businesses.list(merchant.merchantId, query));
  }

  @MerchantRoute()
  @Get(':poboUserId')
  @RouteSchema(POBO_BUSINESS_RESPONSE)
  @ApiMerchantOperation({
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
  @Answer('Business retrieved')
  async get(@CurrentMerchant() merchant: MerchantPrincipal, @Param('poboUserId') poboUserId: string): Promise<PoboBusinessDto> {
    return await this.businesses.get(merchant.merchantId, poboUserId);
  }

  @MerchantRoute('write')
  @Post(':poboUserId/agreement-link')
  @Idempotent('optional', 201)
  @ApiMerchantOperation({
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
    errors: ['resource_not_found', 'uri_too_long', 'agreement_already_accepted', ...idempotencyErrors('optional')],
  })
  @Answer('Agreement link issued')
  issueAgreementLink(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Param('poboUserId') poboUserId: string,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<PoboBusinessDto> {
    return this.agreement.issueLink(merchant.merchantId, poboUserId, claim);
  }
}
