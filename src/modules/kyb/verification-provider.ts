import { PendingRequirement } from '../pobo-businesses/pobo-business.states';

export const PROVIDER_APPLICATION_STATUSES = ['processing', 'verified', 'declined', 'action_required'] as const;
export type ProviderApplicationStatus = (typeof PROVIDER_APPLICATION_STATUSES)[number];

export interface ProviderDocument {
  id: string;
  path: string;
  file_type: string;
  sha256: string;
  size: number;
  content: Buffer;
}

export interface ProviderApplicationInput {
  /** Our application id: the idempotency key, so a retried submission never creates a second one. */
  reference: string;
  company: object;
  associated_persons: object[];
  documents: ProviderDocument[];
}

export interface ProviderApplication {
  id: string;
  status: ProviderApplicationStatus;
  requirements: PendingRequirement[];
}

export interface CallOptions {
  timeoutMs: number;
  retries: number;
}

/** The KYB verification provider, as the rest of the code sees it. */
export interface VerificationProvider {
  submit(application: ProviderApplicationInput, options: CallOptions): Promise<ProviderApplication>;
  fetch(providerReference: string, options: CallOptions): Promise<ProviderApplication>;
}

export const VERIFICATION_PROVIDER = Symbol('VERIFICATION_PROVIDER');
