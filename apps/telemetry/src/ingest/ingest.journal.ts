import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';

/**
 * The ingest journal: an append-only file of the writes applied to SQLite's open transaction but not yet
 * committed. The SQLite writer keeps one transaction (a "unit") open for up to a second and commits it
 * once; every batch it applies is appended here and fdatasync'd before its callers are answered, so an
 * answer still means the write survives a crash. A small sequential append per batch replaces a commit per
 * batch, which wrote a 4 KiB WAL page for every index page a record touched (random keys touch a new
 * page each). After the unit commits, the journal starts again at its front.
 *
 * Frame: magic (4 bytes) | payload length (u32) | unit (f64) | first 8 bytes of SHA-256 over unit and
 * payload | payload (UTF-8 JSON). Little-endian. Reading stops at the first frame that is cut short or does
 * not match its checksum: that is a write the crash interrupted, whose callers were never answered.
 */
const MAGIC = 0x4a545653; // "SVTJ"
const HEADER = 24;

export interface JournalFrame {
  unit: number;
  payload: string;
}

/** Bytes written once when the journal is created, so that appends do not grow the file (see `open`). */
export const JOURNAL_RESERVE = 16 * 1024 * 1024;

export class IngestJournal {
  /** Where the next frame goes: after the frames written since the last reset. */
  private end = 0;

  private constructor(
    private readonly fd: number,
    readonly path: string,
  ) {}

  /**
   * Opens the journal, creating it filled with `reserve` zero bytes. An fdatasync of a write that grows a file
   * must also commit the file system's journal (the new size); one that overwrites reserved bytes only
   * flushes the data, which under load takes about half as long. The file is therefore never shrunk: `reset`
   * starts writing at the front again, and what lies beyond the last frame is zeros or frames of units that
   * already committed, which the writer skips by their unit number. Read `frames()` before the first `append`.
   */
  static open(path: string, reserve = JOURNAL_RESERVE): IngestJournal {
    // Not O_APPEND: Linux ignores the offset of positioned writes on such a file.
    const fd = openSync(path, constants.O_RDWR | constants.O_CREAT, 0o600);
    const size = fstatSync(fd).size;
    if (size < reserve) {
      const zeros = Buffer.alloc(Math.min(reserve - size, 1024 * 1024));
      for (let at = size; at < reserve; at += zeros.length)
        writeSync(fd, zeros, 0, Math.min(zeros.length, reserve - at), at);
      fdatasyncSync(fd);
    }
    return new IngestJournal(fd, path);
  }

  /**
   * The intact frames from the front of the file, in order: frames of the units that have not committed,
   * possibly followed by frames of units that have. Appends go after the last one.
   */
  frames(): JournalFrame[] {
    const size = fstatSync(this.fd).size;
    const all = Buffer.allocUnsafe(size);
    let read = 0;
    while (read < size) {
      const n = readSync(this.fd, all, read, size - read, read);
      if (n === 0) break;
      read += n;
    }
    const out: JournalFrame[] = [];
    let at = 0;
    while (at + HEADER <= read) {
      if (all.readUInt32LE(at) !== MAGIC) break;
      const length = all.readUInt32LE(at + 4);
      const unit = all.readDoubleLE(at + 8);
      if (at + HEADER + length > read) break;
      const payload = all.subarray(at + HEADER, at + HEADER + length);
      if (!checksum(unit, payload).equals(all.subarray(at + 16, at + 24))) break;
      out.push({ unit, payload: payload.toString('utf8') });
      at += HEADER + length;
    }
    // A torn or damaged frame, and everything after it, is overwritten by the next append.
    this.end = at;
    return out;
  }

  /** Appends one frame (to the OS: `sync` puts it on disk). */
  append(unit: number, payload: string): void {
    const body = Buffer.from(payload, 'utf8');
    const frame = Buffer.allocUnsafe(HEADER + body.length);
    frame.writeUInt32LE(MAGIC, 0);
    frame.writeUInt32LE(body.length, 4);
    frame.writeDoubleLE(unit, 8);
    checksum(unit, body).copy(frame, 16);
    body.copy(frame, HEADER);
    let done = 0;
    while (done < frame.length) done += writeSync(this.fd, frame, done, frame.length - done, this.end + done);
    this.end += frame.length;
  }

  /**
   * Flushes every frame appended so far to disk, off this thread (libuv's pool), so the writer applies the
   * next batches meanwhile. Keep the journal open until `done` runs.
   */
  sync(done: (err: Error | null) => void): void {
    fdatasync(this.fd, done);
  }

  /**
   * Starts again at the front once everything in the journal is committed to the database. The first frame's
   * marker is cleared, so a reader finds nothing (if this write is lost, it finds committed frames to skip).
   */
  reset(): void {
    if (this.end === 0) return;
    writeSync(this.fd, NO_FRAME, 0, NO_FRAME.length, 0);
    this.end = 0;
  }

  /** Bytes of frames written since the last reset. */
  get bytes(): number {
    return this.end;
  }

  close(): void {
    closeSync(this.fd);
  }
}

const NO_FRAME = Buffer.alloc(4);

function checksum(unit: number, payload: Buffer): Buffer {
  const u = Buffer.allocUnsafe(8);
  u.writeDoubleLE(unit, 0);
  return createHash('sha256').update(u).update(payload).digest().subarray(0, 8);
}

/**
 * Claims `path` (a lock file holding this process's id) for as long as one process writes the journal: a
 * second svc-telemetry on the same data directory would overwrite the first one's journal. A lock left by a
 * process that no longer runs (a crash, a kill) is taken over. Returns the function that releases it.
 */
export function lockJournal(path: string): () => void {
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return () => rmSync(path, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
    }
    const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
    if (Number.isInteger(holder) && holder !== process.pid && alive(holder))
      throw new Error(
        `Another svc-telemetry (pid ${holder}) is using this data directory (${path} exists). ` +
          'Only one may run on a data directory; stop it, or delete the file if that process is not svc-telemetry.',
      );
    // Stale: its process is gone. Remove it and try once more, so that of two starting at once only one wins.
    rmSync(path, { force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
