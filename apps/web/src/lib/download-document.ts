import { DEFAULT_DOWNLOAD_FILENAME, fileNameFromContentDisposition } from '@portal/contracts/document';
import { pushToDataLayer } from './analytics/data-layer';

/** The spec's download errors (customer-data §8). */
const BLANK_DOCUMENT_URL = 'Blank document URL';
const BINARY_STREAM_UNAVAILABLE = 'Document binary stream unavailable';

class DocumentDownloadError extends Error {
  override name = 'DocumentDownloadError';
}

/** What the analytics data layer is told about a document (spec §3 "Document event"). */
export interface DocumentEvent {
  documentTitle: string;
  policyNumber: string;
  fileName: string;
  elementTitle: string;
  fileUrl: string;
}

/**
 * Saves a document the customer asked for: `load` fetches its bytes and headers (through the API client,
 * with the customer's token), then the browser saves it under the name the service gave. Works on phones:
 * an object URL on a temporary link, released straight after. A failure pushes a failed-download event and
 * rejects, so the screen can show its file error beside the document; the event and the error log carry the
 * spec's specific error ("Blank document URL", "Document binary stream unavailable").
 */
export async function downloadDocument(
  fileUrl: string,
  load: (onHeaders: (headers: Headers) => void) => Promise<Uint8Array | Blob>,
  event: Omit<DocumentEvent, 'fileName' | 'fileUrl'>,
): Promise<string> {
  let fileName = DEFAULT_DOWNLOAD_FILENAME;
  try {
    if (!fileUrl) throw new DocumentDownloadError(BLANK_DOCUMENT_URL);
    const bytes = await load((headers) => {
      fileName = fileNameFromContentDisposition(headers.get('Content-Disposition'));
    });
    const blob = bytes instanceof Blob ? bytes : new Blob([bytes as BlobPart], { type: 'application/pdf' });
    if (blob.size === 0) throw new DocumentDownloadError(BINARY_STREAM_UNAVAILABLE);
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    pushToDataLayer({ event: 'documentDownload', ...event, fileName, fileUrl });
    return fileName;
  } catch (error) {
    // The spec's specific error is what is logged and sent; the screen shows content's fileError.
    const failure =
      error instanceof DocumentDownloadError
        ? error
        : new DocumentDownloadError(BINARY_STREAM_UNAVAILABLE, { cause: error });
    console.error(`Document download failed: ${failure.message}`);
    pushToDataLayer({
      event: 'documentDownloadFailed',
      ...event,
      fileName,
      fileUrl,
      errorMessage: failure.message,
    });
    throw failure;
  }
}
