import { PassThrough, Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parser as jsonTokenizer } from 'stream-json';
import { stringer as jsonStringer } from 'stream-json/Stringer';
import { AppError } from '../../common/errors/app-error';
import { MAX_APPLICATION_JSON_CHARS, MAX_DOCUMENT_BYTES, MAX_TOTAL_DOCUMENT_BYTES } from './kyb.constants';
import { ApplicationTooLargeError, BodyTooLargeError } from './kyb.errors';

/** A document of the application as it arrived: decoded, or the reason it cannot be used. */
export interface ReceivedDocument {
  /** False when the value is not standard, padded base64 (a data: URL prefix is allowed). */
  valid: boolean;
  /** Decoded size in bytes (of the valid part read so far when `valid` is false). */
  sizeBytes: number;
  /**
   * The decoded bytes; null when invalid, or when keeping them would pass the per-document or
   * total limit: such an application is refused anyway, so memory stays bounded by the limits.
   */
  content: Buffer | null;
}

/** Documents by their place in the application, e.g. `company_files[0].files[1]`. */
export type ReceivedDocuments = Map<string, ReceivedDocument>;

/** What stands in the application JSON where each document's base64 was. */
export const DOCUMENT_PLACEHOLDER = '<document>';

export interface ExtractedApplication {
  /** The application JSON with every document replaced by DOCUMENT_PLACEHOLDER: a few kilobytes. */
  json: string;
  documents: ReceivedDocuments;
  /** Bytes read from the request body. */
  receivedBytes: number;
}

/**
 * Reads a KYB application body as a stream of JSON tokens and decodes each document's base64 as
 * it arrives, so that neither the raw body nor the base64 strings are ever held whole: peak
 * memory is the decoded documents plus a few chunks, instead of the body text, its parsed copy
 * and the decoded bytes at once. The JSON that remains is then parsed, validated and checked like
 * any other body (the prototype-poisoning guard included).
 *
 * Throws `invalid_json` for malformed JSON and `payload_too_large` past `bodyLimit` bytes (a body
 * sent without Content-Length is only counted as it arrives). The request itself is never
 * destroyed, so the error can still be answered: the rest of a refused body is read and dropped,
 * and the answer closes the connection.
 */
