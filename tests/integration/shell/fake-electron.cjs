'use strict';
// A stand-in for the `electron` module, for running the built main bundle under plain Node on
// machines without the Electron binary. It records what main asks of Electron (window options,
// handlers, IPC registrations) so the test can drive them like Electron would. Every object is
// the smallest shape main touches; anything else main calls would throw, which the test reports.
const { EventEmitter } = require('node:events');
const { pathToFileURL } = require('node:url');

const recorded = {
  sandboxEnabledBeforeReady: false,
  windows: [],
  ipcHandlers: new Map(),
  openedExternally: [],
  quitCalls: 0,
  exitCode: undefined,
};

let isReady = false;
let resolveReady;
const ready = new Promise((resolve) => (resolveReady = resolve));

class FakeEvent {
  defaultPrevented = false;
  preventDefault() {
    this.defaultPrevented = true;
  }
}

const app = Object.assign(new EventEmitter(), {
  isPackaged: false,
  enableSandbox() {
    recorded.sandboxEnabledBeforeReady = !isReady;
  },
  requestSingleInstanceLock: () => true,
  whenReady: () => ready,
  isReady: () => isReady,
  getPath: (name) => {
    if (name !== 'userData') throw new Error(`unexpected app.getPath(${name})`);
    return process.env.FAKE_ELECTRON_USER_DATA;
  },
  getVersion: () => '0.0.0-test',
  quit() {
    recorded.quitCalls += 1;
    const event = new FakeEvent();
    app.emit('before-quit', event);
    if (!event.defaultPrevented) app.emit('quit');
  },
  exit(code) {
    recorded.exitCode = code;
  },
});

function fakeSession() {
  return {
    permissionRequest: undefined,
    permissionCheck: undefined,
    headersReceived: undefined,
    setPermissionRequestHandler(handler) {
      this.permissionRequest = handler;
    },
    setPermissionCheckHandler(handler) {
      this.permissionCheck = handler;
    },
    webRequest: {
      onHeadersReceived(handler) {
        session.headersReceived = handler;
      },
    },
  };
}
const session = fakeSession();

class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    this.options = options;
    this.destroyed = false;
    const contents = new EventEmitter();
    contents.session = session;
    contents.mainFrame = { url: '' };
    contents.sent = [];
    contents.send = (channel, payload) => contents.sent.push({ channel, payload });
    contents.getURL = () => contents.mainFrame.url;
    contents.setWindowOpenHandler = (handler) => (contents.windowOpenHandler = handler);
    this.webContents = contents;
    recorded.windows.push(this);
    app.emit('web-contents-created', new FakeEvent(), contents);
  }
  loadFile(file) {
    this.loadedFile = file;
    this.webContents.mainFrame.url = pathToFileURL(file).href;
    return Promise.resolve();
  }
  loadURL(url) {
    this.webContents.mainFrame.url = url;
    return Promise.resolve();
  }
  show() {}
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return this.destroyed;
  }
  static getAllWindows() {
    return recorded.windows.filter((window) => !window.destroyed);
  }
}

const electron = {
  app,
  BrowserWindow,
  ipcMain: {
    handle(channel, listener) {
      if (recorded.ipcHandlers.has(channel)) throw new Error(`${channel} registered twice`);
      recorded.ipcHandlers.set(channel, listener);
    },
    removeHandler(channel) {
      recorded.ipcHandlers.delete(channel);
    },
  },
  shell: {
    openExternal(url) {
      recorded.openedExternally.push(url);
      return Promise.resolve();
    },
  },
  // No keychain here, as on a Linux box without one: saving access keys must be refused.
  safeStorage: {
    isEncryptionAvailable: () => false,
    getSelectedStorageBackend: () => 'basic_text',
    encryptString() {
      throw new Error('encryption is not available');
    },
    decryptString() {
      throw new Error('encryption is not available');
    },
  },
};

/** Makes `require('electron')` anywhere in this process return the stand-in. */
function install() {
  const resolved = require.resolve('electron');
  require.cache[resolved] = { id: resolved, filename: resolved, loaded: true, exports: electron };
}

function emitReady() {
  isReady = true;
  resolveReady();
  app.emit('ready');
}

module.exports = { install, emitReady, recorded, FakeEvent, session };
