// Private files whose row was never written (docs/decisions/239): an invoice PDF or a licence image put in R2 by a
// Worker that died before D1 named it is removed by the daily job once it is older than an hour; every file a row
// names stays, and so does a file still on its way (younger than an hour).
import { env, SELF } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Bindings } from '../../src/server/env';
import { retentionJob } from '../../src/server/jobs/retention';
import { HOUR_MS } from '../../src/lib/time';
import { BASE, callApi } from '../helpers/api';
import { payInSimulator, place, resetWithCatalogue, verifiedBuyer } from '../helpers/commerce';
import { operatorLogin } from '../helpers/operators';

const MEAL = 101_010;
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

beforeEach(async () => {
  await resetWithCatalogue();
  for (const prefix of ['private/invoices/', 'private/company-licence/']) {
    const listed = await env.FILES.list({ prefix });
    if (listed.objects.length) await env.FILES.delete(listed.objects.map((o) => o.key));
  }
});

const keys = async (prefix: string) => (await env.FILES.list({ prefix })).objects.map((o) => o.key).sort();

/** An issued invoice with its PDF and an uploaded licence image, both through the real routes; their keys. */
async function namedFiles(): Promise<{ pdf: string; licence: string }> {
  const cookie = await verifiedBuyer('13900005001');
  const order = await place('PayOrder.BuyProxy', { mealId: MEAL, units: 1 }, cookie);
  expect(await (await payInSimulator(order.codeUrl ?? '')).text()).toContain('商户应答 HTTP 204');
  const title = await callApi('Invoice.TitleSave', { kind: 'personal', name: '张三' }, { cookie });
  const made = await callApi(
    'Invoice.Apply',
    { titleId: title.body.P?.id ?? 0, type: 'normal', email: 'me@example.com', orderNos: [order.orderNo] },
    { cookie },
  );
  const finance = await operatorLogin('finance');
  const up = await SELF.fetch(`${BASE}/api/upload/invoice/${made.body.P?.id}`, {
    method: 'POST',
    body: PDF,
    headers: { cookie: finance.cookie, 'content-type': 'application/octet-stream' },
  });
  expect(up.status).toBe(200);
  const licence = await SELF.fetch(`${BASE}/api/upload/company-licence`, {
    method: 'POST',
    body: PNG,
    headers: { cookie, 'content-type': 'application/octet-stream' },
  });
  expect(licence.status).toBe(200);
  const [pdf] = await keys('private/invoices/');
  const [image] = await keys('private/company-licence/');
  return { pdf: pdf ?? '', licence: image ?? '' };
}

const sweep = async (now: number) =>
  ((await retentionJob.run(env as unknown as Bindings, now)) as { orphanFiles: unknown }).orphanFiles;

describe('orphan private files', { timeout: 30_000 }, () => {
  it('removes files no row names once older than an hour, and keeps every named file', async () => {
    const named = await namedFiles();
    expect(named.pdf).not.toBe('');
    expect(named.licence).not.toBe('');
    // What a Worker that died between R2 and D1 leaves behind.
    await env.FILES.put('private/invoices/7/99-lost.pdf', PDF);
    await env.FILES.put('private/company-licence/7/lost.png', PNG);
    // Still on their way (younger than an hour): nothing goes.
    expect(await sweep(Date.now())).toEqual({ invoicePdf: 0, companyLicence: 0 });
    expect(await keys('private/invoices/')).toEqual([named.pdf, 'private/invoices/7/99-lost.pdf'].sort());
    // An hour later the strays go; the files the invoice and the licence name stay, and still download.
    expect(await sweep(Date.now() + HOUR_MS + 60_000)).toEqual({ invoicePdf: 1, companyLicence: 1 });
    expect(await keys('private/invoices/')).toEqual([named.pdf]);
    expect(await keys('private/company-licence/')).toEqual([named.licence]);
    expect(await sweep(Date.now() + HOUR_MS + 60_000)).toEqual({ invoicePdf: 0, companyLicence: 0 });
  });
});
