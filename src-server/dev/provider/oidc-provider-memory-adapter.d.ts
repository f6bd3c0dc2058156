// oidc-provider ships its in-memory adapter without type declarations. Importing the factory
// directly (instead of leaving `adapter` unset) gives the same adapter minus the start-up
// "development-only in-memory adapter" warning, which would otherwise appear on every dev start
// and in every test run.
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  import type { AdapterFactory } from 'oidc-provider';

  export function createMemoryAdapter(clockTolerance?: number): AdapterFactory;
}
