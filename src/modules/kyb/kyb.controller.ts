import { Body, Controller, HttpCode, Param } from '@nestjs/common';
import { MerchantId } from '../auth';
import { Operation } from '../operations';
import { IdempotencyClaim, IdempotencyContext, REPLAYED_HEADER } from '../idempotency';
import { POBO_BUSINESS_EXAMPLE, PoboBusinessDto, PoboBusinessEnvelopeDto } from '../pobo-businesses';
import { KybApplicationDto, KybApplicationPatchDto } from './dto/kyb-application.dto';
import { KYB_APPLICATION_EXAMPLE } from './dto/kyb-application.example';
import { ReceivedDocuments } from './kyb-documents.extractor';
import { KybService } from './kyb.service';
import { SubmittedDocuments } from './submitted-documents.decorator';
import { POBO_USERS_PATH } from '../pobo-businesses';

const PROCESSING_EXAMPLE = {
  ...POBO_BUSINESS_EXAMPLE,
  agreement: { status: 'accepted' },
  kyb: { status: 'processing', pendingRequirements: [], lastSyncedAt: null },
};
const VERIFIED_EXAMPLE = {
  ...PROCESSING_EXAMPLE,
  nairaCollectionStatus: 'active',
  kyb: { status: 'verified', pendingRequirements: [], lastSyncedAt: '2026-11-20T09:41:07.000Z' },
};

@Controller()
export class KybController {
  constructor(private readonly kyb: KybService) {}

  @Operation({
    method: 'GET',
    merchant: { path: `${POBO_USERS_PATH}/:poboUserId/onboarding`, tag: 'KYB onboarding' },
    answer: 'KYB status retrieved',
    operationId: 'getKybOnboarding',
    summary: 'Refresh from the verification provider and return the KYB state; poll while kyb.status is processing',
    description: 'Asks the provider first, within a short budget; when it is slow or down, answers the last known state with its kyb.lastSyncedAt.',
    success: {
      status: 200,
      type: PoboBusinessEnvelopeDto,
      description: 'The business, its KYB state refreshed',
      example: { message: 'KYB status retrieved', response: VERIFIED_EXAMPLE },
    },
    errors: ['resource_not_found', 'uri_too_long'],
  })
  async get(@MerchantId() merchantId: string, @Param('poboUserId') poboUserId: string): Promise<PoboBusinessDto> {
    return await this.kyb.getOnboarding(merchantId, poboUserId);
  }

  @Operation({
    method: 'POST',
    merchant: { path: `${POBO_USERS_PATH}/:poboUserId/onboarding`, tag: 'KYB onboarding', permission: 'write' },
    idempotent: { mode: 'optional', status: 202 },
    answer: 'KYB application submitted',
    operationId: 'submitKybApplication',
    summary: 'Submit the KYB application',
    description:
      "OwlPay Harbor's business-onboarding format. Needs an accepted agreement and kyb.status not_started or action_required; exactly one " +
      'representative, at least one applicant, all six required company-file groups; each document at most 8 MB and all at most 50 MB ' +
      'once decoded. Enumerations are matched in any case and answered in the case listed.',
    success: {
      status: 202,
      type: PoboBusinessEnvelopeDto,
      headers: REPLAYED_HEADER,
      description: 'Submitted; kyb.status is processing',
      example: { message: 'KYB application submitted', response: PROCESSING_EXAMPLE },
    },
    errors: ['resource_not_found', 'uri_too_long', 'agreement_not_accepted', 'kyb_state_conflict'],
    body: { type: KybApplicationDto, example: KYB_APPLICATION_EXAMPLE },
  })
  async submit(
    @MerchantId() merchantId: string,
    @Param('poboUserId') poboUserId: string,
    @Body() application: KybApplicationDto,
    @SubmittedDocuments() documents: ReceivedDocuments,
    @IdempotencyContext() claim: IdempotencyClaim | undefined,
  ): Promise<PoboBusinessDto> {
    return this.kyb.submit(merchantId, poboUserId, application, documents, claim);
  }

  @Operation({
    method: 'PATCH',
    merchant: { path: `${POBO_USERS_PATH}/:poboUserId/onboarding`, tag: 'KYB onboarding', permission: 'write' },
    answer: 'KYB application corrected and resubmitted',
    operationId: 'correctKybApplication',
    summary: 'Correct the KYB application and resubmit it',
    description:
      'Only while kyb.status is action_required. The body holds any of company, associated_persons and company_files (at least one); ' +
      'each section given replaces that section of the last application wholesale, the others are kept with their documents, which ' +
      'are not sent again. The result must pass every rule of a full application (the document limits count kept documents too), and ' +
      'is resubmitted as POST does.',
    success: {
      status: 202,
      type: PoboBusinessEnvelopeDto,
      description: 'Resubmitted; kyb.status is processing',
      example: { message: 'KYB application corrected and resubmitted', response: PROCESSING_EXAMPLE },
    },
    errors: ['resource_not_found', 'uri_too_long', 'agreement_not_accepted', 'kyb_state_conflict'],
    body: { type: KybApplicationPatchDto, example: { company: { ...KYB_APPLICATION_EXAMPLE.company, url: 'https://www.acme.example' } } },
  })
  @HttpCode(202)
  async correct(
    @MerchantId() merchantId: string,
    @Param('poboUserId') poboUserId: string,
    @Body() patch: KybApplicationPatchDto,
    @SubmittedDocuments() documents: ReceivedDocuments,
  ): Promise<PoboBusinessDto> {
    return this.kyb.correct(merchantId, poboUserId, patch, documents);
  }
}
