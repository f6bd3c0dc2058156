/** How long until `check` holds, polled every `everyMs`; Infinity past `limitMs` (the caller asserts the bound). */
export async function timeUntil(check: () => Promise<boolean>, limitMs = 5_000, everyMs = 20): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > limitMs) return Number.POSITIVE_INFINITY;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
