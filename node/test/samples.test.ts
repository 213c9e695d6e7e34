// The downloadable code samples (code-samples/, served as /code/*.zip) run as a customer runs them: each extracts one
// exit from a stand-in /extract endpoint, then fetches a local HTTPS target through a real proxy node over real
// sockets, once by white list (the client's address is white-listed) and once with the proxy account. The samples are
// not changed for the test: the self-signed target's certificate reaches each one the way its own runtime reads extra
// CAs (SSL_CERT_FILE, NODE_EXTRA_CA_CERTS, php's curl.cainfo, a JVM trust store given with -D).
// A sample whose toolchain is not installed is skipped with the reason (scripts/test.mjs installs them as root).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/config.ts';
import { silentLogger } from '../src/log.ts';
import { ProxyNode } from '../src/node.ts';
import { exitConfig, type FakePortal, lease, SECRET, startFakePortal, user } from './helpers.ts';

const SAMPLES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'code-samples');
// Exit addresses no other node test uses. White-list customer on one, account customer on the other, so an account
// run cannot pass by the client's address.
const EXIT_WL = { host: '127.0.0.90', port: 28090 };
const EXIT_ACCOUNT = { host: '127.0.0.91', port: 28091 };
const KEY_WL = 'sample-key-white-list';
const KEY_ACCOUNT = 'sample-key-account';
const STORE_PASS = 'changeit';

const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const phpCurl = () => has('php') && spawnSync('php', ['-r', 'exit(extension_loaded("curl") ? 0 : 1);']).status === 0;

type Run = { code: number | null; stdout: string; stderr: string };
function exec(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { ...opts, timeout: 120_000, maxBuffer: 4 << 20 }, (err, stdout, stderr) =>
      resolve({
        code: err ? (typeof err.code === 'number' ? err.code : 1) : 0,
        stdout: String(stdout),
        stderr: String(stderr),
      }),
    );
  });
}

// The environment a customer's shell would give, without any proxy settings of the machine running the tests.
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/_proxy$/i.test(k)) env[k] = v;
  return env;
}

type Ctx = { dir: string; ca: string; trustStore: string };
type Sample = {
  name: string;
  /** Why it cannot run here, or null. */
  missing: () => string | null;
  /** Compiles in `work` (a copy of the sample folder); returns the command that runs it and env it reads. */
  prepare: (work: string, ctx: Ctx) => Promise<{ cmd: string; args: string[]; env: NodeJS.ProcessEnv }>;
};

