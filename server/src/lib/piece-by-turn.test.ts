import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { countTurns } from '#test/event-loop-turns.ts';
import { pieceByTurn } from './piece-by-turn.ts';

/** How many other turns come while `stream` is read to its end, and what it gave. */
async function turnsWhileRead(stream: Readable): Promise<{ turns: number; text: string }> {
  const counter = countTurns();
  let text = '';
  for await (const piece of stream) text += String(piece);
  counter.stop();
  return { turns: counter.turns, text };
}

describe('pieceByTurn', () => {
  const pieces = Array.from({ length: 50 }, (_, i) => `line ${i}\n`);

  it('gives the pieces in order, and others a turn between two of them', async () => {
    const { turns, text } = await turnsWhileRead(pieceByTurn(pieces));
    expect(text).toBe(pieces.join(''));
    expect(turns).toBeGreaterThanOrEqual(pieces.length - 1);
  });

  it('is needed: a stream of a synchronous generator is read through with no other turn', async () => {
    const { turns, text } = await turnsWhileRead(Readable.from(pieces.values()));
    expect(text).toBe(pieces.join(''));
    expect(turns).toBeLessThan(pieces.length / 2);
  });
});
