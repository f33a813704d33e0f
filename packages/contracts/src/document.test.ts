import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DOWNLOAD_FILENAME,
  billingDocumentPage,
  contentDispositionFor,
  documentTitle,
  fileNameFromContentDisposition,
  getQuoteDocumentPdfCall,
  listBillingDocumentsCall,
  pdfFileName,
  policyDocumentPage,
} from './document';

describe('document lists', () => {
  it('accepts a billing page grouped by account', () => {
    const page = {
      currentPage: 1,
      lastPage: 2,
      pageSize: 5,
      totalRecords: 7,
      data: [
        {
          accountNumber: 'BA-100234',
          documentSummaries: [
            { id: 'bill-2026-03', name: 'Instalment schedule', date: '2026-03-01' },
            { id: 'bill-2026-02', name: 'Payment reminder', date: '2026-02-10' },
          ],
        },
      ],
    };
    expect(billingDocumentPage.safeParse(page).success).toBe(true);
    expect(
      billingDocumentPage.safeParse({ ...page, data: [{ accountNumber: '', documentSummaries: [] }] })
        .success,
    ).toBe(false);
  });

  it('accepts policy document packs', () => {
    expect(
      policyDocumentPage.safeParse({
        currentPage: 1,
        lastPage: 1,
        pageSize: 10,
        totalRecords: 1,
        data: [
          {
            title: 'Renewal documents',
            createDate: '2026-02-01T09:00:00Z',
            documentSummaries: [{ id: 'sched-1', name: 'Policy schedule', date: '2026-02-01' }],
          },
        ],
      }).success,
    ).toBe(true);
  });

  it('bounds page and page size on the list calls', () => {
    const query = listBillingDocumentsCall.query!;
    expect(query.parse({ page: '2', pageSize: '5' })).toEqual({ page: 2, pageSize: 5 });
    expect(query.safeParse({ pageSize: '500' }).success).toBe(false);
    expect(query.safeParse({ page: '0' }).success).toBe(false);
  });
});

describe('PDF calls', () => {
  it('produce application/pdf and check every path value', () => {
    expect(getQuoteDocumentPdfCall.produces).toBe('application/pdf');
    const params = getQuoteDocumentPdfCall.params!;
    const good = { customerId: 'C1000001', policyId: '305Q11223344', docId: 'QD-1', title: 'Your quote' };
    expect(params.safeParse(good).success).toBe(true);
    expect(params.safeParse({ ...good, title: 'a/b' }).success).toBe(false);
    expect(params.safeParse({ ...good, title: 'a\\b' }).success).toBe(false);
    expect(params.safeParse({ ...good, title: 'a\u0000b' }).success).toBe(false);
    expect(params.safeParse({ ...good, docId: '..' }).success).toBe(false);
    expect(documentTitle.safeParse('Quote (home) – 2026').success).toBe(true);
  });
});

describe('download names', () => {
  it('makes a safe PDF name from a title', () => {
    expect(pdfFileName('Policy schedule')).toBe('Policy schedule.pdf');
    expect(pdfFileName('Schedule.PDF')).toBe('Schedule.PDF');
    expect(pdfFileName('Café "quote"/2026')).toBe('Cafe-quote-2026.pdf');
    expect(pdfFileName('..')).toBe(DEFAULT_DOWNLOAD_FILENAME);
    expect(pdfFileName('')).toBe('nfum-file.pdf');
  });

  it('reads the name back from Content-Disposition, falling back to nfum-file.pdf', () => {
    expect(fileNameFromContentDisposition(contentDispositionFor('Renewal pack'))).toBe('Renewal pack.pdf');
    expect(fileNameFromContentDisposition('attachment; filename="schedule.pdf"')).toBe('schedule.pdf');
    expect(fileNameFromContentDisposition('attachment; filename=plain.pdf')).toBe('plain.pdf');
    expect(fileNameFromContentDisposition("attachment; filename*=UTF-8''Caf%C3%A9.pdf")).toBe('Cafe.pdf');
    expect(fileNameFromContentDisposition('attachment; filename="../../etc/passwd"')).toBe('etc-passwd.pdf');
    expect(fileNameFromContentDisposition('attachment')).toBe('nfum-file.pdf');
    expect(fileNameFromContentDisposition(null)).toBe('nfum-file.pdf');
  });
});
