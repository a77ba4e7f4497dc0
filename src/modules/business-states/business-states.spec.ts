import { AGREEMENT_STATUSES, canTransition, KYB_STATUSES, NAIRA_COLLECTION_STATUSES, TRANSITIONS } from '../pobo-businesses/pobo-business.states';

describe('status transitions', () => {
  it('covers every state of every field', () => {
    expect(Object.keys(TRANSITIONS.agreement).sort()).toEqual([...AGREEMENT_STATUSES].sort());
    expect(Object.keys(TRANSITIONS.kyb).sort()).toEqual([...KYB_STATUSES].sort());
    expect(Object.keys(TRANSITIONS.naira_collection).sort()).toEqual([...NAIRA_COLLECTION_STATUSES].sort());
  });

  it('allows the onboarding path and nothing that skips it', () => {
    expect(canTransition('agreement', 'pending', 'accepted')).toBe(true);
    expect(canTransition('agreement', 'accepted', 'pending')).toBe(false);
    expect(canTransition('kyb', 'agreement_pending', 'not_started')).toBe(true);
    expect(canTransition('kyb', 'agreement_pending', 'processing')).toBe(false);
    expect(canTransition('kyb', 'not_started', 'verified')).toBe(false);
    expect(canTransition('kyb', 'action_required', 'processing')).toBe(true);
    expect(canTransition('kyb', 'verified', 'processing')).toBe(false);
    expect(canTransition('kyb', 'declined', 'processing')).toBe(false);
    expect(canTransition('naira_collection', 'failed', 'pending')).toBe(true);
    expect(canTransition('naira_collection', 'not_requested', 'active')).toBe(false);
    expect(canTransition('kyb', 'nonsense', 'processing')).toBe(false);
  });

  it('has terminal states with no way out', () => {
    for (const terminal of ['verified', 'declined'] as const) expect(TRANSITIONS.kyb[terminal]).toEqual([]);
    expect(TRANSITIONS.naira_collection.active).toEqual([]);
  });
});
