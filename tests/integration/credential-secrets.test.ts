// Customers' API secrets at rest (docs/decisions/199, 200): the database never holds an extraction key in plain after
// creation or reset, extraction by key still works and a wrong key is refused and throttled as before; proxy passwords
// are sealed yet shown to their owner; rows from before migration 0029 keep working and are converted.
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { EXTRACT_KEY_FAIL_LIMIT } from '../../src/server/domain/extract-key-throttle';
import { makeExtractToken } from '../../src/server/domain/extract-token';
import { runScheduledJobs } from '../../src/server/jobs';
import { findCredentials } from '../../src/server/db/credentials';
import { setExtractKey, setLegacyPlainProxyPassword, storedKey, unsealedProxyPasswordCount } from '../helpers/accounts';
import { callApi, loginBySms, resetDb } from '../helpers/api';
import { allowIp, extractCall, makePackage, simplePool } from '../helpers/delivery';

beforeEach(async () => {
  await resetDb();
  await simplePool(5);
});

/** The stored credentials row of a user, as the database holds it. */
const row = (userId: number) => findCredentials(env.DB, userId);

async function customer(phone: string) {
  const cookie = await loginBySms(phone);
  const tool = await callApi('Extract.GetMealAndRegion', { type: 10 }, { cookie });
  const account = await callApi('Proxy.GetProxyAccount', {}, { cookie });
  const uid = account.body.P?.uid ?? 0;
  await makePackage(uid);
  await allowIp(uid, '192.0.2.50');
  return { cookie, uid, key: tool.body.P?.apiKey ?? null, account: account.body.P };
}

describe('extraction keys as keyed hashes', () => {
  it('shows the key once at creation and once at reset; the row holds only its hash; the key extracts', async () => {
    const { cookie, uid, key } = await customer('13800005551');
    expect(key).toMatch(/^[a-z0-9]{32}$/);
    const stored = await row(uid);
    expect(stored?.apiKeyHash).toBe(await storedKey(key ?? ''));
    expect(JSON.stringify(stored)).not.toContain(key);
    // Not shown again.
    const again = await callApi('Extract.GetMealAndRegion', { type: 10 }, { cookie });
    expect(again.body.P?.apiKey).toBeNull();
    expect((await extractCall({ key: key ?? '' })).status).toBe(200);

    const reset = await callApi('proxy.resetSecret', {}, { cookie });
    const fresh = reset.body.P?.apiKey ?? '';
    expect(fresh).toMatch(/^[a-z0-9]{32}$/);
    expect(fresh).not.toBe(key);
    const after = await row(uid);
    expect(after?.apiKeyHash).toBe(await storedKey(fresh));
    expect(JSON.stringify(after)).not.toContain(fresh);
    expect((await extractCall({ key: key ?? '' })).text).toBe('ERROR 1001 密钥无效');
    expect((await extractCall({ key: fresh })).status).toBe(200);
    // AES tokens prove the key too (compared through its hash).
    const token = await makeExtractToken(
      reset.body.P?.proxyApiKey ?? '',
      reset.body.P?.proxyApiIv ?? '',
      fresh,
      Date.now(),
    );
    expect((await extractCall({ uid, token })).status).toBe(200);
    const wrong = await makeExtractToken(
      reset.body.P?.proxyApiKey ?? '',
      reset.body.P?.proxyApiIv ?? '',
      key ?? '',
      Date.now(),
    );
    expect((await extractCall({ uid, token: wrong })).text).toMatch(/^ERROR 1008 /);
  });

  it('refuses a wrong key (even the stored hash itself) and throttles wrong keys as before', async () => {
    const { uid } = await customer('13800005552');
    const hash = (await row(uid))?.apiKeyHash ?? '';
    expect((await extractCall({ key: hash }, '192.0.2.77')).text).toBe('ERROR 1001 密钥无效');
    expect((await extractCall({ key: hash.slice(3) }, '192.0.2.77')).text).toBe('ERROR 1001 密钥无效');
    for (let i = 2; i < EXTRACT_KEY_FAIL_LIMIT; i++)
      await extractCall({ key: `wrongkey${i}`.padEnd(32, '0') }, '192.0.2.77');
    expect((await extractCall({ key: 'wrongkeylast'.padEnd(32, '0') }, '192.0.2.77')).text).toMatch(/^ERROR 1011 /);
  });

  it('keeps a plain key from before migration 0029 working, hashing it at its first use or by the job', async () => {
    const a = await customer('13800005553');
    const b = await customer('13800005554');
    const plainA = 'legacykeya000000000000000000000a';
    const plainB = 'legacykeyb000000000000000000000b';
    await setExtractKey(a.uid, plainA, { plain: true });
    await setExtractKey(b.uid, plainB, { plain: true });
    expect((await extractCall({ key: plainA })).status).toBe(200);
    expect((await row(a.uid))?.apiKeyHash).toBe(await storedKey(plainA));
    expect((await extractCall({ key: plainA })).status).toBe(200);
    await runScheduledJobs('*/5 * * * *', env);
    expect((await row(b.uid))?.apiKeyHash).toBe(await storedKey(plainB));
    expect((await extractCall({ key: plainB })).status).toBe(200);
  });
});

describe('proxy passwords sealed at rest', () => {
  it('stores the password sealed, shows it to its owner, and the job seals a plain one with its verifier', async () => {
    const { cookie, uid, account } = await customer('13800005555');
    const password = account?.password ?? '';
    expect(password).toMatch(/^[a-z0-9]{16}$/);
    const stored = await row(uid);
    expect(stored?.proxyPassword).toMatch(/^gcm1:/);
    expect(stored?.proxyPasswordVerifier).toMatch(/^hs1\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(password);
    const shown = await callApi('Proxy.GetProxyAccount', {}, { cookie });
    expect(shown.body.P?.password).toBe(password);

    await setLegacyPlainProxyPassword(uid, 'legacyplainpass1');
    expect((await callApi('Proxy.GetProxyAccount', {}, { cookie })).body.P?.password).toBe('legacyplainpass1');
    await runScheduledJobs('*/5 * * * *', env);
    const sealed = await row(uid);
    expect(sealed?.proxyPassword).toMatch(/^gcm1:/);
    expect(sealed?.proxyPasswordVerifier).toMatch(/^hs1\$/);
    expect((await callApi('Proxy.GetProxyAccount', {}, { cookie })).body.P?.password).toBe('legacyplainpass1');
    expect(await unsealedProxyPasswordCount()).toBe(0);
  });
});
