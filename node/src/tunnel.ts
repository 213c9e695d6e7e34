// The data path of an authorized tunnel (HTTP CONNECT and SOCKS5 CONNECT): the outgoing connection bound to the exit
// address and the bytes moved both ways. Decisions are made before a tunnel is opened (proxy.ts); this file only moves
// bytes, with as little work per byte as Node allows (decision 141):
// - target -> client (the heavy direction of a download) reads with `onread` into a buffer owned by the tunnel and
//   writes that very memory to the client: no stream layer, no allocation and no copy per read. While a write to the
//   client is pending the buffer is still in use, so reading from the target stops until that write completes (this
//   is also the backpressure: a slow client slows the target, nothing piles up in the node). The buffer adapts
//   between MIN_READ and MAX_READ (see nextBuffer) within a node-wide budget (setReadBudget); buffers are reused
//   through a small pool;
// - client -> target is an ordinary pipe (a server-side socket cannot be given a read buffer).
// Byte counting stays on the client socket's own counters (proxy.ts settle): nothing here looks at a chunk.
import net from 'node:net';

export const MIN_READ = 64 * 1024;
export const MAX_READ = 1024 * 1024;

/** Bytes of read buffers held beyond MIN_READ by open tunnels, and the most the node may hold. */
let grown = 0;
let budget = 256 * 1024 * 1024;

/** Caps the memory all tunnels may hold in read buffers larger than MIN_READ (config `tunnelBufferMiB`). */
export function setReadBudget(bytes: number): void {
  budget = bytes;
}

/** Memory currently held by read buffers larger than MIN_READ (for tests). */
export const grownReadBytes = (): number => grown;

// Free read buffers by size (64 KiB, 128 KiB, ... 1 MiB), so a tunnel does not allocate (and fault in) fresh memory
// each time its buffer changes size: a buffer goes back here only when no write to a client still refers to it.
const POOL_KEEP = 16;
const pool = new Map<number, Buffer[]>();
for (let size = MIN_READ; size <= MAX_READ; size *= 2) pool.set(size, []);
const take = (size: number): Buffer => pool.get(size)?.pop() ?? Buffer.allocUnsafe(size);
const give = (b: Buffer): void => {
  const free = pool.get(b.length);
  if (free && free.length < POOL_KEEP) free.push(b);
};

export type TunnelTarget = { host: string; port: number; localAddress?: string };

export type TunnelEvents = {
  /** The target accepted the connection: answer the client (200 / REQUEST_GRANTED) here, synchronously. */
  open(): void;
  /** The target could not be reached; the tunnel never opened. */
  fail(err: NodeJS.ErrnoException): void;
};

/**
 * Connects to the target (bound to `localAddress`) and, once connected, relays bytes between it and the client until
 * either side ends. `head` is what the client sent after its request, before the tunnel existed. Returns the target
 * socket.
 */
export function openTunnel(
  client: net.Socket,
  target: TunnelTarget,
  head: Buffer | null,
  events: TunnelEvents,
): net.Socket {
  let open = false;
  let buf = take(MIN_READ);
  /** The last read filled buf / its write to the client did not complete at once. */
  let filled = false;
  let backedUp = false;
  /** A buffer replaced while a write still referred to it: pooled once that write completes. */
  let retired: Buffer | null = null;
  // Writes to the client complete in order: while completed < issued, the last one may still refer to buf.
  let issued = 0;
  let completed = 0;
  let waiting = false;
  const written = () => {
    completed++;
    if (completed !== issued) return;
    if (retired) {
      give(retired);
      retired = null;
    }
    if (waiting) {
      waiting = false;
      if (!upstream.destroyed) upstream.resume();
    }
  };
  // Called by Node after every read: the memory the next read goes into. A read that fills the buffer and is taken
  // by the client at once doubles it (fewer reads and wake-ups per megabyte: short transfers finish in a few
  // rounds); a write the client cannot take at once drops it back to MIN_READ (a slow or busy client then gets small
  // writes that keep both sides moving, instead of stalls behind one large pending write). Measured in
  // bench/proxy-node.mjs against fixed 64 KiB and fixed 1 MiB reads (decision 141).
  const nextBuffer = (): Buffer => {
    let size = buf.length;
    if (backedUp) size = MIN_READ;
    else if (filled && size < MAX_READ && grown + size <= budget) size *= 2;
    backedUp = false;
    filled = false;
    if (size !== buf.length) {
      grown += size - buf.length;
      const old = buf;
      buf = take(size);
      if (completed === issued) give(old);
      else retired = old;
    }
    return buf;
  };
  const upstream: net.Socket = net.connect({
    host: target.host,
    port: target.port,
    localAddress: target.localAddress,
    noDelay: true,
    onread: {
      buffer: nextBuffer,
      callback: (n: number, chunk: Uint8Array): boolean => {
        if (!client.writable) {
          upstream.destroy(); // the client is gone: nobody to deliver to
          return false;
        }
        filled = n === chunk.length;
        issued++;
        client.write((chunk as Buffer).subarray(0, n), written);
        // Fully handed to the kernel: buf is free at once.
        if (client.writableLength === 0) return true;
        backedUp = true;
        waiting = true;
        return false; // resumed by `written` once every write has completed
      },
    },
  });
  upstream.on('connect', () => {
    open = true;
    events.open();
    if (head && head.length > 0) upstream.write(head);
    client.pipe(upstream);
  });
  upstream.on('end', () => {
    if (client.writable) client.end();
  });
  upstream.on('close', () => {
    grown -= buf.length - MIN_READ;
    if (completed === issued) give(buf); // else a write still refers to it: left to the GC
    if (!open) return; // fail() answered the client
    // Nothing will consume what the client still sends: let it flow so the close completes.
    client.resume();
    if (client.writable) client.end();
  });
  upstream.on('error', (err: NodeJS.ErrnoException) => {
    if (open) client.destroy();
    else events.fail(err);
  });
  client.on('error', () => upstream.destroy());
  client.on('close', () => upstream.destroy());
  return upstream;
}
