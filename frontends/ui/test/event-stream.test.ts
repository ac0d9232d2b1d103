import { describe, expect, it } from '@jest/globals';
import { parseEventBlock, readEventStream, type StreamEvent } from '@ledgerline/ui/event-stream.ts';
import { markdownToSafeHtml } from '@ledgerline/ui/markdown-text.tsx';

const streamOf = (...chunks: string[]) => new Response(new ReadableStream({
  start(controller) {
    for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
    controller.close();
  },
}));

describe('server-sent events', () => {
  it('parses a block, and ignores one without data', () => {
    expect(parseEventBlock('event: delta\ndata: {"text":"Hi"}')).toEqual({ event: 'delta', data: { text: 'Hi' } });
    expect(parseEventBlock('data: 1')).toEqual({ event: 'message', data: 1 });
    expect(parseEventBlock(': comment')).toBeNull();
  });

  it('yields events whole even when the network splits them', async () => {
    const events: StreamEvent[] = [];
    for await (const e of readEventStream(streamOf('event: delta\ndata: {"te', 'xt":"Hel"}\n\nevent: delta\r\ndata: {"text":"lo"}\r\n\r\nevent: done\n', 'data: {"ok":true}'))) events.push(e);
    expect(events).toEqual([
      { event: 'delta', data: { text: 'Hel' } },
      { event: 'delta', data: { text: 'lo' } },
      { event: 'done', data: { ok: true } },
    ]);
  });
});

describe('markdown without a DOM', () => {
  it('shows the text as text when nothing could sanitise HTML', () => {
    expect(markdownToSafeHtml('<img src=x onerror=alert(1)> **b**')).toBe('&lt;img src=x onerror=alert(1)&gt; **b**');
  });
});
