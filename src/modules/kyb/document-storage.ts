import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where KYB documents live between acceptance and deletion after the provider has them. */
export interface DocumentStorage {
  /** Stores the bytes durably under `key` and returns their SHA-256 (hex). */
  put(key: string, content: Buffer): Promise<string>;
  get(key: string): Promise<Buffer>;
  /** Idempotent. */
  delete(key: string): Promise<void>;
}

export const DOCUMENT_STORAGE = Symbol('DOCUMENT_STORAGE');

/**
 * A local object-store directory. Documents stay out of PostgreSQL: a 50 MB application would
 * otherwise travel through the pg driver as hex text (twice its size) and bloat WAL, backups and
 * replicas. Writes go to a temporary name and are renamed, so a crash never leaves a partial
 * document under a real key. For several hosts, an S3-compatible implementation of the same
 * interface takes its place.
 */
export class LocalDirectoryStorage implements DocumentStorage {
  private ready?: Promise<unknown>;

  constructor(private readonly directory: string) {}

  async put(key: string, content: Buffer): Promise<string> {
    this.ready ??= mkdir(this.directory, { recursive: true });
    await this.ready;
    const temporary = join(this.directory, `.${key}.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temporary, content, { flush: true });
    await rename(temporary, this.path(key));
    return createHash('sha256').update(content).digest('hex');
  }

  async get(key: string): Promise<Buffer> {
    return readFile(this.path(key));
  }

  async delete(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }

  private path(key: string): string {
    if (!/^[a-z]+_[0-9a-f]{24}$/.test(key)) throw new Error('invalid storage key');
    return join(this.directory, key);
  }
}
