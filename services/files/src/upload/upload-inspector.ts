import { Transform, type TransformCallback } from 'node:stream';
import { Invalid, TooLarge, UnsupportedMedia } from '@ledgerline/kit/errors.ts';
import { contentMatchesExtension, SIGNATURE_BYTES } from './content-signature.ts';
import { UPLOAD_ERRORS } from './upload-messages.ts';

/**
 * The stream every uploaded file passes through on its way to storage: it holds back
 * only the first 4 KiB until the content is judged against the extension (415 for a
 * disguised file), counts bytes and fails past the size limit (413), and refuses an
 * empty file. It fails before the destination completes, so a bad file is never stored.
 */
export class UploadInspector extends Transform {
  bytes = 0;
  readonly #fileName: string;
  readonly #extension: string;
  readonly #maxBytes: number;
  #head: Buffer[] = [];
  #headBytes = 0;
  #judged = false;

  constructor(options: { fileName: string; extension: string; maxBytes: number }) {
    super();
    this.#fileName = options.fileName;
    this.#extension = options.extension;
    this.#maxBytes = options.maxBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.#maxBytes) return done(new TooLarge(UPLOAD_ERRORS.tooLarge(this.#maxBytes)));
    if (this.#judged) return done(null, chunk);
    this.#head.push(chunk);
    this.#headBytes += chunk.length;
    if (this.#headBytes < SIGNATURE_BYTES) return done();
    done(this.#judge());
  }

  override _flush(done: TransformCallback): void {
    if (this.bytes === 0) return done(new Invalid(UPLOAD_ERRORS.empty(this.#fileName)));
    done(this.#judged ? null : this.#judge());
  }

  #judge(): Error | null {
    const head = Buffer.concat(this.#head);
    this.#head = [];
    this.#judged = true;
    if (!contentMatchesExtension(this.#extension, head.subarray(0, SIGNATURE_BYTES))) {
      return new UnsupportedMedia(UPLOAD_ERRORS.disguised(this.#fileName, this.#extension));
    }
    this.push(head);
    return null;
  }
}
