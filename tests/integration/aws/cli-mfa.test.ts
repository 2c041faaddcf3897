import { ListTablesCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { terminalMfaPrompt, type Terminal } from '../../../src/cli/terminal-mfa';
import { adHocClient } from '../../../src/main/aws/ad-hoc-client';
import { createMfaHome, type MfaHome } from '../../support/aws/mfa-home';
import { directClient } from '../../support/aws/connection-fixture';
import { ourLines, runCli } from '../../support/cli-run';
import { uniqueTableName } from '../../support/dynamo-local';
import { createTable } from '../../support/dynamo-tables';

// The CLI's own clients with an assume-role profile that has mfa_serial: the real SDK (fromIni
// and its STS role assumer), a local STS speaking STS's wire protocol, and DynamoDB Local.
const endpoint = inject('dynamoEndpoint');

let home: MfaHome;
let table: string;

beforeEach(async () => {
  home = await createMfaHome();
  table = uniqueTableName('climfa');
  const admin = directClient(endpoint, home.roleKeys, 'eu-west-1');
  await createTable(admin, table, { partitionKey: ['pk', 'S'] });
  admin.destroy();
});
let clients: DynamoDBClient[] = [];
afterEach(async () => {
  for (const client of clients) client.destroy();
  clients = [];
  await home.close();
});

/**
 * The CLI's client for the MFA profile, asking on a terminal whose keyboard is `typed`;
 * `screen()` is everything the CLI wrote to that terminal, `ctrlC` the command's Ctrl+C.
 */
function clientAtTerminal() {
  const typed = new PassThrough();
  const output = new PassThrough();
  let screen = '';
  output.on('data', (chunk: Buffer) => (screen += chunk.toString()));
  const terminal: Terminal = { input: typed, output, isInteractive: true };
  const ctrlC = new AbortController();
  const client = adHocClient({
    profile: 'admin',
    region: 'eu-west-1',
    endpoint,
    mfa: terminalMfaPrompt(terminal, ctrlC.signal),
  });
  clients.push(client);
  return { typed, ctrlC, screen: () => screen, listTables: () => client.send(new ListTablesCommand({})) };
}

const notATerminal = (serial: string) =>
  `Profile "admin" needs an MFA code for ${serial}, and stdin is not a terminal to ask for it: run the command in a terminal, or use a profile without mfa_serial (in CI, role credentials from the environment). (MfaCodeRequired)`;

describe('the CLI with an MFA profile', () => {
  it('without a terminal, sql and scan-migration exit 2 with one line saying what to do', async () => {
    // runCli's stdin is not a TTY, as in a CI job or a pipe.
    const sql = await runCli(['sql', `SELECT * FROM ${table}`, '--profile', 'admin', '--endpoint', endpoint]);
    expect(sql.code).toBe(2);
    expect(ourLines(sql.stderr)).toEqual([`dynotable sql: ${notATerminal(home.serialNumber)}`]);

    const scan = await runCli([
      'scan-migration',
      '--table',
      table,
      '--profile',
      'admin',
      '--endpoint',
      endpoint,
      '--quiet',
    ]);
    expect(scan.code).toBe(2);
    expect(ourLines(scan.stderr)).toEqual([`dynotable scan-migration: ${notATerminal(home.serialNumber)}`]);
    expect(scan.stdout).toBe('');

    expect(home.sts.assumeRoleCalls).toEqual([]);
  });

  it('asks on the terminal once, sends the code to STS and reads the role’s tables', async () => {
    const terminal = clientAtTerminal();
    const listing = Promise.all([terminal.listTables(), terminal.listTables()]);
    // A typo is asked again rather than sent to STS.
    terminal.typed.write(`48291\n ${home.code} \n`);
    const [first, second] = await listing;
    expect(first.TableNames).toContain(table);
    expect(second.TableNames).toContain(table);
    expect(terminal.screen()).toBe(
      [
        `MFA code for ${home.serialNumber} (profile "admin"): An MFA code is the 6 digits your device shows now.`,
        `MFA code for ${home.serialNumber} (profile "admin"): `,
      ].join('\n'),
    );
    expect(home.sts.assumeRoleCalls).toEqual([
      expect.objectContaining({ serialNumber: home.serialNumber, tokenCode: home.code }),
    ]);
  });

  it('fails with a sentence when the input ends without a code, and sends nothing', async () => {
    const terminal = clientAtTerminal();
    const listing = terminal.listTables();
    terminal.typed.end('\n');
    await expect(listing).rejects.toMatchObject({
      code: 'MfaCodeRequired',
      message: `No MFA code for ${home.serialNumber} was entered, so profile "admin" did not assume its role and nothing was sent. Run the command again to be asked for a new code.`,
    });
    expect(home.sts.assumeRoleCalls).toEqual([]);
  });

  it('stops asking on Ctrl+C, so the command can end', async () => {
    const terminal = clientAtTerminal();
    const listing = terminal.listTables();
    await vi.waitFor(() => expect(terminal.screen()).toMatch(/MFA code for/));
    terminal.ctrlC.abort();
    await expect(listing).rejects.toMatchObject({
      code: 'Cancelled',
      message: `The MFA code for ${home.serialNumber} was not entered (cancelled), so profile "admin" did not assume its role and nothing was sent.`,
    });
    expect(home.sts.assumeRoleCalls).toEqual([]);
  });

  it('says a wrong code was refused by AWS, not something about DynamoDB', async () => {
    const terminal = clientAtTerminal();
    const listing = terminal.listTables();
    terminal.typed.write('000000\n');
    await expect(listing).rejects.toMatchObject({
      code: 'AccessDenied',
      message: expect.stringMatching(
        /^AWS did not accept the MFA code for arn:aws:iam::123456789012:mfa\/alice/,
      ) as string,
    });
    expect(terminal.screen()).not.toContain('000000');
  });
});
