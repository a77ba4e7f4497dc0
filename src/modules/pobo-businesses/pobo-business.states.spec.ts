import { AGREEMENT_STATES, KYB_STATES, NAIRA_COLLECTION_STATES } from './pobo-business.states';

describe('business status machines', () => {
  it('allows the onboarding path and nothing that skips it', () => {
    expect(AGREEMENT_STATES.can('pending', 'accepted')).toBe(true);
    expect(AGREEMENT_STATES.can('accepted', 'pending')).toBe(false);
    expect(KYB_STATES.can('agreement_pending', 'not_started')).toBe(true);
    expect(KYB_STATES.can('agreement_pending', 'processing')).toBe(false);
    expect(KYB_STATES.can('not_started', 'verified')).toBe(false);
    expect(KYB_STATES.can('action_required', 'processing')).toBe(true);
    expect(KYB_STATES.can('verified', 'processing')).toBe(false);
    expect(KYB_STATES.can('nonsense', 'processing')).toBe(false);
    expect(NAIRA_COLLECTION_STATES.can('failed', 'pending')).toBe(true);
    expect(NAIRA_COLLECTION_STATES.can('not_requested', 'active')).toBe(false);
  });

  it('derives where a KYB application may be submitted from, and the final states', () => {
    expect(KYB_STATES.sourcesOf('processing').sort()).toEqual(['action_required', 'not_started']);
    expect(KYB_STATES.states.filter((s) => KYB_STATES.isFinal(s)).sort()).toEqual(['declined', 'verified']);
    // Only an operator's closing leaves `active`, and it goes back to not requested.
    expect(NAIRA_COLLECTION_STATES.sourcesOf('not_requested')).toEqual(['active']);
  });

  it('lists its states for CHECK constraints', () => {
    expect(AGREEMENT_STATES.sqlList()).toBe("'pending', 'accepted'");
  });
});
