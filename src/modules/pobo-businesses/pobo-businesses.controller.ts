import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RouteSchema } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { ApiMerchantOperation } from '../../common/http/api-docs';
import { Envelope, envelope } from '../../common/http/envelope';
import { CurrentMerchant, MerchantAuth, MerchantPrincipal } from '../auth';
import { CreatePoboBusinessDto } from './dto/create-pobo-business.dto';
import { ListPoboBusinessesQuery } from './dto/list-pobo-businesses.query';
import { POBO_BUSINESS_RESPONSE } from './dto/pobo-business.schema';
import { POBO_BUSINESS_EXAMPLE, PoboBusinessDto, PoboBusinessEnvelopeDto, PoboBusinessListEnvelopeDto } from './dto/pobo-business.response';
import { PoboBusinessAgreementService } from './pobo-business-agreement.service';
import { POBO_USERS_PATH, PoboBusinessesService } from './pobo-businesses.service';

@ApiTags('POBO businesses')
@MerchantAuth()
@Controller(POBO_USERS_PATH)
export class PoboBusinessesController {
  constructor(
    private readonly businesses: PoboBusinessesService,
    private readonly agreement: PoboBusinessAgreementService,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiMerchantOperation({
    operationId: 'createPoboBusiness',
    summary: 'Create a business customer',
    description:
      'Creates a POBO business with its own EVM and SVM addresses. `response.agreement.url` is its agreement link: the only answer ' +
      'besides `POST …/agreement-link` that shows it. Send it to the business, who accepts the terms on that page.',
    success: {
      status: 201,
      type: PoboBusinessEnvelopeDto,
      description: 'Created; `agreement.status` is `pending`, `kyb.status` `agreement_pending`',
      example: { message: 'Business created', response: POBO_BUSINESS_EXAMPLE },
    },
    body: {
      type: CreatePoboBusinessDto,
      example: { businessName: 'Acme Trading Ltd', email: 'finance@acme.example', phoneNumber: '+2348012345678', country: 'NG', allowNairaCollection: true },
    },
  })
  async create(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Body() dto: CreatePoboBusinessDto,
  ): Promise<Envelope<PoboBusinessDto>> {
    return envelope('Business created', await this.businesses.create(merchant.merchantId, dto));
  }

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
      headers: { Link: { description: '`<…>; rel="next"`, present when a next page exists', schema: { type: 'string' } } },
    },
    errors: ['validation_failed', 'invalid_cursor'],
  })
  async list(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Query() query: ListPoboBusinessesQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Envelope<PoboBusinessDto[]>> {
    const page = await this.businesses.list(merchant.merchantId, query);
    if (page.nextUrl) void reply.header('Link', `<${page.nextUrl}>; rel="next"`);
    return envelope('Businesses retrieved', page.items);
  }

  @Get(':poboUserId')
  @RouteSchema(POBO_BUSINESS_RESPONSE)
  @ApiMerchantOperation({
    operationId: 'getPoboBusiness',
    summary: 'Retrieve one business',
    description: "A business of another merchant is a 404, like an id that does not exist.",
    success: {
      status: 200,
      type: PoboBusinessEnvelopeDto,
      description: 'The business',
      example: { message: 'Business retrieved', response: { ...POBO_BUSINESS_EXAMPLE, agreement: { status: 'pending' } } },
    },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  async get(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Param('poboUserId') poboUserId: string,
  ): Promise<Envelope<PoboBusinessDto>> {
    return envelope('Business retrieved', await this.businesses.get(merchant.merchantId, poboUserId));
  }

  @Post(':poboUserId/agreement-link')
  @HttpCode(201)
  @ApiMerchantOperation({
    operationId: 'issueAgreementLink',
    summary: 'Issue a fresh agreement link',
    description: 'Voids every earlier link of the business. Refused once the agreement is accepted.',
    success: {
      status: 201,
      type: PoboBusinessEnvelopeDto,
      description: '`response.agreement.url` is the new link',
      example: { message: 'Agreement link issued', response: POBO_BUSINESS_EXAMPLE },
    },
    errors: ['resource_not_found', 'uri_too_long', 'agreement_already_accepted'],
  })
  async issueAgreementLink(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Param('poboUserId') poboUserId: string,
  ): Promise<Envelope<PoboBusinessDto>> {
    return envelope('Agreement link issued', await this.agreement.issueLink(merchant.merchantId, poboUserId));
  }
}
