import { describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { SNIPPET_MARK } from '@ledgerline/contracts/files.contracts.ts';
import { FileNameCell } from '../src/file-cells.tsx';
import { SnippetText } from '../src/snippet-text.tsx';

const mark = (word: string) => `${SNIPPET_MARK.start}${word}${SNIPPET_MARK.end}`;

describe('search snippets', () => {
  it('highlights the matched words and keeps the rest as text', () => {
    const html = renderToStaticMarkup(<SnippetText snippet={`Invoice for ${mark('Zephyrine')} Ltd, ${mark('zephyrine')} again`} />);
    expect(html).toBe(
      '<span class="file-snippet"><span>Invoice for </span><mark class="file-snippet__match">Zephyrine</mark><span> Ltd, </span>'
        + '<mark class="file-snippet__match">zephyrine</mark><span> again</span></span>',
    );
  });

  it('never renders markup from file contents', () => {
    const html = renderToStaticMarkup(<SnippetText snippet={`<img src=x onerror=alert(1)> ${mark('<b>tax</b>')}`} />);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<mark class="file-snippet__match">&lt;b&gt;tax&lt;/b&gt;</mark>');
  });

  it('shows the snippet under the file name only on a search', () => {
    const file = { id: 1, originalName: 'scan.png', snippet: `paid by ${mark('Zephyrine')}` } as Parameters<typeof FileNameCell>[0]['file'];
    expect(renderToStaticMarkup(<FileNameCell file={file} />)).toContain('<mark class="file-snippet__match">Zephyrine</mark>');
    expect(renderToStaticMarkup(<FileNameCell file={{ ...file, snippet: undefined }} />)).not.toContain('file-snippet');
  });
});
