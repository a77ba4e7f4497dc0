import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { RouteSchema } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import { ErrorBodyDto } from '../../common/http/error-body.dto';
import { Envelope, envelope } from '../../common/http/envelope';
import { CurrentMerchant, MerchantAuth, MerchantPrincipal } from '../auth';
import { CreatePoboBusinessDto } from './dto/create-pobo-business.dto';
import { ListPoboBusinessesQuery } from './dto/list-pobo-businesses.query';
import { POBO_BUSINESS_RESPONSE } from './dto/pobo-business.schema';
import { PoboBusinessDto, PoboBusinessEnvelopeDto, PoboBusinessListEnvelopeDto } from './dto/pobo-business.response';
import { PoboBusinessAgreementService } from './pobo-business-agreement.service';
import { POBO_USERS_PATH, PoboBusinessesService } from './pobo-businesses.service';

@ApiTags('POBO businesses')
@MerchantAuth()
@ApiBadRequestResponse({ description: 'Malformed JSON or failed validation', type: ErrorBodyDto })
@Controller(POBO_USERS_PATH)
export class PoboBusinessesController {
  constructor(
    private readonly businesses: PoboBusinessesService,
    private readonly agreement: PoboBusinessAgreementService,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a business customer; the answer carries its agreement link' })
  @ApiCreatedResponse({ type: PoboBusinessEnvelopeDto })
  async create(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Body() dto: CreatePoboBusinessDto,
  ): Promise<Envelope<PoboBusinessDto>> {
    return envelope('Business created', await this.businesses.create(merchant.merchantId, dto));
  }

  @Get()
  @ApiOperation({ summary: "List the merchant's businesses, newest first" })
  @ApiOkResponse({ type: PoboBusinessListEnvelopeDto })
  @ApiHeader({ name: 'Link', description: '`<…>; rel="next"` when a next page exists', required: false })
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
  @ApiOperation({ summary: 'Retrieve one business' })
  @ApiOkResponse({ type: PoboBusinessEnvelopeDto })
  @ApiNotFoundResponse({ description: 'Unknown id, or a business of another merchant', type: ErrorBodyDto })
  async get(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Param('poboUserId') poboUserId: string,
  ): Promise<Envelope<PoboBusinessDto>> {
    return envelope('Business retrieved', await this.businesses.get(merchant.merchantId, poboUserId));
  }

  @Post(':poboUserId/agreement-link')
  @HttpCode(201)
  @ApiOperation({ summary: 'Issue a fresh agreement link; earlier unused links stop working' })
  @ApiCreatedResponse({ type: PoboBusinessEnvelopeDto, description: '`response.agreement.url` is the new link' })
  @ApiNotFoundResponse({ description: 'Unknown id, or a business of another merchant', type: ErrorBodyDto })
  @ApiConflictResponse({ description: '`agreement_already_accepted`: the agreement is already accepted', type: ErrorBodyDto })
  async issueAgreementLink(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Param('poboUserId') poboUserId: string,
  ): Promise<Envelope<PoboBusinessDto>> {
    return envelope('Agreement link issued', await this.agreement.issueLink(merchant.merchantId, poboUserId));
  }
}
