// The data path of an authorized tunnel (HTTP CONNECT and SOCKS5 CONNECT): the outgoing connection bound to the exit
// address and the bytes moved both ways. Decisions are made before a tunnel is opened (proxy.ts); this file only moves
// bytes, with as little work per byte as Node allows (decisions 141 and 195). Both directions are a Relay:
// - each read of the source socket lands in a buffer owned by the relay and that very memory is written to the other
//   socket: no stream layer, no allocation and no copy per read. While a write is pending the buffer is still in use,
//   so reading from the source stops until that write completes (this is also the backpressure: a slow reader slows
//   the writer, nothing piles up in the node). The buffer adapts between MIN_READ and MAX_READ (see nextBuffer)
//   within a node-wide budget (setReadBudget); buffers are reused through a small pool;
// - target -> client: the target socket is created with Node's `onread` option;
// - client -> target: the client socket was accepted by a server, and Node offers no `onread` option for those, so
//   the same reading is switched on once the tunnel opens through the socket's own hooks for `onread` (readByRelay;
//   decision 195). Where those hooks are missing (another Node version), the upload falls back to a stream pipe.
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
// each time its buffer changes size: a buffer goes back here only when no write still refers to it.
const POOL_KEEP = 16;
const pool = new Map<number, Buffer[]>();
for (let size = MIN_READ; size <= MAX_READ; size *= 2) pool.set(size, []);
const take = (size: number): Buffer => pool.get(size)?.pop() ?? Buffer.allocUnsafe(size);
const give = (b: Buffer): void => {
  const free = pool.get(b.length);
  if (free && free.length < POOL_KEEP) free.push(b);
};

/**
 * One direction of a tunnel: reads of `source` (delivered through nextBuffer/onRead, Node's `onread` contract) are
 * written to `sink` from the relay's own buffer.
 */
class Relay {
  source: net.Socket | null = null;
  private sink: net.Socket;
  private buf = take(MIN_READ);
  /** The last read filled buf / its write did not complete at once. */
  private filled = false;
  private backedUp = false;
  /** A buffer replaced while a write still referred to it: pooled once that write completes. */
  private retired: Buffer | null = null;
  // Writes complete in order: while completed < issued, the last one may still refer to buf.
  private issued = 0;
  private completed = 0;
  private waiting = false;
  /** What a read does when the sink can no longer take it. */
  private onSinkGone: 'destroy-source' | 'discard';

  constructor(sink: net.Socket, onSinkGone: 'destroy-source' | 'discard') {
    this.sink = sink;
    this.onSinkGone = onSinkGone;
  }

  private written = (): void => {
    this.completed++;
    if (this.completed !== this.issued) return;
    if (this.retired) {
      give(this.retired);
      this.retired = null;
    }
    if (this.waiting) {
      this.waiting = false;
      if (this.source && !this.source.destroyed) this.source.resume();
    }
  };

  // Called by Node after every read: the memory the next read goes into. A read that fills the buffer and is taken
  // by the sink at once doubles it (fewer reads and wake-ups per megabyte: short transfers finish in a few rounds); a
  // write the sink cannot take at once drops it back to MIN_READ (a slow or busy reader then gets small writes that
  // keep both sides moving, instead of stalls behind one large pending write). Measured in bench/proxy-node.mjs
  // against fixed 64 KiB and fixed 1 MiB reads (decision 141).
  nextBuffer = (): Buffer => {
    let size = this.buf.length;
    if (this.backedUp) size = MIN_READ;
    else if (this.filled && size < MAX_READ && grown + size <= budget) size *= 2;
    this.backedUp = false;
    this.filled = false;
    if (size !== this.buf.length) {
      grown += size - this.buf.length;
      const old = this.buf;
      this.buf = take(size);
      if (this.completed === this.issued) give(old);
      else this.retired = old;
    }
    return this.buf;
  };

  onRead = (n: number, chunk: Uint8Array): boolean => {
    if (!this.sink.writable) {
      if (this.onSinkGone === 'discard') return true; // let the source drain so its close completes
      this.source?.destroy(); // nobody to deliver to
      return false;
    }
    this.filled = n === chunk.length;
    this.issued++;
    this.sink.write((chunk as Buffer).subarray(0, n), this.written);
    // Fully handed to the kernel: buf is free at once.
    if (this.sink.writableLength === 0) return true;
    this.backedUp = true;
    this.waiting = true;
    return false; // resumed by `written` once every write has completed
  };

  /** The source is closed: the buffer goes back to the pool unless a write still refers to it. */
  release(): void {
    grown -= this.buf.length - MIN_READ;
    if (this.completed === this.issued) give(this.buf); // else left to the GC
  }
}

// The hooks behind Node's `onread` option, found on a socket by their names: the current buffer, the callback, the
// buffer generator (lib/net.js and lib/internal/stream_base_commons.js, Node 12 and later).
type Hooks = { buffer: symbol; callback: symbol; generator: symbol };
let hooks: Hooks | null | undefined;
function hooksOf(socket: net.Socket): Hooks | null {
  if (hooks !== undefined) return hooks;
  const named = new Map(Object.getOwnPropertySymbols(socket).map((s) => [s.description, s]));
  const buffer = named.get('kBuffer');
  const callback = named.get('kBufferCb');
  const generator = named.get('kBufferGen');
  hooks = buffer && callback && generator ? { buffer, callback, generator } : null;
  return hooks;
}

/**
 * Switches an accepted socket to `onread`-style reading into the relay's buffers, as Node does for a socket created
 * with the `onread` option. What the stream layer already holds is returned, to be written first. Returns null when
 * this Node offers no such hooks (the caller then pipes).
 */
function readByRelay(socket: net.Socket, relay: Relay): Buffer[] | null {
  const handle = (socket as unknown as { _handle?: { useUserBuffer?: (b: Uint8Array) => void } })._handle;
  const h = hooksOf(socket);
  if (!h || !handle || typeof handle.useUserBuffer !== 'function' || socket.readableEnded) return null;
  const held: Buffer[] = [];
  if (socket.readableLength > 0) {
    socket.pause();
    for (let c: Buffer | null = socket.read(); c !== null; c = socket.read()) held.push(c);
  }
  const s = socket as unknown as Record<symbol, unknown>;
  const first = relay.nextBuffer();
  s[h.generator] = relay.nextBuffer;
  s[h.callback] = relay.onRead;
  s[h.buffer] = first;
  handle.useUserBuffer(first);
  relay.source = socket;
  return held;
}

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
  const down = new Relay(client, 'destroy-source');
  let up: Relay | null = null;
  const upstream: net.Socket = net.connect({
    host: target.host,
    port: target.port,
    localAddress: target.localAddress,
    noDelay: true,
    onread: { buffer: down.nextBuffer, callback: down.onRead },
  });
  down.source = upstream;
  upstream.on('connect', () => {
    open = true;
    events.open();
    if (head && head.length > 0) upstream.write(head);
    up = new Relay(upstream, 'discard');
    const held = readByRelay(client, up);
    if (held === null) {
      up.release();
      up = null;
      client.pipe(upstream);
      return;
    }
    for (const c of held) upstream.write(c);
    client.on('end', () => upstream.end());
    client.resume();
  });
  upstream.on('end', () => {
    if (client.writable) client.end();
  });
  upstream.on('close', () => {
    down.release();
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
  client.on('close', () => {
    up?.release();
    upstream.destroy();
  });
  return upstream;
}
