import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';

/**
 * A stream of `pieces`, one piece per turn of the event loop. On a fast socket every write
 * completes at once, and a stream of a synchronous generator is then read to its end without the
 * server answering anyone else: a whole day's GPX export held every other rider for a second.
 */
export function pieceByTurn(pieces: Iterable<string>): Readable {
  return Readable.from(
    (async function* () {
      for (const piece of pieces) {
        yield piece;
        await setImmediate();
      }
    })(),
  );
}
