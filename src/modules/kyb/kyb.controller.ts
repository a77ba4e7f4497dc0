import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorBodyDto } from '../../common/http/error-body.dto';
import { Envelope, envelope } from '../../common/http/envelope';
import { CurrentMerchant, MerchantAuth, MerchantPrincipal } from '../auth';
import { POBO_USERS_PATH, PoboBusinessDto, PoboBusinessEnvelopeDto } from '../pobo-businesses';
import { KybApplicationDto } from './dto/kyb-application.dto';
import { ReceivedDocuments } from './kyb-documents.extractor';
import { KybService } from './kyb.service';
import { SubmittedDocuments } from './submitted-documents.decorator';

@ApiTags('KYB onboarding')
@MerchantAuth()
@ApiNotFoundResponse({ description: 'Unknown id, or a business of another merchant', type: ErrorBodyDto })
@Controller(`${POBO_USERS_PATH}/:poboUserId/onboarding`)
export class KybController {
  constructor(private readonly kyb: KybService) {}

  @Get()
  @ApiOperation({ summary: 'Refresh from the verification provider and return the KYB state; poll while kyb.status is processing' })
  @ApiOkResponse({ type: PoboBusinessEnvelopeDto })
  async get(@CurrentMerchant() merchant: MerchantPrincipal, @Param('poboUserId') poboUserId: string): Promise<Envelope<PoboBusinessDto>> {
    return envelope('KYB status retrieved', await this.kyb.getOnboarding(merchant.merchantId, poboUserId));
  }

  @Post()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Submit the KYB application',
    description:
      'Needs an accepted agreement and kyb.status not_started or action_required; exactly one representative, at least one applicant, ' +
      'all six required company-file groups; each document at most 8 MB and all at most 50 MB once decoded.',
  })
  @ApiAcceptedResponse({ type: PoboBusinessEnvelopeDto, description: 'Submitted; kyb.status is processing' })
  @ApiBadRequestResponse({ type: ErrorBodyDto, description: 'Validation failed or an onboarding rule is broken' })
  @ApiConflictResponse({ type: ErrorBodyDto, description: 'agreement_not_accepted or kyb_state_conflict' })
  @ApiPayloadTooLargeResponse({ type: ErrorBodyDto })
  @ApiServiceUnavailableResponse({ type: ErrorBodyDto, description: 'Too many uploads in progress; retry after Retry-After' })
  async submit(
    @CurrentMerchant() merchant: MerchantPrincipal,
    @Param('poboUserId') poboUserId: string,
    @Body() application: KybApplicationDto,
    @SubmittedDocuments() documents: ReceivedDocuments,
  ): Promise<Envelope<PoboBusinessDto>> {
    return envelope('KYB application submitted', await this.kyb.submit(merchant.merchantId, poboUserId, application, documents));
  }
}
