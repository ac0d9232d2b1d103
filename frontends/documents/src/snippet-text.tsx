import { snippetParts } from '@ledgerline/contracts/files.contracts.ts';

/**
 * A search snippet with its matched words highlighted. The server marks matches with control
 * characters, never HTML, and every part is rendered as text: file contents cannot inject markup.
 */
export function SnippetText({ snippet }: { snippet: string }) {
  return (
    <span className="file-snippet">
      {snippetParts(snippet).map((part, index) =>
        part.highlighted ? <mark key={index} className="file-snippet__match">{part.text}</mark> : <span key={index}>{part.text}</span>,
      )}
    </span>
  );
}
