import type { CallOptions } from '../../common/providers/provider-http-client';
export const PROVIDER_APPLICATION_STATUSES = ['processing', 'verified', 'declined', 'action_required'] as const;
export type ProviderApplicationStatus = (typeof PROVIDER_APPLICATION_STATUSES)[number];

/** A document as the provider knows it; its bytes are uploaded before the application names it. */
export interface ProviderDocument {
  id: string;
  path: string;
  file_type: string;
  sha256: string;
  size: number;
}

export interface ProviderApplicationInput {
  /** Our application id: the idempotency key, so a retried submission never creates a second one. */
  reference: string;
  company: object;
  associated_persons: object[];
  documents: ProviderDocument[];
}

/** What the provider asks for before it can decide; shown to the merchant as `kyb.pendingRequirements`. */
export interface ProviderRequirement {
  code: string;
  field: string;
  message: string;
}

export interface ProviderApplication {
  id: string;
  status: ProviderApplicationStatus;
  requirements: ProviderRequirement[];
}

/** The KYB verification provider, as the rest of the code sees it. */
export interface VerificationProvider {
  /** Idempotent by document id; `content` is called once per attempt and streamed, never held whole. */
  uploadDocument(document: ProviderDocument, content: () => AsyncIterable<Uint8Array>, options: CallOptions): Promise<void>;
  createApplication(application: ProviderApplicationInput, options: CallOptions): Promise<ProviderApplication>;
  fetchApplication(providerReference: string, options: CallOptions): Promise<ProviderApplication>;
}

export const VERIFICATION_PROVIDER = Symbol('VERIFICATION_PROVIDER');