export async function extractDocuments(body: Readable, bodyLimit: number): Promise<ExtractedApplication> {
  let receivedBytes = 0;
  let malformed = false;
  const walker = new DocumentWalker();
  const input = new PassThrough();
  const tokens = jsonTokenizer({ packKeys: true, streamKeys: false, packNumbers: true, streamNumbers: false, packStrings: false, streamStrings: true });
  tokens.once('error', () => (malformed = true));
  let json = '';
  // The pipeline reports the premature close its own teardown causes, not the sink's error.
  let tooLarge: ApplicationTooLargeError | undefined;
  const parsed = pipeline(
    input,
    tokens,
    new Transform({
      objectMode: true,
      transform(token: Token, _encoding, callback) {
        walker.accept(token, (out) => this.push(out));
        callback();
      },
    }),
    // Pieces as strings: as bytes, a string split into pieces at an escape (`"\ud83d\ude00"`
    // arrives as two) would be encoded half a surrogate pair at a time, i.e. as two U+FFFD.
    jsonStringer({ useKeyValues: true, useNumberValues: true, encoding: 'utf8' }),
    async (pieces: AsyncIterable<Buffer | string>) => {
      for await (const piece of pieces) {
        json += piece.toString();
        // Only documents may be large; any other string would otherwise be held whole.
        if (json.length > MAX_APPLICATION_JSON_CHARS) throw (tooLarge = new ApplicationTooLargeError());
      }
    },
  );

  const onData = (chunk: Buffer) => {
    receivedBytes += chunk.length;
    if (receivedBytes > bodyLimit) {
      input.destroy(new BodyTooLargeError());
    } else if (!input.write(chunk)) {
      body.pause();
      input.once('drain', () => body.resume());
    }
  };
  const onEnd = () => input.end();
  let bodyFailed = false;
  const onError = (err: Error) => {
    bodyFailed = true;
    input.destroy(err);
  };
  body.on('data', onData).once('end', onEnd).once('error', onError);
  try {
    await parsed;
  } catch (err) {
    body.off('data', onData).off('end', onEnd).off('error', onError);
    const unread = !body.readableEnded && !body.destroyed;
    if (unread) body.resume(); // drop the rest; the answer closes the connection
    if (tooLarge) throw tooLarge;
    // The tokenizer also reports the errors it is destroyed with: a body past the limit, a client gone.
    if (malformed && !bodyFailed && !(err instanceof AppError)) {
      throw new AppError('invalid_json', 'Request body is not valid JSON', [], unread ? { Connection: 'close' } : {});
    }
    throw err;
  }
  return { json: escapeLoneSurrogates(json), documents: walker.documents, receivedBytes };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The remaining JSON goes on as UTF-8, where a lone surrogate (sent as an escape such as
 * `\ud800`) would silently become U+FFFD. Written back as the escape it came as, it reaches the
 * JSON parser as sent, to be refused there like in any other body. Outside strings JSON text has
 * no surrogates, so this never changes anything but string contents.
 */
function escapeLoneSurrogates(json: string): string {
  if ((json as string & { isWellFormed(): boolean }).isWellFormed()) return json;
  return json.replace(LONE_SURROGATE, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

interface Token {
  name: string;
  value?: string;
}

type Frame = { array: true; index: number } | { array: false; key: string | null };

/**
 * Follows the token stream's position in the document tree and diverts the strings that sit where
 * the application carries files: `company_files[i].files[j]` and
 * `associated_persons[i].identity_files[j].file`. Everything else passes through unchanged.
 */
class DocumentWalker {
  readonly documents: ReceivedDocuments = new Map();
  private readonly frames: Frame[] = [];
  private reading: { path: string; decoder: Base64Decoder } | null = null;
  private keptBytes = 0;

  accept(token: Token, emit: (token: Token) => void): void {
    if (this.reading) {
      if (token.name === 'stringChunk') return this.reading.decoder.write(token.value!);
      // endString: the only other token inside a string
      const document = this.reading.decoder.end();
      this.keptBytes += document.content?.length ?? 0;
      this.documents.set(this.reading.path, document);
      this.reading = null;
      emit({ name: 'startString' });
      emit({ name: 'stringChunk', value: DOCUMENT_PLACEHOLDER });
      emit({ name: 'endString' });
      this.valueDone();
      return;
    }
    switch (token.name) {
      case 'startObject':
        this.frames.push({ array: false, key: null });
        break;
      case 'startArray':
        this.frames.push({ array: true, index: 0 });
        break;
      case 'keyValue':
        (this.frames[this.frames.length - 1] as { key: string | null }).key = token.value!;
        break;
      case 'startString':
        if (this.atDocument()) {
          this.reading = { path: this.path(), decoder: new Base64Decoder(MAX_TOTAL_DOCUMENT_BYTES - this.keptBytes) };
          return;
        }
        break;
      case 'endObject':
      case 'endArray':
        this.frames.pop();
        this.valueDone();
        break;
      case 'endString':
      case 'numberValue':
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        this.valueDone();
        break;
    }
    emit(token);
  }

  private valueDone(): void {
    const top = this.frames[this.frames.length - 1];
    if (top?.array) top.index++;
  }

  private atDocument(): boolean {
    const f = this.frames;
    const key = (i: number) => (f[i].array ? undefined : (f[i] as { key: string | null }).key);
    if (f.length === 4) return key(0) === 'company_files' && f[1].array && key(2) === 'files' && f[3].array;
    if (f.length === 5) return key(0) === 'associated_persons' && f[1].array && key(2) === 'identity_files' && f[3].array && key(4) === 'file';
    return false;
  }

  private path(): string {
    return this.frames.map((f, i) => (f.array ? `[${f.index}]` : i === 0 ? f.key : `.${f.key}`)).join('');
  }
}

const DATA_URL_PREFIX = /^data:[\w.+-]+\/[\w.+-]+;base64,/;
/** Long enough to hold any data: URL prefix before deciding where the base64 starts. */
const HEAD_LENGTH = 128;
const BASE64_QUANTA = /^[A-Za-z0-9+/]*$/;
const LAST_QUANTUM = /^(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2}==)?$/;
/** Base64 characters decoded per Buffer: few allocations, little held back. */
const DECODE_BATCH = 64 * 1024;

/**
 * Decodes one base64 string given in arbitrary pieces, checking it as strictly as a whole-string
 * check would: only the base64 alphabet, length a multiple of 4, padding only at the very end.
 * The last quantum is always held back until `end()`, since only it may carry padding.
 */
class Base64Decoder {
  private head: string | null = '';
  private pending = '';
  private batch = '';
  private readonly parts: Buffer[] = [];
  private valid = true;
  private sizeBytes = 0;
  private keep = true;

  /** @param budget decoded bytes that may still be kept before the total limit is passed */
  constructor(private readonly budget: number) {}

  write(piece: string): void {
    if (this.head === null) return this.feed(piece);
    this.head += piece;
    if (this.head.length >= HEAD_LENGTH) this.feed(this.stripHead());
  }

  end(): ReceivedDocument {
    if (this.head !== null) this.feed(this.stripHead());
    if (this.valid) {
      // At most 7 characters are left: one held-back quantum and an incomplete one, if any.
      if (!LAST_QUANTUM.test(this.pending)) this.valid = false;
      else if (this.pending.length > 0) this.quanta(this.pending.replace(/=+$/, ''), true);
    }
    this.flush();
    const content = this.valid && this.keep ? Buffer.concat(this.parts) : null;
    this.parts.length = 0;
    return { valid: this.valid, sizeBytes: this.sizeBytes, content };
  }

  private feed(piece: string): void {
    if (!this.valid) return;
    this.pending += piece;
    const usable = this.pending.length - (this.pending.length % 4) - 4;
    if (usable <= 0) return;
    this.quanta(this.pending.slice(0, usable));
    this.pending = this.pending.slice(usable);
  }

  private stripHead(): string {
    const head = this.head!;
    this.head = null;
    return head.replace(DATA_URL_PREFIX, '');
  }

  /** Whole quanta, or the final (possibly shortened, unpadded) one when `last`. */
  private quanta(chars: string, last = false): void {
    if (!last && !BASE64_QUANTA.test(chars)) {
      this.valid = false;
      return;
    }
    this.sizeBytes += last ? Math.floor((chars.length * 3) / 4) : (chars.length / 4) * 3;
    if (this.keep && (this.sizeBytes > MAX_DOCUMENT_BYTES || this.sizeBytes > this.budget)) {
      this.keep = false;
      this.parts.length = 0;
      this.batch = '';
    }
    if (!this.keep) return;
    this.batch += chars;
    if (this.batch.length >= DECODE_BATCH || last) this.flush();
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    if (this.valid) this.parts.push(Buffer.from(this.batch, 'base64'));
    this.batch = '';
  }
}
