import { Parser } from 'htmlparser2';
import type { ExtractionContext } from './extraction-context.ts';
import { decodedText } from './plain-text.extractor.ts';
import type { TextSink } from './text-sink.ts';

/** Elements whose content is not text a reader sees. */
const HTML_SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'object', 'iframe', 'canvas', 'svg', 'math']);
/** Elements that start a new line in a rendered page. */
const HTML_BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'caption', 'dd', 'details', 'div', 'dl', 'dt', 'fieldset',
  'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav',
  'ol', 'p', 'pre', 'section', 'summary', 'table', 'title', 'tr', 'ul',
]);
const HTML_CELLS = new Set(['td', 'th']);

/**
 * HTML, streamed: the text a reader sees (title and body; no scripts, styles or markup),
 * entities decoded, block elements on their own lines. The parser is lenient, so broken
 * markup still gives its words.
 */
export async function extractHtml(context: ExtractionContext): Promise<void> {
  const { sink } = context;
  let skippedDepth = 0;
  const parser = new Parser({
    onopentag(name) {
      if (HTML_SKIPPED.has(name)) skippedDepth += 1;
      else if (HTML_BLOCKS.has(name)) sink.newline();
      else if (HTML_CELLS.has(name)) sink.space();
    },
    onclosetag(name) {
      if (HTML_SKIPPED.has(name)) skippedDepth = Math.max(0, skippedDepth - 1);
      else if (HTML_BLOCKS.has(name)) sink.newline();
    },
    ontext(text) {
      if (skippedDepth === 0) sink.write(text);
    },
  }, { decodeEntities: true, lowerCaseTags: true });
  await feed(context, parser, sink);
}

/**
 * XML (and SVG, feeds, XBRL…), streamed: the text nodes and CDATA sections, elements kept
 * apart by a space; tags, attributes, comments and processing instructions dropped. Custom
 * DTD entities are never expanded, so an entity bomb is just text.
 */
export async function extractXml(context: ExtractionContext): Promise<void> {
  const { sink } = context;
  const parser = new Parser({
    onopentag() { sink.space(); },
    onclosetag() { sink.space(); },
    ontext(text) { sink.write(text); },
  }, { xmlMode: true, decodeEntities: true });
  await feed(context, parser, sink);
}

async function feed(context: ExtractionContext, parser: Parser, sink: TextSink): Promise<void> {
  for await (const text of decodedText(context)) {
    parser.write(text);
    if (sink.full) return;
  }
  parser.end();
}
