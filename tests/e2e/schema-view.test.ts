import { describe, expect, it } from 'vitest';
import { type AttributeType, typeLabel } from '../../src/shared/dynamo/attribute-value';
import { rawDynamo } from '../support/raw-dynamo';
import { quotePathName, tallyPaths } from '../support/schema-tally';
import { downloadedBytes } from './support/downloads';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// The Schema tab driven like a user on the playground's sample table; the counts it shows are
// checked against a tally of the items as DynamoDB Local's wire JSON returns them.
const session = useAppInBrowser({ withPlayground: true });
const slow = { timeout: 120_000 };
type Wire = Record<string, unknown>;

/** Every item of the sample table as DynamoDB Local's wire JSON (the playground seeds it on first open). */
async function storedItems(): Promise<Wire[]> {
  const items: Wire[] = [];
  let start: Wire | undefined;
  do {
    const page: { Items: Wire[]; LastEvaluatedKey?: Wire } = await rawDynamo(
      session.playgroundEndpoint,
      'Scan',
      {
        TableName: 'DynoTableSample',
        ...(start ? { ExclusiveStartKey: start } : {}),
      },
    );
    items.push(...page.Items);
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

describe('Schema tab', () => {
  it('samples the playground table and shows its entities and each path’s type shares', async () => {
    const page = await session.openPage();
    await openPlaygroundTable(page, 'DynoTableSample', 'Schema');
    const stored = await storedItems();
    // More than the table holds: every segment's first page is then the whole segment.
    await page.getByLabel('Items', { exact: true }).fill('5000');
    await page.getByRole('button', { name: 'Sample', exact: true }).click();
    const draw = page.getByTestId('schema-draw');
    await draw.waitFor(slow);
    await expect
      .poll(() => draw.innerText(), slow)
      .toMatch(new RegExp(`^${stored.length} items from the first page`));

    const entities = page.getByRole('group', { name: 'Entities' });
    const names = await entities.getByRole('button').allInnerTexts();
    expect(names[0]).toMatch(new RegExp(`^All items\\s*${stored.length}$`));
    const entityNames = names.slice(1).map((n) => n.replace(/\s*\d+$/, ''));
    expect(entityNames).toEqual(expect.arrayContaining(['users', 'orders', 'payments']));

    // createdAt: ISO strings and epoch milliseconds, as the legacy items hold it.
    const tally = tallyPaths(stored).get('createdAt');
    const types = Object.fromEntries(tally?.types ?? []);
    expect(Object.keys(types).sort()).toEqual(['N', 'S']);
    const total = (types.S ?? 0) + (types.N ?? 0);
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: 'createdAt', exact: true }) });
    await expect
      .poll(() => row.innerText(), slow)
      .toContain(`${tally?.items.size} · ${Math.round(((tally?.items.size ?? 0) / stored.length) * 100)}%`);
    const text = await row.innerText();
    expect(text).toContain(`S ${Math.round(((types.S ?? 0) / total) * 100)}%`);
    expect(text).toContain(`N ${Math.round(((types.N ?? 0) / total) * 100)}%`);
    await screenshots(page, 'schema-all-items');

    // One entity, one path: the details list the type counts of that entity's items only.
    await entities.getByRole('button', { name: /^orders/ }).click();
    await page
      .getByRole('table', { name: 'Attribute paths of orders' })
      .getByRole('button', { name: 'createdAt', exact: true })
      .click();
    const detail = page.getByRole('complementary');
    const orders = stored.filter((i) => ((i.SK as { S?: string }).S ?? '').startsWith('ORDER#'));
    const orderTypes = Object.fromEntries(tallyPaths(orders).get(quotePathName('createdAt'))?.types ?? []);
    const typeBars = detail.getByRole('list', { name: 'Types' });
    for (const [type, count] of Object.entries(orderTypes))
      await expect
        .poll(() => typeBars.innerText())
        .toMatch(new RegExp(`${typeLabel(type as AttributeType).replace(/[()]/g, '\\$&')}\\s+${count} · `));
    const warnings = page.getByRole('list', { name: 'Warnings' });
    await expect.poll(() => warnings.innerText()).toContain('"address.city"');
    await screenshots(page, 'schema-entity-detail');
    // The model of the shown entity, generated from the same read.
    const model = page.getByRole('region', { name: 'Model of orders' });
    await model.getByLabel('Format').selectOption('zod');
    await expect
      .poll(() => model.getByLabel('Zod schema of orders').innerText())
      .toContain('export const orderSchema = z.looseObject({');
    await screenshots(page, 'schema-model', model, { block: 'start' });
    // Each format says what it is; dynotable-orm is not a name everyone knows.
    await model.getByLabel('Format').selectOption('orm');
    await expect
      .poll(() => model.getByText(/dynotable-orm is the ORM that teams leaving dynamoose move to/).count())
      .toBe(1);

    // The design: one box per entity, grouped by item collection, with the GSI its items are in.
    const design = page.getByRole('region', { name: 'Design' });
    const diagram = page.getByRole('img', { name: /^Design of DynoTableSample: / });
    await diagram.scrollIntoViewIfNeeded();
    const boxes = await diagram
      .locator('[data-entity]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-entity')));
    expect(boxes.sort()).toEqual([...entityNames].sort());
    const ordersBox = await diagram.locator('[data-entity="orders"]').textContent();
    expect(ordersBox).toContain('PK=USER#… SK=ORDER#…');
    expect(ordersBox).toMatch(/GSI1: GSI1PK=STATUS#…/);
    await expect
      .poll(() => diagram.locator('[data-collection="PK=USER#…"] [data-entity]').count())
      .toBeGreaterThan(1);
    // How entities reach each other, as lines and in words: payments live under their order
    // (PK ORDER#… is the orders' SK), GSI1 finds them under USER#…, and they carry a userId.
    const relation = (from: string, to: string) => diagram.locator(`[data-relation="${from}→${to}"]`);
    await expect.poll(() => relation('payments', 'orders').textContent()).toContain('PK ORDER#… = SK');
    await expect.poll(() => relation('payments', 'PK=USER#…').textContent()).toBe('GSI1 USER#…');
    await expect.poll(() => relation('payments', 'users').textContent()).toBe('userId');
    await expect.poll(() => diagram.locator('.sd-link').count()).toBeGreaterThanOrEqual(3);
    const relations = await design.getByRole('list', { name: 'Relations' }).innerText();
    expect(relations).toContain('payments live under their order: their PK ORDER#… is the SK of orders.');
    await screenshots(page, 'schema-diagram', diagram, { block: 'start' });
    const [svgFile] = await Promise.all([
      page.waitForEvent('download'),
      design.getByRole('button', { name: 'Save as SVG' }).click(),
    ]);
    const svgText = (await downloadedBytes(svgFile)).toString('utf8');
    expect(svgText).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svgText).toContain('orders · ');
    const [pngFile] = await Promise.all([
      page.waitForEvent('download'),
      design.getByRole('button', { name: 'Save as PNG' }).click(),
    ]);
    const png = await downloadedBytes(pngFile);
    expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect(png.readUInt32BE(16)).toBeGreaterThan(200);

    // Click-through: the orders whose createdAt is a string, in the Items grid, then as SQL.
    const actions = detail.getByRole('group', { name: 'Look at the items' });
    await actions.getByLabel('Which items').selectOption({ label: 'createdAt is S' });
    await expect.poll(() => actions.innerText()).toContain(`${orderTypes.S} of the items read`);
    await actions.getByRole('button', { name: 'Show in Items' }).click();
    await page.getByRole('tab', { name: 'Items', selected: true }).waitFor();
    await page.getByRole('status').filter({ hasText: /RCU/ }).waitFor(slow);
    const grid = page.getByRole('grid', { name: 'Items' });
    await expect.poll(() => grid.getAttribute('aria-rowcount'), slow).toBe(String((orderTypes.S ?? 0) + 1));
    // The filter is the builder's own form: the user sees what ran and can change it.
    const paths = await page
      .getByLabel('Attribute path')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(paths).toEqual(['SK', 'createdAt']);
    await screenshots(page, 'schema-to-items');

    await page.getByRole('tab', { name: 'Schema' }).click();
    await page.getByRole('complementary').getByRole('button', { name: 'Open in SQL' }).click();
    const editor = page.locator('.sql-editor .cm-content');
    await editor.waitFor(slow);
    await expect.poll(() => editor.innerText(), slow).toContain('WHERE begins_with("SK", \'ORDER#\')');
    await expect.poll(() => editor.innerText()).toContain(`AND "createdAt" IS NOT MISSING`);
    await screenshots(page, 'schema-to-sql');
    expect(session.browser.pageErrors).toEqual([]);
  });
});
