import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_TABLE } from '../../resources/playground/sample-table';
import { resultJson } from '../support/mcp-result';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Serving the playground to a coding agent as a user does it: the real browser-mode server and
// core, Chromium, and the official MCP SDK client connecting with what the form shows.
const slow = { timeout: 120_000 };
const session = useAppInBrowser();
const panel = (): Locator => session.browser.page.getByRole('complementary', { name: 'Assistant' });

describe('coding agents (MCP over HTTP)', () => {
  it('switches the playground on, shows its endpoint, token and connect commands, and an agent reads with them', async () => {
    const page = await session.openPage();
    await page.getByRole('button', { name: 'Open playground' }).click();
    await page.getByTestId('table-row').filter({ hasText: SAMPLE_TABLE }).waitFor(slow);
    await page.getByTestId('top-bar').getByRole('button', { name: 'Assistant' }).click();
    await panel().getByRole('button', { name: 'Coding agents' }).click();
    const form = panel().getByRole('form', { name: 'Coding agents (MCP)' });
    await form.getByRole('switch', { name: /Serve this connection to coding agents/ }).check({ force: true });
    await form.getByLabel('Items per tool call').fill('7');
    await form.getByRole('button', { name: 'Save' }).click();

    // Save is a call to main: the endpoint shows once it has answered.
    const shownEndpoint = form.locator('.mcp-secret-row code').first();
    await expect
      .poll(() => shownEndpoint.textContent(), slow)
      .toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\/playground$/);
    const endpoint = await shownEndpoint.textContent();
    await expect.poll(() => form.getByLabel('Bearer token').textContent(), slow).toMatch(/^•+$/);
    await form.getByRole('button', { name: 'Show' }).click();
    await expect
      .poll(() => form.getByLabel('Bearer token').textContent(), slow)
      .toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const token = (await form.getByLabel('Bearer token').textContent()) ?? '';
    await form.getByRole('button', { name: 'Hide' }).click();
    // The commands on screen never print the token itself.
    await expect.poll(() => form.locator('pre').first().textContent(), slow).toContain('Bearer <token>');
    await screenshots(page, 'mcp-exposure', panel());

    const client = new Client({ name: 'e2e-agent', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(endpoint ?? ''), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const result = (await client.callTool({
        name: 'query',
        arguments: { table: SAMPLE_TABLE, partitionKey: 'USER#u1', limit: 100 },
      })) as CallToolResult;
      const json = resultJson(result);
      expect(json.count).toBeLessThanOrEqual(7);
      expect(json.count).toBeGreaterThan(0);
    } finally {
      await client.close();
    }

    await form
      .getByRole('switch', { name: /Serve this connection to coding agents/ })
      .uncheck({ force: true });
    await form.getByRole('button', { name: 'Save' }).click();
    await form.locator('.mcp-secret-row').first().waitFor({ state: 'detached' });
  });
});
