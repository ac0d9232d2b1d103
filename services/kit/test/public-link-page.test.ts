import { describe, expect, it } from '@jest/globals';
import express from 'express';
import request from 'supertest';
import { createPublicLinkPageRouter, PUBLIC_LINK_PAGE_STYLES, publicLinkPageHtml } from '../src/http/public-link-page.ts';

/* The one page chrome of the pages public links open (the document request page, the signing page). */

describe('the public link page', () => {
  it('wraps the page\'s own styles after the shared chrome, with its title and script', () => {
    const html = publicLinkPageHtml({ title: 'Review and sign', styles: '  canvas { width: 100%; }', scriptPath: '/sign/assets/page.js' });
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<meta name="referrer" content="no-referrer">');
    expect(html).toContain('<title>Review and sign</title>');
    expect(html).toContain('<script src="/sign/assets/page.js"></script>');
    // Shared rules first, so a page's own rule of the same weight wins.
    expect(html.indexOf(PUBLIC_LINK_PAGE_STYLES)).toBeGreaterThan(0);
    expect(html.indexOf('canvas { width: 100%; }')).toBeGreaterThan(html.indexOf(PUBLIC_LINK_PAGE_STYLES));
  });

  it('serves the page at each path, uncached and without a referrer, and its script', async () => {
    const app = express().use(createPublicLinkPageRouter({ basePath: '/sign/', title: 'Sign', styles: '', script: 'window.x = 1;', pagePaths: [':token', 'portal/:firm/:id'] }));
    for (const path of ['/sign/abc.def', '/sign/portal/acme/12']) {
      const page = await request(app).get(path);
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.headers['cache-control']).toBe('no-store');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      expect(page.text).toContain('<title>Sign</title>');
    }
    const script = await request(app).get('/sign/assets/page.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toContain('javascript');
    expect(script.text).toBe('window.x = 1;');
    expect((await request(app).get('/sign/portal/acme')).status).toBe(404);
  });
});
