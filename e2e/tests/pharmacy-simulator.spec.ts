import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, expectAccessible, signInAs, test } from './fixtures.ts';

/**
 * The pharmacy door end to end (issue 19): the simulator signs in as the demo pharmacy system (SMART Backend
 * Services), posts a refill request through the FHIR API, and the prescriber sees it in the browser and authorises it.
 */
test('a refill request posted by the pharmacy simulator reaches the prescriber, who authorises it', async ({ page, baseURL }) => {
  const script = path.resolve(import.meta.dirname, '../../scripts/pharmacy-simulate.ts');
  const output = execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      script,
      '--url',
      baseURL as string,
      '--data-dir',
      process.env.E2E_DATA_DIR as string,
      '--count',
      '1',
      '--category',
      'refill-request',
      '--json',
    ],
    { encoding: 'utf8', cwd: path.resolve(import.meta.dirname, '..') },
  );
  const { sent } = JSON.parse(output.trim().split('\n').at(-1) as string) as { sent: { prescription: string; code: string }[] };
  expect(sent).toHaveLength(1);
  const prescription = sent[0]?.prescription as string;

  await signInAs(page, 'dr.morgan@demo.hcp');
  await page.goto(`/action-needed/${prescription}/refillAuth`);
  await expect(page.getByRole('heading', { level: 1, name: /^Refill authorization: / })).toBeVisible();
  await expect(page.getByText('Refill authorization requested by the pharmacy')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Authorize by fax' }).click();
  await expect(page.getByText('Refill authorized by fax.')).toBeVisible();
  await expect(page).toHaveURL(/\/action-needed$/);
  await page.goto(`/action-needed/${prescription}/refillAuth`);
  await expect(page.getByRole('button', { name: 'Authorize by fax' })).toHaveCount(0);
});
