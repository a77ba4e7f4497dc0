import { Type } from 'class-transformer';
import { IsArray, IsIn, IsNotEmpty, IsString, MaxLength, ValidateNested } from 'class-validator';
import { CallOptions, parseProviderBody, ProviderHttpClient } from '../../common/providers/provider-http-client';
import {
  PROVIDER_APPLICATION_STATUSES,
  ProviderApplication,
  ProviderApplicationInput,
  ProviderApplicationStatus,
  ProviderDocument,
  VerificationProvider,
} from './verification-provider';

class ProviderRequirementBody {
  @IsString()
  @MaxLength(100)
  code: string;

  @IsString()
  @MaxLength(200)
  field: string;

  @IsString()
  @MaxLength(1000)
  message: string;
}

class ProviderApplicationBody {
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  id: string;

  @IsIn(PROVIDER_APPLICATION_STATUSES)
  status: ProviderApplicationStatus;

  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ProviderRequirementBody)
  requirements: ProviderRequirementBody[];
}

const NAME = 'verification provider';

/** The verification provider over HTTP (the sandbox in development, the real one in production). */
export class HttpVerificationProvider implements VerificationProvider {
  constructor(private readonly client: ProviderHttpClient) {}

  async uploadDocument(document: ProviderDocument, content: () => AsyncIterable<Uint8Array>, options: CallOptions): Promise<void> {
    await this.client.request({
      method: 'PUT',
      path: `/v1/documents/${encodeURIComponent(document.id)}`,
      headers: { 'x-content-sha256': document.sha256 },
      stream: content,
      contentType: 'application/octet-stream',
      contentLength: document.size,
      ...options,
    });
  }

  async createApplication(application: ProviderApplicationInput, options: CallOptions): Promise<ProviderApplication> {
    const { body } = await this.client.request({
      method: 'POST',
      path: '/v1/business-applications',
      headers: { 'idempotency-key': application.reference },
      body: application,
      ...options,
    });
    return this.parse(body);
  }

  async fetchApplication(providerReference: string, options: CallOptions): Promise<ProviderApplication> {
    const { body } = await this.client.request({
      method: 'GET',
      path: `/v1/business-applications/${encodeURIComponent(providerReference)}`,
      ...options,
    });
    return this.parse(body);
  }

  private parse(body: unknown): ProviderApplication {
    const parsed = parseProviderBody(NAME, ProviderApplicationBody, body);
    return {
      id: parsed.id,
      status: parsed.status,
      requirements: parsed.requirements.map(({ code, field, message }) => ({ code, field, message })),
    };
  }
}
