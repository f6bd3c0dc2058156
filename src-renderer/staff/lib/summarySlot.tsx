/**
 * One error summary per screen (GOV.UK pattern): several staff forms share a page, and the summary
 * of the form submitted last is the one shown. Without a provider every form shows its own.
 */
import { createContext, useCallback, useContext, useMemo, useState } from 'react';
import type { ReactNode } from 'react';

interface SlotState {
  active: string | null;
  claim(owner: string): void;
  release(owner: string): void;
}

const SlotContext = createContext<SlotState | null>(null);

export function SummarySlotProvider({ children }: { children: ReactNode }) {
  const [active, setActive] = useState<string | null>(null);
  const claim = useCallback((owner: string) => setActive(owner), []);
  const release = useCallback((owner: string) => setActive((current) => (current === owner ? null : current)), []);
  const value = useMemo(() => ({ active, claim, release }), [active, claim, release]);
  return <SlotContext.Provider value={value}>{children}</SlotContext.Provider>;
}

export function useSummarySlot(owner: string) {
  const slot = useContext(SlotContext);
  return {
    visible: slot ? slot.active === owner : true,
    claim: () => slot?.claim(owner),
    release: () => slot?.release(owner),
  };
}
