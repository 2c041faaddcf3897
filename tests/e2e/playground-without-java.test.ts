import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDynamoLocal, type LocalDynamo } from '../support/dynamo-local';
import { useColorScheme } from './support/browser';
import { useAppInBrowser } from './support/session';

// A machine without Java: the playground says why and what to do, and a connection to another
// DynamoDB (a real DynamoDB Local started by the test, reached through a profile) still works.
const session = useAppInBrowser({ javaCommand: '/nonexistent/bin/java' });
let dynamo: LocalDynamo;

beforeAll(async () => {
  dynamo = await startDynamoLocal();
});

afterAll(async () => {
  await dynamo.stop();
});

describe('the picker on a machine without Java', () => {
  it('explains that the playground needs Java 17 and how to install it', async () => {
    const page = await session.openPage();
    await page.getByRole('button', { name: 'Open playground' }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'The playground cannot start here' });
    await notice.waitFor();
    const text = await notice.innerText();
    expect(text).toMatch(/Java 17 or newer/);
    expect(text).toMatch(/apt install openjdk-17-jre/);
    // Still on the picker, with a way to try again once Java is installed.
    await page.getByRole('button', { name: 'Try again' }).waitFor();
    await session.browser.screenshot('playground-without-java');
  });

  it('still opens another connection and shows its empty table list', async () => {
    const { page } = session.browser;
    await page.getByRole('button', { name: 'New connection' }).click();
    const dialog = page.getByRole('dialog', { name: 'New connection' });
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Team DynamoDB Local');
    await dialog.getByRole('option', { name: /e2e-keys/ }).click();
    await dialog.getByLabel('Endpoint override').fill(dynamo.endpoint);
    await dialog.getByRole('button', { name: 'Save and test' }).click();

    const card = page.getByTestId('connection-card').filter({ hasText: 'Team DynamoDB Local' });
    await card
      .getByRole('status')
      .filter({ hasText: /Connected to DynamoDB Local/ })
      .waitFor();
    await card.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByText(`No tables in eu-west-1 at ${dynamo.endpoint}`).waitFor();
    await session.browser.screenshot('table-list-empty');
    await useColorScheme(page, 'dark');
    await session.browser.screenshot('table-list-empty-dark');
    expect(session.browser.pageErrors).toEqual([]);
  });
});
