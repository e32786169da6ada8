import type { EventStore } from './port.ts';

/** The revision of a stream's last event (-1: none): the store's own `streamHead`, else one event read backwards. */
export async function streamHead(store: EventStore, stream: string): Promise<number> {
  if (store.streamHead) return store.streamHead(stream);
  for await (const e of store.readStream(stream, { direction: 'backwards', maxCount: 1 })) return e.revision;
  return -1;
}
