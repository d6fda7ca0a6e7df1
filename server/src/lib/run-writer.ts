import type { FileHandle } from 'node:fs/promises';

/**
 * Writes the pieces of a body to a file in runs of about 1 MB, each run while the next pieces are
 * handled: a socket brings 64 kB pieces, and waiting for each one's write left the thread idle
 * between them.
 */
export class RunWriter {
  private run: Uint8Array[] = [];
  private runBytes = 0;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly out: FileHandle,
    private readonly runBytesMax = 1 << 20,
  ) {}

  /**
   * Takes the piece (kept as it is until written: the caller must not change it). With a run of 0
   * bytes, each piece is written on its own and this returns once the piece before it is written.
   */
  async write(piece: Uint8Array): Promise<void> {
    this.run.push(piece);
    this.runBytes += piece.length;
    if (this.runBytes >= this.runBytesMax) await this.flush();
  }

  /** Every piece written. */
  async end(): Promise<void> {
    await this.flush();
    await this.writing;
  }

  /** Waits for the write under way, whatever its outcome (before closing the file after a failure). */
  settled(): Promise<unknown> {
    return this.writing.catch(() => undefined);
  }

  private async flush(): Promise<void> {
    await this.writing;
    if (!this.run.length) return;
    this.writing = this.out.writev(this.run);
    this.run = [];
    this.runBytes = 0;
  }
}
