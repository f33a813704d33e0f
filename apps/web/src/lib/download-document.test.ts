import { afterEach, describe, expect, it, vi } from 'vitest';
import { downloadDocument } from './download-document';

const event = { documentTitle: 'Schedule', policyNumber: '123X4567890', elementTitle: 'policy documents' };

describe('downloadDocument (spec customer-data §3, §8, §9)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    delete window.dataLayer;
  });

  it('saves the bytes under the name the service gives, and tells analytics', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const name = await downloadDocument(
      '/api/v1/document/policy/C1/123X4567890/d1',
      (onHeaders) => {
        onHeaders(
          new Headers({ 'Content-Disposition': `attachment; filename*=UTF-8''Schedule%20123X4567890.pdf` }),
        );
        return Promise.resolve(new Uint8Array([37, 80, 68, 70]));
      },
      event,
    );
    expect(name).toBe('Schedule 123X4567890.pdf');
    expect(saved).toEqual(['Schedule 123X4567890.pdf']);
    expect(window.dataLayer).toEqual([
      expect.objectContaining({ event: 'documentDownload', fileName: 'Schedule 123X4567890.pdf', ...event }),
    ]);
  });

  it('falls back to nfum-file.pdf without a Content-Disposition name', async () => {
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    await expect(downloadDocument('/doc', () => Promise.resolve(new Uint8Array([1])), event)).resolves.toBe(
      'nfum-file.pdf',
    );
  });

  it('fails with the spec errors for a blank address and an empty body, telling analytics', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi.fn(() => Promise.resolve(new Uint8Array([1])));
    await expect(downloadDocument('', load, event)).rejects.toThrow('Blank document URL');
    expect(load).not.toHaveBeenCalled();
    await expect(downloadDocument('/doc', () => Promise.resolve(new Uint8Array()), event)).rejects.toThrow(
      'Document binary stream unavailable',
    );
    await expect(downloadDocument('/doc', () => Promise.reject(new Error('502')), event)).rejects.toThrow(
      'Document binary stream unavailable',
    );
    expect(window.dataLayer).toEqual([
      expect.objectContaining({
        event: 'documentDownloadFailed',
        errorMessage: 'Blank document URL',
        fileUrl: '',
        ...event,
      }),
      expect.objectContaining({
        event: 'documentDownloadFailed',
        errorMessage: 'Document binary stream unavailable',
      }),
      expect.objectContaining({
        event: 'documentDownloadFailed',
        errorMessage: 'Document binary stream unavailable',
      }),
    ]);
    expect(errors.mock.calls.map(([message]) => message)).toEqual([
      'Document download failed: Blank document URL',
      'Document download failed: Document binary stream unavailable',
      'Document download failed: Document binary stream unavailable',
    ]);
  });
});
