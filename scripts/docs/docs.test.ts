import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { brokenLinks, headingAnchors } from './check-links.ts';
import { REFERENCE_PATH, renderConfigReference } from './config-reference.ts';

describe('documentation', () => {
  it('the configuration reference is the one the config specs generate (npm run docs:config)', async () => {
    expect(readFileSync(REFERENCE_PATH, 'utf8')).toBe(await renderConfigReference());
  });

  it('the reference lists every variable with its default, e.g. the gateway port and the upload limit', async () => {
    const text = await renderConfigReference();
    expect(text).toContain('| `PORT` | `8080` | gateway |');
    expect(text).toContain('| `UPLOAD_MAX_BYTES` | `1610612736` (1.5 GiB) | files |');
  });

  it('every relative link and anchor in README.md and docs/ resolves', () => {
    expect(brokenLinks()).toEqual([]);
  });

  it('anchors follow GitHub: punctuation dropped, repeated headings numbered, code fences ignored', () => {
    const anchors = headingAnchors('# A `code` Title!\n## Same\n## Same\n```\n# not a heading\n```\n');
    expect([...anchors]).toEqual(['a-code-title', 'same', 'same-1']);
  });
});
