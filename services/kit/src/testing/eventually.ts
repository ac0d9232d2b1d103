/**
 * Waits until `check` passes: it neither throws (assertion style) nor returns `false`
 * (predicate style). Delivery through a bus, a read model or a poll is asynchronous, so
 * tests wait for the effect instead of sleeping a fixed time. The last failure is
 * rethrown when the time is up.
 */
export async function eventually(check: () => unknown, timeoutMs = 5_000, intervalMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let failure: unknown;
    try {
      if ((await check()) !== false) return;
      failure = new Error(`condition not met within ${timeoutMs} ms`);
    } catch (err) {
      failure = err;
    }
    if (Date.now() > deadline) throw failure;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
