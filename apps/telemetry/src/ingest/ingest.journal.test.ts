import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IngestJournal, lockJournal } from './ingest.journal.js';

describe('ingest journal file', () => {
  let dir: string;
  let path: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'telemetry-journal-'));
    path = join(dir, 'telemetry.journal');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const sync = (j: IngestJournal) => new Promise<void>((done, fail) => j.sync((e) => (e ? fail(e) : done())));

  it('reads back every frame in order, with its unit, after reopening', async () => {
    const j = IngestJournal.open(path);
    expect(j.frames()).toEqual([]);
    j.append(1, '[{"a":1}]');
    j.append(1, '["ünïcode \\n ✓"]');
    j.append(2, '[]');
    await sync(j);
    j.close();
    const again = IngestJournal.open(path);
    expect(again.frames()).toEqual([
      { unit: 1, payload: '[{"a":1}]' },
      { unit: 1, payload: '["ünïcode \\n ✓"]' },
      { unit: 2, payload: '[]' },
    ]);
    again.close();
  });

  it('is created with its reserve of zero bytes, and appends do not grow it', () => {
    const j = IngestJournal.open(path, 64 * 1024);
    expect(statSync(path).size).toBe(64 * 1024);
    j.append(1, '"x"'.repeat(100));
    j.close();
    expect(statSync(path).size).toBe(64 * 1024);
  });

  it('drops a torn last frame, and the next frame replaces it', () => {
    const j = IngestJournal.open(path, 0);
    j.append(1, '"first"');
    j.append(1, '"second, cut short by a crash"');
    j.close();
    const size = statSync(path).size;
    writeFileSync(path, readFileSync(path).subarray(0, size - 5));

    const again = IngestJournal.open(path, 0);
    expect(again.frames()).toEqual([{ unit: 1, payload: '"first"' }]);
    again.append(2, '"third"');
    again.close();
    const last = IngestJournal.open(path, 0);
    expect(last.frames()).toEqual([
      { unit: 1, payload: '"first"' },
      { unit: 2, payload: '"third"' },
    ]);
    last.close();
  });

  it('stops at a frame whose bytes do not match its checksum', () => {
    const j = IngestJournal.open(path);
    j.append(1, '"good"');
    j.append(1, '"flipped"');
    j.append(1, '"after the damage"');
    j.close();
    const bytes = readFileSync(path);
    const at = bytes.indexOf('flipped');
    bytes[at] = 'F'.charCodeAt(0);
    writeFileSync(path, bytes);
    const again = IngestJournal.open(path);
    expect(again.frames()).toEqual([{ unit: 1, payload: '"good"' }]);
    again.close();
  });

  it('ignores bytes that are not a frame at all', () => {
    writeFileSync(path, 'not a journal');
    const j = IngestJournal.open(path);
    expect(j.frames()).toEqual([]);
    expect(j.bytes).toBe(0);
    j.close();
  });

  it('after a reset it reads as empty, and new frames start at the front', async () => {
    const j = IngestJournal.open(path);
    j.append(1, '"x"');
    await sync(j);
    j.reset();
    j.close();
    let again = IngestJournal.open(path);
    expect(again.frames()).toEqual([]);
    again.append(2, '"y"');
    again.close();
    again = IngestJournal.open(path);
    expect(again.frames()).toEqual([{ unit: 2, payload: '"y"' }]);
    again.close();
  });

  it('frames of a committed unit may follow the new ones after a reset; they keep their unit number', () => {
    const j = IngestJournal.open(path);
    j.append(1, '"aaaa"');
    j.append(1, '"bbbb"');
    j.reset();
    j.append(2, '"cccc"');
    j.close();
    const again = IngestJournal.open(path);
    // The writer skips unit 1: it committed before the reset (see JournalWriter.recover).
    expect(again.frames()).toEqual([
      { unit: 2, payload: '"cccc"' },
      { unit: 1, payload: '"bbbb"' },
    ]);
    again.close();
  });

  describe('lock', () => {
    const lock = () => join(dir, 'telemetry.lock');

    it('holds this process id until released', () => {
      const release = lockJournal(lock());
      expect(readFileSync(lock(), 'utf8').trim()).toBe(String(process.pid));
      release();
      expect(existsSync(lock())).toBe(false);
    });

    it('refuses while another live process holds it', () => {
      writeFileSync(lock(), `${process.ppid}\n`);
      expect(() => lockJournal(lock())).toThrow(
        `Another svc-telemetry (pid ${process.ppid}) is using this data directory`,
      );
      expect(readFileSync(lock(), 'utf8').trim()).toBe(String(process.ppid));
    });

    it('takes over a lock whose process is gone, or that holds no process id', () => {
      const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
      writeFileSync(lock(), `${gone}\n`);
      lockJournal(lock())();
      writeFileSync(lock(), 'garbage');
      const release = lockJournal(lock());
      expect(readFileSync(lock(), 'utf8').trim()).toBe(String(process.pid));
      release();
    });
  });
});
