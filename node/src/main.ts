#!/usr/bin/env node
// yunshu-node: `node src/main.ts --config /etc/yunshu-node/config.json` (or YUNSHU_NODE_CONFIG).
import { setDefaultHighWaterMark } from 'node:stream';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from './log.ts';
import { ProxyNode } from './node.ts';

const arg =
  process.argv.find((a) => a.startsWith('--config='))?.slice(9) ??
  (process.argv.includes('--config') ? process.argv[process.argv.indexOf('--config') + 1] : undefined);
const file = arg ?? process.env.YUNSHU_NODE_CONFIG ?? '/etc/yunshu-node/config.json';

// Streams still carry plain HTTP forwarding and the client -> target direction of tunnels (the target -> client
// direction reads into its own buffer, tunnel.ts): at the 64 KiB default a slow target pauses the client after every
// read; 512 KiB lets a few reads queue before backpressure (decision 071).
setDefaultHighWaterMark(false, 512 * 1024);

let node: ProxyNode;
try {
  const config = loadConfig(file);
  const log = createLogger(config.logLevel);
  node = new ProxyNode(config, log);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info('stopping', { signal });
    await node.stop();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('uncaughtException', (e) => log.error('uncaught exception', { error: e.stack ?? String(e) }));
  process.on('unhandledRejection', (e) => log.error('unhandled rejection', { error: String(e) }));
  await node.start();
} catch (e) {
  const msg = e instanceof ConfigError ? `config: ${e.message}` : (e as Error).stack;
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: 'error', msg })}\n`);
  process.exit(2);
}
