import { describe, expect, it } from '@jest/globals';
import { TenantRegistry } from '../src/tenancy/tenant-registry.ts';
import type { TenantEventPayload } from '../src/tenancy/tenant-events.ts';

const firm = (shortName: string): TenantEventPayload =>
  ({ id: 1, name: shortName, shortName, schemaName: shortName, isActive: true, urlPattern: 'path', customDomain: null, customSubdomain: null });

/** A firm list as identity answers it, slowly, counting the calls. */
function identity(delayMs = 30) {
  const firms: TenantEventPayload[] = [firm('acme')];
  let calls = 0;
  const source = async () => {
    calls++;
    const answer = firms.map((f) => ({ ...f })); // read when asked, like a query
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    return answer;
  };
  return { firms, source, calls: () => calls };
}

describe('tenant registry', () => {
  it('finds a firm created a moment ago, even while a poll that read the list before it is still under way', async () => {
    const idp = identity();
    const registry = new TenantRegistry({ source: idp.source });
    await registry.refresh();
    const stalePoll = registry.refresh(); // read the list without the new firm
    idp.firms.push(firm('newco'));
    expect(await registry.find('newco')).toMatchObject({ shortName: 'newco' });
    await stalePoll;
    expect(await registry.find('newco')).toMatchObject({ shortName: 'newco' });
  });

  it('asks identity at most twice for a burst of concurrent questions, and not again for a name missing a moment ago', async () => {
    const idp = identity();
    const registry = new TenantRegistry({ source: idp.source, minRefreshMs: 60_000 });
    await registry.refresh();
    const before = idp.calls();
    const burst = ['ghost', 'ghost', 'phantom', 'wraith', 'ghost', 'spectre'];
    expect(await Promise.all(burst.map((name) => registry.find(name)))).toEqual(burst.map(() => null));
    // The first question's call, and one that every later question waits for (the first may have read the list before them).
    const afterBurst = idp.calls() - before;
    expect(afterBurst).toBeLessThanOrEqual(2);
    expect(await registry.find('ghost')).toBeNull();
    expect(await registry.find('acme')).toMatchObject({ shortName: 'acme' });
    expect(idp.calls() - before).toBe(afterBurst);
  });

  it('keeps its snapshot when the source answers that nothing changed (null), and takes the next list it sends', async () => {
    const answers: (TenantEventPayload[] | null)[] = [[firm('acme'), firm('beta')], null, null, [firm('acme')]];
    const registry = new TenantRegistry({ source: async () => answers.shift()!, minRefreshMs: 0 });
    await registry.refresh();
    await registry.refresh();
    await registry.refresh();
    expect((await registry.active()).map((f) => f.shortName)).toEqual(['acme', 'beta']);
    expect(await registry.find('beta')).toMatchObject({ shortName: 'beta' });
    await registry.refresh();
    expect((await registry.active()).map((f) => f.shortName)).toEqual(['acme']);
  });
});
