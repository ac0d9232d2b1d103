// Every relative link and anchor in README.md and docs/ must resolve: a file that was
// moved or a heading that was renamed breaks a reader's path, so docs.test.ts fails on
// it (and `npm run docs:links` lists them). External links are not fetched (no network).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export function markdownFiles(): string[] {
  const found = [join(ROOT, 'README.md')];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) found.push(path);
    }
  };
  if (existsSync(join(ROOT, 'docs'))) walk(join(ROOT, 'docs'));
  return found;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .replace(/`/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Inline links and images outside code: `[text](target)` and `![alt](target)`. */
function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) { fenced = !fenced; continue; }
    if (fenced) continue;
    const text = line.replace(/`[^`]*`/g, '');
    for (const match of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!);
  }
  return targets;
}

export interface BrokenLink { file: string; target: string; reason: string }

export function brokenLinks(): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string): Set<string> => {
    let set = anchorsOf.get(path);
    if (!set) anchorsOf.set(path, (set = headingAnchors(readFileSync(path, 'utf8'))));
    return set;
  };
  for (const file of markdownFiles()) {
    for (const target of linkTargets(readFileSync(file, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
      const resolved = pathPart === '' ? file : join(dirname(file), decodeURIComponent(pathPart));
      const where = relative(ROOT, file);
      if (!existsSync(resolved)) { broken.push({ file: where, target, reason: 'no such file' }); continue; }
      if (anchor && statSync(resolved).isFile() && resolved.endsWith('.md') && !anchors(resolved).has(anchor.toLowerCase())) {
        broken.push({ file: where, target, reason: 'no such heading' });
      }
    }
  }
  return broken;
}

if (import.meta.main) {
  const broken = brokenLinks();
  for (const b of broken) console.error(`${b.file}: ${b.target} (${b.reason})`);
  console.log(`${markdownFiles().length} Markdown files, ${broken.length} broken links`);
  process.exit(broken.length ? 1 : 0);
}
