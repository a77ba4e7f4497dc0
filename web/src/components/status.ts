/** How a status reads at a glance: done, waiting, failed, or just a fact. Shown with its words, never by colour alone. */
export function toneOf(status: string): 'good' | 'warn' | 'bad' | 'neutral' {
  if (/^(succeeded|settled|verified|accepted|active|funds_received|completed|confirmed)$/.test(status)) return 'good';
  if (/^(failed|declined|rejected|returned|expired|revoked|closed|dropped)$/.test(status)) return 'bad';
  if (/^(pending|processing|awaiting_payment|submitted|action_required|agreement_pending|.*_initiated|.*_confirmed|provisioning|requested)$/.test(status))
    return 'warn';
  return 'neutral';
}
