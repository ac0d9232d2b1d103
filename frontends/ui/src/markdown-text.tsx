import DOMPurify from 'dompurify';
import { marked } from 'marked';
import { useMemo } from 'react';

/**
 * What an answer's Markdown may become: text formatting, lists, tables, quotes, code and
 * links. No images (a document could make the browser fetch any address), no forms, no
 * scripts or styles: AI answers quote documents, and documents are untrusted.
 */
const ALLOWED_TAGS = ['p', 'br', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'a'];
const ALLOWED_ATTR = ['href', 'title'];

/** Markdown to sanitised HTML (links open in a new tab, without the opener). */
export function markdownToSafeHtml(markdown: string): string {
  const purify = DOMPurify();
  // Without a DOM (server rendering, tests) nothing can be sanitised: show the text as text.
  if (!purify.isSupported) return escapeHtml(markdown);
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer nofollow');
    }
  });
  return purify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i });
}

/** Renders Markdown (e.g. an AI answer) as sanitised HTML. */
export function MarkdownText({ text, className }: { text: string; className?: string }) {
  const html = useMemo(() => markdownToSafeHtml(text), [text]);
  return <div className={className ? `markdown-text ${className}` : 'markdown-text'} dangerouslySetInnerHTML={{ __html: html }} />;
}

const escapeHtml = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
