'use strict';
// Runs the built main bundle (argv[2]) against the Electron stand-in and prints one JSON report
// of what a user's Electron would have seen. tests/integration/shell/electron-main.test.ts
// asserts on it.
const { existsSync, readFileSync } = require('node:fs');
const net = require('node:net');
const fake = require('./fake-electron.cjs');

const bundle = process.argv[2];
const withPlayground = process.argv.includes('--playground');

async function until(condition, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function refusesConnections(endpoint) {
  const { hostname, port } = new URL(endpoint);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

async function main() {
  const report = {};
  fake.install();
  require(bundle);
  fake.emitReady();
  await until(() => fake.recorded.windows.length > 0, 'the main window');
  const window = fake.recorded.windows[0];
  const contents = window.webContents;

  report.sandboxEnabledBeforeReady = fake.recorded.sandboxEnabledBeforeReady;
  report.channels = [...fake.recorded.ipcHandlers.keys()];
  report.webPreferences = window.options.webPreferences;
  report.preloadExists = existsSync(window.options.webPreferences.preload);
  report.loadedFile = window.loadedFile;
  report.indexHtml =
    window.loadedFile && existsSync(window.loadedFile) ? readFileSync(window.loadedFile, 'utf8') : '';

  const trusted = { sender: contents, senderFrame: contents.mainFrame };
  const foreign = { sender: contents, senderFrame: { url: 'https://evil.example/' } };
  const call = (channel, event, payload = {}) => fake.recorded.ipcHandlers.get(channel)(event, payload);
  report.appInfo = await call('app:info', trusted);
  report.foreignAppInfo = await call('app:info', foreign);
  report.connections = await call('connections:list', trusted);
  report.openDocs = await call('app:openExternal', trusted, { url: 'https://docs.aws.amazon.com/dynamodb/' });
  report.openFile = await call('app:openExternal', trusted, { url: 'file:///etc/passwd' });

  report.windowOpenEvil = contents.windowOpenHandler({ url: 'https://evil.example/' });
  report.windowOpenDocs = contents.windowOpenHandler({ url: 'https://aws.amazon.com/dynamodb/' });
  const navigation = (url) => {
    const event = new fake.FakeEvent();
    event.url = url;
    contents.emit('will-navigate', event);
    return event.defaultPrevented;
  };
  report.navigateAwayPrevented = navigation('https://evil.example/');
  report.navigateInAppPrevented = navigation(`${contents.mainFrame.url}#/tables`);

  const permission = (name) =>
    new Promise((resolve) => fake.session.permissionRequest(contents, name, resolve, {}));
  report.permissions = {
    geolocation: await permission('geolocation'),
    media: await permission('media'),
    clipboardWrite: await permission('clipboard-sanitized-write'),
  };
  report.cspHeader = await new Promise((resolve) =>
    fake.session.headersReceived({ responseHeaders: {} }, (result) =>
      resolve(result.responseHeaders['Content-Security-Policy']),
    ),
  );

  if (withPlayground) {
    report.playground = await call('playground:start', trusted);
    const endpoint = report.playground.ok ? report.playground.value.endpoint : undefined;
    // Quitting must stop DynamoDB Local (a Java process) before the app exits.
    require('electron').app.quit();
    await until(() => fake.recorded.quitCalls >= 2, 'the second app.quit() after shutdown', 30_000);
    report.quitCalls = fake.recorded.quitCalls;
    report.playgroundStoppedOnQuit = endpoint ? await refusesConnections(endpoint) : undefined;
  }

  report.openedExternally = fake.recorded.openedExternally;
  report.exitCode = fake.recorded.exitCode;
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
