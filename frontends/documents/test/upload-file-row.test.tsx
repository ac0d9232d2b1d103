import { describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { UploadFileRow } from '../src/upload-dialog.tsx';

const file = new File(['x'.repeat(2048)], 'Return.pdf');

describe('an upload row', () => {
  it('shows a refused upload as failed, never as a finished 100 %', () => {
    const html = renderToStaticMarkup(<UploadFileRow entry={{ key: 'k', file, progress: 100, status: 'failed', error: 'File too large' }} onRemove={undefined} />);
    expect(html).toContain('upload-file--failed');
    expect(html).toContain('pi-times-circle');
    expect(html).toContain('>Failed<');
    expect(html).not.toContain('>100%<');
    expect(html).toContain('File too large');
  });

  it('shows progress while sending and a tick when done', () => {
    expect(renderToStaticMarkup(<UploadFileRow entry={{ key: 'k', file, progress: 40, status: 'uploading' }} onRemove={undefined} />)).toContain('40%');
    expect(renderToStaticMarkup(<UploadFileRow entry={{ key: 'k', file, progress: 100, status: 'done' }} onRemove={undefined} />)).toContain('pi-check-circle');
  });
});