const compile = async (cmd: string, args: string[], cwd: string) => {
  const r = await exec(cmd, args, { cwd, env: baseEnv() });
  assert.equal(r.code, 0, `${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
};
const jvmTrust = (ctx: Ctx) => [
  `-Djavax.net.ssl.trustStore=${ctx.trustStore}`,
  `-Djavax.net.ssl.trustStorePassword=${STORE_PASS}`,
];

const samples: Sample[] = [
  {
    name: 'python',
    missing: () => (has('python3') ? null : 'python3 is not installed (Debian package python3)'),
    prepare: async (_w, ctx) => ({ cmd: 'python3', args: ['main.py'], env: { SSL_CERT_FILE: ctx.ca } }),
  },
  {
    name: 'node',
    missing: () => null,
    prepare: async (_w, ctx) => ({ cmd: process.execPath, args: ['index.mjs'], env: { NODE_EXTRA_CA_CERTS: ctx.ca } }),
  },
  {
    name: 'go',
    missing: () => (has('go') ? null : 'go is not installed (Debian package golang-go)'),
    prepare: async (work, ctx) => {
      await compile('go', ['build', '-o', 'proxy-demo', '.'], work);
      return { cmd: join(work, 'proxy-demo'), args: [], env: { SSL_CERT_FILE: ctx.ca } };
    },
  },
  {
    name: 'php',
    missing: () =>
      !has('php')
        ? 'php is not installed (Debian packages php-cli php-curl)'
        : phpCurl()
          ? null
          : "php's curl extension is not installed (Debian package php-curl)",
    prepare: async (_w, ctx) => ({ cmd: 'php', args: ['-d', `curl.cainfo=${ctx.ca}`, 'index.php'], env: {} }),
  },
  {
    name: 'java',
    missing: () =>
      has('javac') && has('keytool') ? null : 'javac is not installed (Debian package default-jdk-headless)',
    prepare: async (work, ctx) => {
      await compile('javac', ['-encoding', 'UTF-8', '-d', 'out', 'Main.java'], work);
      return { cmd: 'java', args: [...jvmTrust(ctx), '-cp', 'out', 'Main'], env: {} };
    },
  },
  {
    name: 'kotlin',
    missing: () =>
      !has('kotlinc')
        ? 'kotlinc is not installed (Debian package kotlin)'
        : has('java') && has('keytool')
          ? null
          : 'java is not installed (Debian package default-jdk-headless)',
    prepare: async (work, ctx) => {
      await compile('kotlinc', ['main.kt', '-include-runtime', '-d', 'proxy-demo.jar'], work);
      return { cmd: 'java', args: [...jvmTrust(ctx), '-jar', 'proxy-demo.jar'], env: {} };
    },
  },
  {
    name: 'CSharp',
    missing: () => 'dotnet is not packaged in Debian: the C# sample is not run here',
    prepare: async () => assert.fail('not runnable'),
  },
];

describe('code samples through a real node, HTTPS target', () => {
  let portal: FakePortal;
  let node: ProxyNode;
  let target: https.Server;
  let extract: http.Server;
  let ctx: Ctx;
  let targetUrl = '';
  let apiBase = '';

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'yunshu-samples-'));
    const ca = join(dir, 'target.pem');
    const keyFile = join(dir, 'target.key');
    const trustStore = join(dir, 'trust.p12');
    ctx = { dir, ca, trustStore };
    const cert = spawnSync('openssl', [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', ca],
    ]);
    assert.equal(cert.status, 0, String(cert.stderr));
    if (has('keytool')) {
      const ks = spawnSync('keytool', [
        ...['-importcert', '-noprompt', '-alias', 'target', '-file', ca, '-keystore', trustStore],
        ...['-storetype', 'PKCS12', '-storepass', STORE_PASS],
      ]);
      assert.equal(ks.status, 0, String(ks.stderr));
    }
    // The target answers with the address it sees: the exit, if the request went through the node.
    target = https.createServer({ key: readFileSync(keyFile), cert: readFileSync(ca) }, (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ origin: req.socket.remoteAddress }));
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const targetPort = (target.address() as AddressInfo).port;
    targetUrl = `https://127.0.0.1:${targetPort}/ip`;

    // A stand-in for the portal's /extract (format=json): one exit per extraction key.
    extract = http.createServer((req, res) => {
      const key = new URL(req.url ?? '/', 'http://x').searchParams.get('key');
      const exit = key === KEY_WL ? EXIT_WL : key === KEY_ACCOUNT ? EXIT_ACCOUNT : null;
      res.writeHead(exit ? 200 : 400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          exit
            ? { code: 0, msg: '成功', data: { count: 1, list: [{ ip: exit.host, port: exit.port, protocol: 'http' }] } }
            : { code: 1001, msg: '密钥无效' },
        ),
      );
    });
    await new Promise<void>((r) => extract.listen(0, '127.0.0.1', r));
    apiBase = `http://127.0.0.1:${(extract.address() as AddressInfo).port}`;

    portal = await startFakePortal();
    // User 90: white-listed client 127.0.0.1 (the address a local client connects from), lease on EXIT_WL.
    // User 91: proxy account only (u91 / pw91), lease on EXIT_ACCOUNT.
    portal.users.set(90, user(90, { whiteList: [{ ip: '127.0.0.1', expiresAt: 0 }] }));
    portal.users.set(91, user(91));
    portal.leases.set('s90', lease('s90', EXIT_WL.host, EXIT_WL.port, 90));
    portal.leases.set('s91', lease('s91', EXIT_ACCOUNT.host, EXIT_ACCOUNT.port, 91));
    const config = parseConfig(
      {
        portalUrl: portal.url,
        nodeId: 1,
        secret: SECRET,
        stateDir: join(dir, 'state'),
        flushMs: 3_600_000,
        pullMs: 200,
        // The local target is a loopback address: allowed explicitly (a development-only setting).
        egressAllow: [`127.0.0.1:${targetPort}`],
        exits: [EXIT_WL, EXIT_ACCOUNT].map((e) => exitConfig(e)),
      },
      dir,
      { ...process.env, YUNSHU_NODE_DEV: '1' },
    );
    node = new ProxyNode(config, silentLogger);
    await node.start();
  });

  after(async () => {
    await node?.stop();
    await portal?.close();
    for (const s of [target, extract]) {
      s?.closeAllConnections();
      await new Promise((r) => s?.close(r));
    }
    if (ctx) rmSync(ctx.dir, { recursive: true, force: true });
  });

  // Compiled once per sample, shared by both modes.
  const prepared = new Map<string, ReturnType<Sample['prepare']>>();
  const prepare = (sample: Sample) => {
    let p = prepared.get(sample.name);
    if (!p) {
      const work = join(ctx.dir, sample.name);
      cpSync(join(SAMPLES, sample.name), work, { recursive: true });
      p = sample.prepare(work, ctx);
      prepared.set(sample.name, p);
    }
    return p;
  };
  const modes = [
    { mode: 'white list', key: KEY_WL, exit: EXIT_WL, auth: {} },
    { mode: 'account', key: KEY_ACCOUNT, exit: EXIT_ACCOUNT, auth: { PROXY_USER: 'u91', PROXY_PASS: 'pw91' } },
  ];
  for (const m of modes)
    describe(m.mode, () => {
      if (m.mode === 'account')
        // A customer using the account is not white-listed: the node asks for credentials (407) and the sample must
        // answer with them.
        before(async () => {
          portal.users.set(90, user(90));
          portal.changed();
          await node.pull();
          assert.equal(node.store.users.get(90)?.whiteList.length, 0);
        });
      for (const sample of samples) {
        const reason = sample.missing();
        test(`${sample.name} sample (${m.mode}): HTTP 200 from the target, seen from the exit`, async (t) => {
          if (reason) return t.skip(reason);
          const run = await prepare(sample);
          const r = await exec(run.cmd, run.args, {
            cwd: join(ctx.dir, sample.name),
            env: {
              ...baseEnv(),
              ...run.env,
              ...m.auth,
              PROXY_API_BASE: apiBase,
              PROXY_API_KEY: m.key,
              PROXY_TEST_URL: targetUrl,
            },
          });
          const out = `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
          assert.equal(r.code, 0, out);
          assert.match(r.stdout, /HTTP 状态码：200/, out);
          assert.match(r.stdout, new RegExp(`"origin":\\s*"${m.exit.host.replaceAll('.', '\\.')}"`), out);
        });
      }
    });
});
