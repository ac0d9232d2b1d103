/** One server-sent event: its name and its JSON data. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/** Parses one `event: …` / `data: …` block (lines of a block are separated by '\n'). */
export function parseEventBlock(block: string): StreamEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (!data.length) return null;
  return { event, data: JSON.parse(data.join('\n')) as unknown };
}

/**
 * The events of a streamed reply as they arrive (design: answers stream through the
 * gateway as server-sent events). A block split across network chunks waits for its end.
 */
export async function* readEventStream(response: Response): AsyncGenerator<StreamEvent> {
  if (!response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value.replace(/\r\n/g, '\n');
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const parsed = parseEventBlock(buffered.slice(0, end));
      buffered = buffered.slice(end + 2);
      if (parsed) yield parsed;
      end = buffered.indexOf('\n\n');
    }
  }
  const last = parseEventBlock(buffered.trim());
  if (last) yield last;
}
