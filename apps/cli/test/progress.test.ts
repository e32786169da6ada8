import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { progress } from '../src/progress.ts';

const fake = (isTTY: boolean) => {
  let t = 0;
  const written: string[] = [];
  return {
    at: (ms: number) => void (t = ms),
    now: () => t,
    stream: { isTTY, write: (s: string) => written.push(s) },
    written,
  };
};

describe('progress of a long step', () => {
  it('shows nothing for a step that ends within its first second', () => {
    const f = fake(true);
    const p = progress('ingesting', 100, { unit: 'events', stream: f.stream, now: f.now });
    f.at(900);
    p.update(99);
    p.end();
    assert.deepEqual(f.written, []);
  });

  it('on a terminal: a bar redrawn in place, with the count, rate and time left, cleared at the end', () => {
    const f = fake(true);
    const p = progress('ingesting', 1000, { unit: 'events', stream: f.stream, now: f.now });
    f.at(2000);
    p.update(500);
    f.at(2050);
    p.update(600); // within 100 ms of the last drawing: not drawn
    f.at(4000);
    p.update(1000);
    p.end();
    assert.equal(f.written.length, 3);
    assert.equal(
      f.written[0],
      `\r\x1b[K   ingesting [${'#'.repeat(15)}${'.'.repeat(15)}]  50% 500/1,000 events, 250/s ETA 2 s`,
    );
    assert.match(f.written[1]!, /\[#{30}\] 100% 1,000\/1,000 events/);
    assert.equal(f.written[2], '\r\x1b[K');
  });

  it('elsewhere: a plain line every few seconds, and a size learnt later', () => {
    const f = fake(false);
    const p = progress('replaying', null, { unit: 'events', stream: f.stream, now: f.now });
    f.at(1500);
    p.update(10);
    f.at(3000);
    p.update(20); // less than 5 s after the last line
    f.at(7000);
    p.update(40, 80);
    p.end();
    assert.deepEqual(f.written, [
      '   replaying: 10 events, 2 s\n',
      '   replaying: 40/80 events (50%), 7 s\n',
    ]);
  });
});
