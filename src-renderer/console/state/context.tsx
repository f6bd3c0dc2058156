/** Hands the console's stores to every screen (tests render screens with stores over a double). */
import { createContext, useContext } from 'react';
import type { ReactNode } from 'react';
import type { ConsoleStores } from './stores.ts';

const StoresContext = createContext<ConsoleStores | null>(null);

export function StoresProvider({ stores, children }: { stores: ConsoleStores; children: ReactNode }) {
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>;
}

export function useStores(): ConsoleStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('Console screens need a StoresProvider');
  return stores;
}
